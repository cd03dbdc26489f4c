"""The rows [B, x] PrivateCovariance releases to centre, made by the library
(``GramAccumulator.bounded`` with a constant column), and the regression's [1, x] bound: norm
bounds never below their exact values (checked with exact rational arithmetic over B across the
double range) and rows of norm exactly B never clipped by a rounding step."""

import math
import random
from fractions import Fraction

import numpy as np
import pytest

import dpcov

SMALLEST_ROW_BOUND = 2.0 ** -960


def bounds_across_the_range(count=4000, seed=7):
    gen = random.Random(seed)
    values = [5e-324, 2.2250738585072014e-308, 1.0, 2.0, 0.5, 1.7976931348623157e308 / 2]
    for _ in range(count):
        values.append(math.ldexp(gen.uniform(1.0, 2.0), gen.randint(-1074, 1022)))
    return [b for b in values if b > 0 and math.isfinite(b * 1.5)]


def accepted_bounds(count=4000, seed=7):
    return [b for b in bounds_across_the_range(count, seed) if b >= SMALLEST_ROW_BOUND]


def constant_norm_bound(b, d=2):
    with dpcov.GramAccumulator.bounded(d, b, constant=b) as gram:
        return gram.info().bound


def test_norm_bound_is_at_or_above_sqrt2_b_and_tight():
    for b in accepted_bounds(1000):
        bound = constant_norm_bound(b)
        exact = 2 * Fraction(b) ** 2
        assert Fraction(bound) ** 2 >= exact, b
        # At most three steps above: the rule is tight, as the CLI's.
        below = math.nextafter(math.nextafter(math.nextafter(bound, 0), 0), 0)
        assert Fraction(below) ** 2 < exact or below == 0.0, b


def test_the_intercept_bound_is_at_or_above_the_exact_norm_and_tight():
    # The regression's [c, x] bound, the library's (PrivateLinearRegression and `dpcov regress`
    # calibrate AdaSSP with it): never below sqrt(c^2 + B^2), within its room for rounding,
    # (2 + 64) 2^-50 relatively.
    gen = random.Random(11)
    for b in accepted_bounds(2000):
        a = 1.0 if gen.random() < 0.5 else math.ldexp(gen.uniform(1, 2), gen.randint(-600, 500))
        try:
            bound = dpcov.constant_column_norm_bound(a, b)
        except dpcov.DpcovError:
            assert not math.isfinite(math.hypot(a, b) * (1 + 66 * 2.0 ** -50)), (a, b)
            continue
        exact = Fraction(a) ** 2 + Fraction(b) ** 2
        assert Fraction(bound) ** 2 >= exact, (a, b)
        assert Fraction(bound) ** 2 <= exact * (1 + Fraction(1, 2 ** 40)), (a, b)


@pytest.mark.parametrize("bad", [0.0, -1.0, math.nan, math.inf, 1.7976931348623157e308,
                                 5e-324, 2.0 ** -1000, 2.0 ** -961, math.nextafter(2.0 ** -960, 0)])
def test_norm_bound_refuses_bad_bounds(bad):
    with pytest.raises(dpcov.DpcovError):
        constant_norm_bound(bad)


def test_rows_of_norm_b_are_never_clipped_by_a_rounding_step():
    # Rows of computed norm B: with the bound math.hypot(B, B) some [B, x] rows round above it
    # and are clipped (their constant nudged); the library's rows [B, x'] never are, and x'
    # moves by a few ulps only.
    gen = np.random.default_rng(3)
    old_rule_clipped = 0
    for d in (1, 3, 8):
        for b in (1.0, 3.7, 1e-150, 2.5e150):
            x = gen.normal(size=(2000, d))
            x *= (b / np.sqrt(np.einsum("ij,ij->i", x, x)))[:, None]
            with dpcov.GramAccumulator.bounded(d, b, constant=b) as gram:
                gram.add_raw_rows(x)
                info = gram.info()
                assert info.rows == len(x), (d, b)
                g = gram.matrix()
            # The constant column is b in every row: its entry is n b^2 (to the sum's rounding).
            assert g[0, 0] == pytest.approx(len(x) * b * b, rel=1e-13)
            assert np.allclose(g[0, 1:], b * x.sum(axis=0), rtol=1e-9, atol=(2 * d + 26) * 2.3e-16 * b * b * len(x))
            with dpcov.GramAccumulator(d + 1) as gram:
                gram.add_rows(np.hstack([np.full((len(x), 1), b), x]), math.hypot(b, b), "clip")
                old_rule_clipped += gram.info().clipped
    assert old_rule_clipped > 0


def test_private_covariance_clips_no_row_of_norm_b():
    gen = np.random.default_rng(5)
    x = gen.normal(size=(500, 4))
    # Norm B less a few ulps, so that every summation order measures it <= B.
    x *= (2.0 * (1 - 2.0 ** -48) / np.sqrt(np.einsum("ij,ij->i", x, x)))[:, None]
    est = dpcov.PrivateCovariance(bound=2.0, random_state=1, epsilon=1e12, delta=1e-6).fit(x)
    assert est.n_clipped_ == 0
    assert est.receipt_.bound == constant_norm_bound(2.0, 4)
