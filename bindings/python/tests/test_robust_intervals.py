"""PrivateLinearRegression's robust (sandwich) intervals, the default errors="robust": the meat
released with its own share and charged, the intervals labelled, the homoscedastic path where the
forecast expects none, and the coverage of a heteroscedastic slope that the homoscedastic
bootstrap undercovers."""
import warnings

import numpy as np
import pytest

import dpcov


def heteroscedastic(n, seed):
    """Rows [x1, x2] uniform in [-0.5, 0.5], errors of sd 0.6 |x1|: the slope of x1 has about
    twice the variance a constant-variance model gives it."""
    gen = np.random.default_rng(seed)
    X = gen.uniform(-0.5, 0.5, (n, 2))
    y = 0.1 + X @ [0.5, -0.3] + 0.6 * np.abs(X[:, 0]) * gen.standard_normal(n)
    return X, np.clip(y, -1.0, 1.0)


def robust_fit_at_epsilon_4(seed, **options):
    """A robust fit at epsilon = 4 under an accountant of exactly (4, 1e-6), checked: two
    charges within the budget, the meat's share 0.8, the intervals labelled and finite, and
    recomputed from the kept releases at another level (post-processing, narrower at 0.8)."""
    X, y = heteroscedastic(20000, seed)
    with dpcov.BudgetAccountant(4.0, 1e-6) as budget:
        reg = dpcov.PrivateLinearRegression(4.0, bound=1.0, label_bound=1.0, random_state=3,
                                            n_bootstrap=199, **options).fit(X, y)
        assert budget.spent.charges == 2 and budget.spent.epsilon <= 4.0
        assert budget.spent.delta <= 1e-6
    assert reg.errors_ == "robust" and "heteroscedastic" in reg.inference_
    assert "sandwich" in reg.inference_ and np.isfinite(reg.conf_int_).all()
    assert reg.meat_receipt_.mechanism_name == "analyze_gauss"
    assert reg.meat_receipt_.epsilon == pytest.approx(0.8)
    assert reg.receipt_.epsilon + reg.meat_receipt_.epsilon <= 4.0
    assert reg.meat_.shape == (3, 3) and np.array_equal(reg.meat_, reg.meat_.T)
    _, _, ci = reg.noise_aware_intervals(level=0.8, n_bootstrap=199, random_state=4)
    assert np.all(ci[:, 1] - ci[:, 0] < reg.conf_int_[:, 1] - reg.conf_int_[:, 0])
    return reg


def test_robust_is_the_default_and_spends_the_meat_within_epsilon():
    reg = robust_fit_at_epsilon_4(1)
    assert reg.receipt_.label_square_released == 1  # y'y, for the posterior only
    refuse = robust_fit_at_epsilon_4(1, small_n="refuse")
    assert refuse.receipt_.label_square_released == 0  # no posterior: no y'y


def test_where_the_release_does_not_support_the_bootstrap_the_posterior_answers_unspent():
    """n = 500 at epsilon = 1: the forecast for rows on their bounds expects robust intervals,
    the released X'X~ of these rows does not support the bootstrap. Before, nothing answered;
    now the posterior does, labelled, and the meat is not released or charged. Its intervals
    print where the release, not a prior, decides them (here none: proofs/adassp_posterior.md,
    "What the prior decides"); where a prior decides, the standard error is nan too."""
    X, y = heteroscedastic(500, 5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with dpcov.BudgetAccountant(1.0, 1e-6) as budget:
            reg = dpcov.PrivateLinearRegression(1.0, bound=1.0, label_bound=1.0,
                                                random_state=3, n_bootstrap=199).fit(X, y)
            assert budget.spent.charges == 1 and budget.spent.epsilon == pytest.approx(0.8)
    assert reg.errors_ == "homoscedastic" and not hasattr(reg, "meat_")
    assert reg.interval_method_ == "posterior"
    assert reg.inference_.startswith("robust intervals not given")
    assert np.array_equal(np.isnan(reg.conf_int_).any(axis=1), ~reg.conclusive_)
    assert not np.isnan(reg.std_errors_[reg.conclusive_]).any()
    assert np.isnan(reg.std_errors_).any() and np.isnan(reg.p_values_).any()


def test_a_refused_fit_leaves_nothing_charged_or_drawn():
    X, y = heteroscedastic(2000, 2)
    with dpcov.BudgetAccountant(0.5, 1e-6) as budget, dpcov.Rng(4) as rng:
        state = rng.save_state()
        with pytest.raises(dpcov.PreconditionError, match="cap would be exceeded"):
            dpcov.PrivateLinearRegression(1.0, bound=1.0, label_bound=1.0,
                                          intervals="always", random_state=rng).fit(X, y)
        assert budget.spent.charges == 0 and rng.save_state() == state


def test_where_the_forecast_expects_no_interval_the_homoscedastic_path_answers_labelled():
    X, y = heteroscedastic(50, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reg = dpcov.PrivateLinearRegression(1.0, bound=1.0, label_bound=1.0,
                                            random_state=9).fit(X, y)
    assert reg.errors_ == "homoscedastic" and not hasattr(reg, "meat_")
    assert reg.inference_.startswith("robust intervals not attempted")


def test_errors_is_checked_before_anything_is_released():
    X, y = heteroscedastic(100, 4)
    with pytest.raises(ValueError, match="errors must be one of"):
        dpcov.PrivateLinearRegression(bound=1.0, label_bound=1.0, errors="sandwich").fit(X, y)


def test_column_bounds_fits_are_robust_too():
    X, y = heteroscedastic(20000, 5)
    reg = dpcov.PrivateLinearRegression(4.0, bounds=([-0.5, -0.5, -1.0], [0.5, 0.5, 1.0]),
                                        random_state=6, n_bootstrap=199).fit(X, y)
    assert reg.errors_ == "robust" and "mapped to [-1, 1]" in reg.inference_
    assert np.isnan(reg.conf_int_[0]).all() and np.isfinite(reg.conf_int_[1:]).all()
    assert reg.conf_int_[1, 0] < 0.5 < reg.conf_int_[1, 1]


def test_robust_intervals_cover_a_heteroscedastic_slope():
    # 40 fits at n = 2e4, epsilon = 4, 199 worlds, fixed seeds; the slope of x1 has 1.8 times
    # the variance a constant-variance model gives it. Each 95% interval covers with probability
    # >= 0.93 if calibrated, so fewer than 33 of 40 happens with probability
    # P(Bin(40, 0.93) <= 32) = 0.006 (the test's false-failure rate).
    covered = 0
    for seed in range(40):
        X, y = heteroscedastic(20000, 100 + seed)
        reg = dpcov.PrivateLinearRegression(4.0, bound=1.0, label_bound=1.0, random_state=seed,
                                            n_bootstrap=199).fit(X, y)
        covered += reg.conf_int_[1, 0] <= 0.5 <= reg.conf_int_[1, 1]
    assert covered >= 33, covered


def test_a_gram_mechanism_is_robust_by_default_with_both_releases_charged():
    reg = robust_fit_at_epsilon_4(7, mechanism="analyze_gauss")
    assert reg.receipt_.mechanism_name == "analyze_gauss"
    assert reg.receipt_.epsilon == pytest.approx(3.2)


def test_a_gram_mechanism_refused_by_the_accountant_draws_nothing():
    # Room for the release's share but not for the meat: refused before the first draw.
    X, y = heteroscedastic(2000, 8)
    with dpcov.BudgetAccountant(3.5, 1e-6) as budget:
        with pytest.raises(dpcov.PreconditionError):
            dpcov.PrivateLinearRegression(4.0, bound=1.0, label_bound=1.0, random_state=1,
                                          mechanism="analyze_gauss").fit(X, y)
        assert budget.spent.charges == 0


def test_a_gram_mechanism_states_its_assumptions_where_it_is_not_robust():
    X, y = heteroscedastic(20000, 9)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        homo = dpcov.PrivateLinearRegression(4.0, bound=1.0, label_bound=1.0, random_state=3,
                                             mechanism="analyze_gauss", errors="homoscedastic",
                                             n_bootstrap=199).fit(X, y)
        ridge = dpcov.PrivateLinearRegression(4.0, bound=1.0, label_bound=1.0, random_state=3,
                                              mechanism="analyze_gauss", ridge=1.0).fit(X, y)
    assert homo.errors_ == "homoscedastic" and not hasattr(homo, "meat_")
    assert "constant error variance" in homo.inference_
    assert homo.receipt_.epsilon == pytest.approx(4.0)
    assert ridge.errors_ == "homoscedastic" and not hasattr(ridge, "meat_")


def test_gram_robust_intervals_cover_a_heteroscedastic_slope():
    # As test_robust_intervals_cover_a_heteroscedastic_slope with mechanism="analyze_gauss":
    # false-failure rate P(Bin(40, 0.93) <= 32) = 0.006. A calibration check of the surface only:
    # the homoscedastic bootstrap covers 36 of these 40 too; the test that tells them apart is
    # tests/statistical/sandwich_coverage_test.cpp (GramMechanism*, 300 fits of a peaked model).
    covered = 0
    for seed in range(40):
        X, y = heteroscedastic(20000, 200 + seed)
        reg = dpcov.PrivateLinearRegression(4.0, bound=1.0, label_bound=1.0, random_state=seed,
                                            mechanism="analyze_gauss", n_bootstrap=199).fit(X, y)
        covered += reg.conf_int_[1, 0] <= 0.5 <= reg.conf_int_[1, 1]
    assert covered >= 33, covered


def test_a_gram_release_with_no_coefficients_is_an_output_not_an_exception():
    # At n = 100, epsilon = 0.5 Analyze Gauss's feature block is indefinite in most fits: as on
    # AdaSSP's path the refusal is an output (NaN coefficients and intervals, a warning,
    # inference_ saying why), and the meat is neither released nor charged.
    X, y = heteroscedastic(100, 10)
    with dpcov.BudgetAccountant(0.5, 1e-6) as budget:
        with pytest.warns(UserWarning, match="no coefficients and no intervals"):
            reg = dpcov.PrivateLinearRegression(0.5, bound=1.0, label_bound=1.0, random_state=2,
                                                mechanism="analyze_gauss").fit(X, y)
        assert budget.spent.charges == 1
    assert np.isnan(reg.params_).all() and np.isnan(reg.coef_).all()
    assert reg.conf_int_.shape == (3, 2) and np.isnan(reg.conf_int_).all()
    assert reg.inference_.startswith("none: the release has no least-squares coefficients")
    assert "not positive definite" in reg.inference_ and not reg.conclusive_.any()
    assert not hasattr(reg, "meat_") and np.isnan(reg.predict(X[:2])).all()


@pytest.mark.parametrize("errors,seed,width", [("robust", 1, 0.023), ("homoscedastic", 0, 0.0245)])
def test_a_gram_release_keeps_the_intervals_a_weak_direction_leaves_bounded(errors, seed, width):
    # A column using about 2.5% of its range: its direction of X'X is 2-3 noise sds strong at
    # n = 5e4, epsilon 4, and with these seeds too weak for the release to bound its slope. Its
    # slope alone goes without an interval (NaN, conclusive_ False, a warning naming it); the
    # intercept and the other slope keep theirs (dpcov_ols_intervals), where the whole fit used
    # to be refused.
    gen = np.random.default_rng(seed)
    X = np.column_stack([gen.uniform(-0.5, 0.5, 50000), gen.uniform(-width, width, 50000)])
    y = np.clip(0.1 + X @ [0.5, 0.3] + 0.2 * gen.standard_normal(50000), -1.0, 1.0)
    with pytest.warns(UserWarning, match=r"coefficients \[2\]: they lie along a direction"):
        reg = dpcov.PrivateLinearRegression(4.0, bound=1.0, label_bound=1.0, random_state=seed,
                                            mechanism="analyze_gauss", errors=errors,
                                            n_bootstrap=199).fit(X, y)
    assert reg.conclusive_.tolist() == [True, True, False]
    assert np.isfinite(reg.conf_int_[:2]).all() and np.isnan(reg.conf_int_[2]).all()
    assert np.isnan(reg.std_errors_[2]) and np.isnan(reg.p_values_[2])
    assert np.isfinite(reg.params_).all()
    assert reg.conf_int_[1, 0] <= 0.5 <= reg.conf_int_[1, 1]
    _, _, ci = reg.noise_aware_intervals(n_bootstrap=199, random_state=5)
    assert np.isfinite(ci[:2]).all() and np.isnan(ci[2]).all()


GRAM_ENTRIES = [m for m in dpcov.mechanisms() if m.family == "gram"]


@pytest.mark.parametrize("entry", GRAM_ENTRIES, ids=[m.name for m in GRAM_ENTRIES])
def test_the_robust_gram_mechanisms_are_the_registrys(entry):
    # The list is the registry's robust_gram bit, which the command line reads too
    # (tests/cli/regress_gram_test.py): robust intervals exactly for the mechanisms it marks.
    reg = dpcov.PrivateLinearRegression(0.9, bound=1.0, label_bound=1.0, random_state=1,
                                        mechanism=entry.name)
    robust = reg._gram_split(entry.name, 1.0, {}) is not None
    assert robust == ("robust_gram" in entry.inference)
    if robust or entry.name == "iev":
        X, y = heteroscedastic(3000, 11)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            reg.set_params(n_bootstrap=39).fit(X, y)
        assert reg.errors_ == ("robust" if robust else "homoscedastic")
        assert hasattr(reg, "meat_") == robust


@pytest.mark.parametrize("n, epsilon", [(20000, 4.0), (500, 1.0)])
def test_deferred_intervals_release_what_the_default_does_and_compute_nothing(n, epsilon):
    """intervals="deferred" spends as the default (the same receipts, charges, coefficients and,
    where the bootstrap answers, the same meat), prints no interval, and noise_aware_intervals()
    then gives the default fit's: at n = 2e4 the robust bootstrap answers, at n = 500 the
    posterior would (no meat released)."""
    X, y = heteroscedastic(n, 5)
    fits, spent = {}, {}
    for intervals in (True, "deferred"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with dpcov.BudgetAccountant(epsilon, 1e-6) as budget:
                fits[intervals] = dpcov.PrivateLinearRegression(
                    epsilon, bound=1.0, label_bound=1.0, random_state=3, n_bootstrap=199,
                    intervals=intervals).fit(X, y)
                spent[intervals] = (budget.spent.charges, budget.spent.epsilon)
    default, deferred = fits[True], fits["deferred"]
    assert spent[True] == spent["deferred"]
    np.testing.assert_array_equal(default.params_, deferred.params_)
    assert default.receipt_ == deferred.receipt_ and default.errors_ == deferred.errors_
    assert hasattr(default, "meat_") == hasattr(deferred, "meat_") == (n == 20000)
    if n == 20000:
        np.testing.assert_array_equal(default.meat_, deferred.meat_)
        assert default.meat_receipt_ == deferred.meat_receipt_
    assert np.isnan(deferred.conf_int_).all() and deferred.interval_method_ is None
    # The default computed its intervals (at n = 500 a prior decides them all: none prints).
    assert "deferred" in deferred.inference_ and default.interval_method_ is not None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for a, b in zip(default.noise_aware_intervals(), deferred.noise_aware_intervals()):
            np.testing.assert_array_equal(a, b)


ROBUST_GRAM = [m.name for m in GRAM_ENTRIES if "robust_gram" in m.inference]


@pytest.mark.parametrize("errors", ["robust", "homoscedastic"])
@pytest.mark.parametrize("mechanism", ROBUST_GRAM)
def test_a_gram_fits_coefficients_are_its_intervals_estimate(mechanism, errors):
    # The printed coefficients are the estimate the noise-aware intervals are about: the
    # additive Wishart's noise mean dof * scale * I is subtracted from the release first, else it
    # acts as a ridge penalty (at n = 2e4, epsilon 0.9 the slopes came out about a fifth small and
    # outside their own intervals).
    X, y = heteroscedastic(20000, 12)
    reg = dpcov.PrivateLinearRegression(0.9, bound=1.0, label_bound=1.0, random_state=2,
                                        mechanism=mechanism, errors=errors, n_bootstrap=199)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reg.fit(X, y)
    released, receipt = reg.release_, reg.receipt_
    out = dpcov.ols.ols_intervals(released, receipt, X.shape[1] + 1, np.arange(1, X.shape[1] + 1),
                                  dpcov.Rng(3), 0, 0.95, 39)
    # The release is of the balanced rows; unit_factors_ maps its coefficients to the data's.
    np.testing.assert_allclose(reg.params_, out.coefficients * reg.unit_factors_, rtol=1e-9,
                               atol=1e-12)
    inside = (reg.conf_int_[:, 0] <= reg.params_) & (reg.params_ <= reg.conf_int_[:, 1])
    assert inside.all(), (reg.params_, reg.conf_int_)
