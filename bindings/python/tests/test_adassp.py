"""AdaSSP's noise-aware intervals through the Python binding."""

import numpy as np
import pytest

import dpcov


def _gram(n=20000, seed=5):
    gen = np.random.default_rng(seed)
    x = gen.uniform(-1, 1, (n, 2)) / np.sqrt(2)
    y = np.clip(x @ [0.5, -0.25] + 0.1 * gen.standard_normal(n), -1, 1)
    a = np.column_stack([x, y])
    return a.T @ a


def test_intervals_need_y_squared_and_cover_beta_at_a_large_epsilon():
    g = _gram()
    with dpcov.Rng(seed=6) as rng:
        fit = dpcov.adassp_fit(g, 2, [0, 1], 1.0, 1.0, 1e4, 1e-6, rng,
                               release_label_square=True)
        assert fit.receipt.label_square_released == 1 and fit.receipt.sigma_label_square > 0
        out = dpcov.adassp_bootstrap_intervals(fit, 20000, rng, level=0.95, num_bootstrap=199)
        assert np.all(out.ci_lower < [0.5, -0.25]) and np.all(out.ci_upper > [0.5, -0.25])
        assert np.all(out.p_values <= 2 / 200) and np.all(out.std_errors > 0)
        plain = dpcov.adassp_fit(g, 2, [0, 1], 1.0, 1.0, 1e4, 1e-6, rng)
        with pytest.raises(dpcov.DpcovError, match="y'y"):
            dpcov.adassp_bootstrap_intervals(plain, 20000, rng)


def test_profile_intervals_cover_beta_and_read_the_meat_instead_of_y_squared():
    g = _gram()
    with dpcov.Rng(seed=6) as rng:
        fit = dpcov.adassp_fit(g, 2, [0, 1], 1.0, 1.0, 1e4, 1e-6, rng,
                               release_label_square=True)
        out = dpcov.adassp_profile_intervals(fit, 20000)
        assert np.all(out.ci_lower < [0.5, -0.25]) and np.all(out.ci_upper > [0.5, -0.25])
        assert np.all(out.conclusive) and np.all(out.p_values < 1e-6)
        plain = dpcov.adassp_fit(g, 2, [0, 1], 1.0, 1.0, 1e4, 1e-6, rng)
        with pytest.raises(dpcov.DpcovError, match="y'y"):
            dpcov.adassp_profile_intervals(plain, 20000)
        robust = dpcov.adassp_profile_intervals(plain, meat=0.01 * np.asarray(plain.released_xtx))
        assert np.all(robust.ci_lower < robust.coefficients)
        assert np.all(robust.ci_upper > robust.coefficients)


def test_plan_and_fit_receipts_state_idealized_numerics():
    # AdaSSP's Gaussian noise is sampled in floating point: its receipt says so, as a release's.
    plan = dpcov.adassp_plan(2, 1.0, 1.0, 1.0, 1e-6)
    with dpcov.Rng(seed=6) as rng:
        fit = dpcov.adassp_fit(_gram(), 2, [0, 1], 1.0, 1.0, 1.0, 1e-6, rng)
    for receipt in (plan, fit.receipt):
        assert receipt.numerics == 0  # DPCOV_NUMERICS_IDEALIZED
        assert receipt.to_dict()["numerics"] == 0
