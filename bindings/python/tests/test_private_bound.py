"""The private bound (dpcov/private_bound.h) through Python: the grid, the histogram's cells as
the C ABI defines them, a choice near the target quantile, and bad arguments raised."""

import warnings
from pathlib import Path

import numpy as np
import pytest

import dpcov
from dpcov import private_bound


def test_grid_and_histogram_cells():
    g = private_bound.grid(0.5, 7.0, 2.0)
    assert list(g) == [0.5, 1.0, 2.0, 4.0, 8.0]
    # A norm equal to a candidate falls in that candidate's cell; above the top, the last cell.
    assert list(private_bound.histogram([0.1, 0.5, 0.6, 8.0, 9.0], g)) == [2, 1, 0, 0, 1, 1]


def test_unit_histogram_counts_each_unit_once_by_its_largest_norm():
    # Units 7: norms 0.5 and 3 (cell 2); 5: 2 (cell 1); 9: 0.6 (cell 0); 4: 20 (above the grid).
    g = private_bound.grid(1.0, 4.0, 2.0)
    x = np.array([[0.3, 0.4], [0.0, 2.0], [1.8, 2.4], [0.6, 0.0], [12.0, 16.0]])
    assert list(private_bound.unit_histogram(x, [7, 5, 7, 9, 4], g)) == [1, 1, 1, 1]
    # One row per unit: the row histogram.
    assert list(private_bound.unit_histogram(x, np.arange(5), g)) == list(
        private_bound.row_histogram(x, g))
    with pytest.raises(ValueError):
        private_bound.unit_histogram(x, [1, 2], g)


@pytest.mark.parametrize("seed", range(5))
def test_unit_slices_hold_whole_units_of_about_the_slice_size(seed):
    gen = np.random.default_rng(seed)
    ids = np.sort(gen.integers(-50, 50, size=int(gen.integers(0, 400))))
    slices = list(private_bound.unit_slices(ids, 16))
    assert [a for a, _ in slices] == [0] + [b for _, b in slices[:-1]]  # contiguous
    assert (slices[-1][1] if slices else 0) == len(ids)  # and covering
    for a, b in slices:
        assert b > a and (b == len(ids) or ids[b] != ids[b - 1])  # whole units
        assert b - a <= 16 or ids[a] == ids[b - 1]  # larger only for a single unit


@pytest.mark.parametrize("layout", ["C", "F"])
def test_a_unit_histogram_in_slices_is_the_one_of_every_unit_at_once(monkeypatch, layout):
    # Sorted ids go to the library in slices of whole units (units of 1 to 40 rows, some larger
    # than a slice), unsorted ones in one call: the same counts.
    monkeypatch.setattr(private_bound, "UNIT_SLICE_ROWS", 16)
    gen = np.random.default_rng(7)
    ids = np.repeat(np.arange(60), gen.integers(1, 41, size=60))
    x = np.asarray(gen.standard_cauchy(size=(len(ids), 3)), order=layout)
    g = private_bound.grid(1e-2, 1e3, 1.25)
    order = gen.permutation(len(ids))
    whole = private_bound.unit_histogram(x[order], ids[order], g)
    assert whole.sum() == 60
    np.testing.assert_array_equal(private_bound.unit_histogram(x, ids, g), whole)


def test_choice_is_near_the_quantile():
    x = np.random.default_rng(1).normal(size=(2000, 3)) * 50.0
    bound = private_bound.choose_bound(x, 1.0, dpcov.Rng(seed=5), quantile=0.9)
    norms = np.linalg.norm(x, axis=1)
    assert np.quantile(norms, 0.8) < bound < np.quantile(norms, 0.97)


DIABETES = Path(__file__).resolve().parents[3] / "data" / "diabetes.csv"


def test_scan_is_the_default_and_stays_near_the_data_on_a_wide_grid():
    # Raw diabetes (442 rows, 95% norm quantile 422) on the CLI's grid at eps_B 0.4: the scan's
    # exact law puts 0.997 of its mass on [0.8 q, 2 q] (proofs/private_bound.md, "The scan"):
    # more than 3 misses in 12 seeds has probability 3.6e-8.
    x = np.genfromtxt(DIABETES, delimiter=",", skip_header=1)
    q = np.quantile(np.linalg.norm(x, axis=1), 0.95)
    chosen = [private_bound.choose_bound(x, 0.4, dpcov.Rng(seed=s), quantile=0.95, lo=1e-6,
                                         hi=1e9) for s in range(12)]
    assert sum(not 0.8 * q <= b <= 2 * q for b in chosen) <= 3
    # The same seed gives the same choice through scan() on the same histogram.
    g = private_bound.grid(1e-6, 1e9)
    counts = private_bound.histogram(np.linalg.norm(x, axis=1), g)
    assert private_bound.scan(counts, g, 22, 0.4, dpcov.Rng(seed=0))[1] == chosen[0]


def test_a_clipped_target_needs_no_n():
    x = np.random.default_rng(1).normal(size=(2000, 3)) * 50.0
    norms = np.sort(np.linalg.norm(x, axis=1))[::-1]
    bound = private_bound.choose_bound(x, 1.0, dpcov.Rng(seed=5), clipped=100)
    # About 100 rows above: between the norms ranked 300th and 20th from the top, up to the grid.
    assert norms[300] < bound < norms[20] * 1.25
    for bad in (-1, 2.5, True):
        with pytest.raises(ValueError):
            private_bound.choose_bound(x, 1.0, dpcov.Rng(seed=5), clipped=bad)
    with pytest.raises(ValueError):
        private_bound.choose_bound(x, 1.0, dpcov.Rng(seed=5), rule="median")


def test_bad_arguments_raise():
    g = private_bound.grid()
    with pytest.raises(dpcov.InvalidArgumentError):
        private_bound.grid(1.0, 0.5)
    with pytest.raises(dpcov.InvalidArgumentError):
        private_bound.select(np.zeros(len(g) + 1), g, -1, 1.0, dpcov.Rng(seed=1))
    with pytest.raises(dpcov.InvalidArgumentError):
        private_bound.select(np.zeros(len(g) + 1), g[::-1].copy(), 0, 1.0, dpcov.Rng(seed=1))
    with pytest.raises(dpcov.DimensionError):
        private_bound.select(np.zeros(len(g)), g, 0, 1.0, dpcov.Rng(seed=1))
    for bad_epsilon in (0.0, 2.0 ** -27):
        with pytest.raises(dpcov.InvalidArgumentError):
            private_bound.scan(np.zeros(len(g) + 1), g, 0, bad_epsilon, dpcov.Rng(seed=1))
    with pytest.raises(dpcov.DimensionError):
        private_bound.scan(np.zeros(len(g)), g, 0, 1.0, dpcov.Rng(seed=1))


def test_tightening_grid_stays_at_or_below_the_public_bound():
    g = private_bound.below_grid(3.0)
    assert len(g) == 13 and g[-1] == 3.0 and np.all(np.diff(g) > 0)
    np.testing.assert_array_equal(g[:-1], 3.0 / 1.25 ** np.arange(12, 0, -1))
    norms = np.linspace(0.0, 1.0, 1000)
    chosen = private_bound.tighten_bound(norms, 3.0, 10.0, dpcov.Rng(seed=2))
    assert chosen in g and 0.8 < chosen < 1.25
    with pytest.raises(dpcov.InvalidArgumentError):
        private_bound.below_grid(0.0)
    for quantile in (0.0, 1.5):
        with pytest.raises(dpcov.InvalidArgumentError):
            private_bound.tighten_bound(norms, 3.0, 1.0, dpcov.Rng(seed=2), quantile=quantile)


def test_rows_over_the_public_bound_count_on_it_on_every_surface():
    # The fit clips a row over the public bound onto it, so the choice counts it there: with a
    # target of no row above (quantile 1), the bound itself is the one candidate with none above
    # it, whatever the rows beyond it. The command line's `regress --bound-epsilon` takes the
    # same library call (tests/cli/regress_decisions_test.py compares the two).
    gen = np.random.default_rng(3)
    x = gen.normal(size=(200, 3))
    x *= (0.5 / np.linalg.norm(x, axis=1))[:, None]
    x[:40] *= 10.0  # 40 rows of norm 5, over the public bound 3
    for seed in range(20):
        assert private_bound.tighten_bound_rows(x, 3.0, 50.0, dpcov.Rng(seed=seed),
                                                quantile=1.0) == 3.0
    # The histogram is the rows', n their number: one that does not add up is refused.
    g = private_bound.below_grid(3.0)
    counts = private_bound.row_histogram(x, g)
    assert counts[-1] == 40
    with pytest.raises(dpcov.InvalidArgumentError, match="n is 199"):
        private_bound._tighten(counts, 3.0, 199, 0.95, 1.0, dpcov.Rng(seed=1))


def test_estimators_take_a_clipped_target_whose_bound_step_serves_add_remove():
    x = np.genfromtxt(DIABETES, delimiter=",", skip_header=1)
    norms = np.sort(np.linalg.norm(x, axis=1))[::-1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", dpcov.ClippingWarning)
        # About 10 rows above B (eps_B 0.4, noise scale 5): between the norms ranked 60th and
        # first, up to the grid's ratio, in about 92% of releases (184 of seeds 1-200); B is
        # random, so the test counts seeds: at least 80 of 100 fail with probability about
        # 5e-6 when 92% is the truth (binomial), and a bound step that ignored the target, or
        # counted all rows, lands outside in every release.
        inside = 0
        for seed in range(1, 101):
            model = dpcov.PrivateCovariance(epsilon=4.0, bound="auto", bound_clipped=10,
                                            mechanism_options={"neighbour": "add_remove"},
                                            random_state=seed).fit(x)
            inside += norms[60] < model.bound_ < norms[0] * 1.25 ** 2
        assert inside >= 80
        pca = dpcov.PrivatePCA(n_components=2, epsilon=4.0, bound="auto", bound_clipped=10,
                               random_state=1).fit(x)
        assert pca.get_params()["bound_clipped"] == 10
    with pytest.raises(ValueError, match="bound_clipped"):
        dpcov.PrivateCovariance(epsilon=4.0, bound="auto",
                                mechanism_options={"neighbour": "add_remove"}).fit(x)
    with pytest.raises(ValueError, match="bound='auto' only"):
        dpcov.PrivateCovariance(epsilon=4.0, bound=500.0, bound_clipped=10).fit(x)
    with pytest.raises(ValueError, match="exclude each other"):
        dpcov.PrivateCovariance(epsilon=4.0, bounds=(0, 500), bound_clipped=10).fit(x)


def test_bound_step_rest_is_exact_over_random_budgets():
    """dpcov_bound_step_rest against exact rational arithmetic: bound_epsilon + rest <= epsilon,
    and the next double above rest breaks it, at 20000 random points over the whole range of
    budgets (and shares from 2^-60 to nearly all of epsilon)."""
    import math
    import random
    from fractions import Fraction as F

    gen = random.Random(20261201)
    for _ in range(20000):
        epsilon = math.ldexp(gen.uniform(1.0, 2.0), gen.randint(-1000, 39))
        kind = gen.randrange(3)
        share = (gen.random() if kind == 0 else math.ldexp(gen.random(), -gen.randint(1, 60))
                 if kind == 1 else 1.0 - math.ldexp(gen.random(), -gen.randint(1, 50)))
        bound_epsilon = share * epsilon
        if not 0.0 < bound_epsilon < epsilon:
            continue
        rest = private_bound.bound_step_rest(epsilon, bound_epsilon)
        assert F(bound_epsilon) + F(rest) <= F(epsilon), (epsilon, bound_epsilon)
        above = math.nextafter(rest, math.inf)
        assert F(bound_epsilon) + F(above) > F(epsilon), (epsilon, bound_epsilon)
    assert private_bound.BOUND_STEP_SHARE == 0.1
    with pytest.raises(ValueError):
        private_bound.bound_step_rest(1.0, 1.0)


def test_quantile_target_is_the_floor_of_the_exact_product():
    """floor((1 - q) n) of the doubles 1 - q and n, in exact rational arithmetic, at 20000 random
    points; the automatic bound's constants are the library's."""
    import math
    import random
    from fractions import Fraction as F

    gen = random.Random(36)
    for _ in range(20000):
        q = gen.choice([gen.random(), 1.0 - math.ldexp(gen.random(), -gen.randint(1, 40)),
                        round(gen.random(), 3)]) or 0.5
        n = gen.choice([gen.randint(0, 1000), gen.randint(0, 1 << 53)])
        expected = math.floor(F(1.0 - q) * n)
        assert private_bound.quantile_target(q, n) == expected, (q, n)
    assert private_bound.AUTO_BOUND_GRID == {"lo": 1e-6, "hi": 1e9, "ratio": 1.25}
    assert private_bound.AUTO_BOUND_QUANTILE == 0.95
    assert len(private_bound.grid(**private_bound.AUTO_BOUND_GRID)) == 156
    with pytest.raises(ValueError):
        private_bound.quantile_target(0.0, 10)
