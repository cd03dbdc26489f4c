"""coinpress_centred_release never fails because of what the rows hold: on finite rows of any
magnitude, wherever both plans accept the settings, it succeeds with finite outputs or fails after
its first draw with a status that only a draw leads to. Rows near +-1e308 on opposite sides of the
private mean were centred by a plain subtraction: a row on the far side became infinite and the
covariance release failed naming it (NonFiniteError), where its neighbour on the near side was
released. The same rule as `dpcov release --center` (tests/cli/zcdp_rows_extreme_test.cpp)."""

import numpy as np

import dpcov
from dpcov.coinpress import coinpress_centred_release, coinpress_mean_plan, coinpress_plan
from dpcov.errors import NumericalError, RefusedError

MAGNITUDES = np.array([-1.7976931348623157e308, -0.9e308, -1e300, -1.0, 0.0, 1e-300, 1.0, 1e154,
                       0.9e308, 1.7976931348623157e308])


def test_centred_release_on_extreme_rows_fails_only_after_a_draw():
    gen = np.random.default_rng(20261124)
    released = 0
    for case in range(150):
        n = int(gen.choice([1, 2, 5, 40]))
        d = int(gen.integers(1, 4))
        rows = gen.choice(MAGNITUDES, size=(n, d))
        k_bound = float(gen.choice([1.0, 4.0, 1e100]))
        radius = float(gen.choice([0.0, 1.0, 1e300, 1.7976931348623157e308]))
        steps = int(gen.integers(1, 5))
        rho_mean, rho_cov = dpcov.coinpress_centring_split(0.5)
        try:
            coinpress_mean_plan(n, d, radius, rho_mean, float(np.sqrt(k_bound)), steps, None, 1e-6)
            coinpress_plan(n, d, k_bound, rho_cov, steps, None, 1e-6)
        except dpcov.DpcovError:
            continue  # refused before any row is read
        rng = dpcov.Rng.seeded(case)
        before = rng.save_state()
        try:
            out = coinpress_centred_release(rows, k_bound=k_bound, radius=radius, rng=rng,
                                            rho=0.5, steps=steps, delta=1e-6)
        except (NumericalError, RefusedError):
            assert rng.save_state() != before, f"case {case}: failed before its first draw"
            continue
        released += 1
        assert np.isfinite(out[0]).all() and np.isfinite(out[1]).all(), f"case {case}"
    assert released > 50
