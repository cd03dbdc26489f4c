"""The scikit-learn style estimators: parameters, fit/transform/predict, and their results on
data where the privacy noise is negligible (huge epsilon) or dominant."""

import pathlib
import warnings

import numpy as np
import pytest

import dpcov

# With epsilon = 1e12 the analytic-Gaussian sigma of Analyze Gauss is 1e-6 B^2 (it falls like
# 1 / sqrt(epsilon) for large epsilon): negligible against the statistics of the few hundred rows
# used here, so the private estimates must match the exact ones to about 1e-4.
NEGLIGIBLE_NOISE = dict(epsilon=1e12, delta=1e-6)


@pytest.fixture
def gaussian_rows():
    gen = np.random.default_rng(41)
    cov = np.array([[1.0, 0.5, 0.0], [0.5, 0.8, -0.2], [0.0, -0.2, 0.3]])
    return gen.multivariate_normal([0.5, -0.2, 0.1], cov, size=500) / 5.0


def test_get_and_set_params_follow_scikit_learn():
    est = dpcov.PrivateLinearRegression(epsilon=0.5, ridge=2.0)
    params = est.get_params()
    assert params["epsilon"] == 0.5 and params["ridge"] == 2.0
    assert set(params) == {"epsilon", "delta", "bound", "label_bound", "fit_intercept",
                           "mechanism", "rho", "calibration", "neighbour", "ridge", "level",
                           "numerics", "errors", "max_rows_per_unit",
                           "intervals", "n_bootstrap", "plug_in",
                           "projection_rows", "policy", "random_state", "mechanism_options",
                           "bound_epsilon", "bound_quantile", "bounds", "small_n"}
    assert est.set_params(epsilon=2.0) is est and est.epsilon == 2.0
    with pytest.raises(ValueError, match="(?i)invalid parameter"):
        est.set_params(alpha=1.0)
    clone = type(est)(**est.get_params())
    assert clone.get_params() == est.get_params()
    assert "PrivateLinearRegression(epsilon=2.0" in repr(est)


def test_private_covariance_matches_numpy_when_the_noise_is_negligible(gaussian_rows):
    est = dpcov.PrivateCovariance(bound=2.0, random_state=1, **NEGLIGIBLE_NOISE).fit(gaussian_rows)
    np.testing.assert_allclose(est.location_, gaussian_rows.mean(axis=0), atol=1e-4)
    np.testing.assert_allclose(est.covariance_, np.cov(gaussian_rows.T, bias=True), atol=1e-4)
    assert est.n_samples_ == 500 and est.n_clipped_ == 0 and est.n_features_in_ == 3
    assert est.receipt_.mechanism_name == "analyze_gauss" and est.receipt_.dim == 4
    assert est.receipt_.seed_fixed == 1
    np.testing.assert_allclose(est.get_precision() @ est.covariance_, np.eye(3), atol=1e-8)
    centered = dpcov.PrivateCovariance(bound=2.0, assume_centered=True, random_state=1,
                                       **NEGLIGIBLE_NOISE).fit(gaussian_rows)
    np.testing.assert_allclose(centered.covariance_, gaussian_rows.T @ gaussian_rows / 500,
                               atol=1e-4)


def test_a_plug_in_table_on_a_clamped_residual_sum_says_its_errors_are_not_the_datas():
    # A noisy release can put y'y below b'X'y: the residual sum is clamped to 0, and the plug-in
    # standard errors are 0 by construction. The table's basis says so.
    gen = np.random.default_rng(3)
    X = gen.normal(size=(2000, 2)) * 0.4
    y = np.clip(X @ [0.5, -0.3] + 0.1 * gen.normal(size=2000), -1, 1)
    seen = set()
    for seed in range(2):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est = dpcov.PrivateLinearRegression(epsilon=1.0, bound=1.5, label_bound=1.0,
                                                mechanism="laplace_sym", plug_in=True,
                                                random_state=seed).fit(X, y)
        clamped = bool(est.plug_in_["summary"].rss_clamped)
        seen.add(clamped)
        assert ("clamped to 0" in est.plug_in_["basis"]) == clamped
        if clamped:
            assert np.all(est.plug_in_["std_errors"] == 0)
    assert seen == {True, False}


def test_estimators_give_the_same_result_for_c_and_fortran_input(gaussian_rows):
    for cls in (dpcov.PrivateCovariance, dpcov.PrivatePCA):
        c = cls(bound=1.0, random_state=3).fit(np.ascontiguousarray(gaussian_rows))
        f = cls(bound=1.0, random_state=3).fit(np.asfortranarray(gaussian_rows))
        np.testing.assert_allclose(c.covariance_, f.covariance_, rtol=1e-12, atol=1e-15)


def test_a_small_budget_gives_a_noisy_but_positive_semidefinite_covariance(gaussian_rows):
    est = dpcov.PrivateCovariance(epsilon=0.1, bound=1.0, random_state=4).fit(gaussian_rows)
    assert np.linalg.eigvalsh(est.covariance_).min() >= -1e-12
    assert np.abs(est.covariance_ - np.cov(gaussian_rows.T, bias=True)).max() > 1e-3


def test_private_pca_recovers_the_principal_subspace(gaussian_rows):
    pca = dpcov.PrivatePCA(n_components=2, bound=2.0, random_state=5, **NEGLIGIBLE_NOISE)
    scores = pca.fit_transform(gaussian_rows)
    assert scores.shape == (500, 2) and pca.components_.shape == (2, 3)
    exact = np.cov(gaussian_rows.T, bias=True)
    ev, evec = np.linalg.eigh(exact)
    np.testing.assert_allclose(pca.explained_variance_, ev[::-1][:2], rtol=1e-3)
    np.testing.assert_allclose(np.abs(pca.components_ @ evec[:, ::-1][:, :2]), np.eye(2),
                               atol=1e-3)
    assert pca.explained_variance_ratio_.sum() < 1.0
    back = pca.inverse_transform(scores)
    assert back.shape == gaussian_rows.shape
    dist = dpcov.pca_subspace_distance(pca.covariance_, exact, 2)
    assert dist.sin_theta_spectral < 1e-3


def test_private_pca_bounds_its_subspace_error_and_warns_when_swamped():
    gen = np.random.default_rng(8)
    X = gen.normal(size=(20000, 3)) * [0.2, 0.07, 0.05] + [0.3, -0.2, 0.1]
    pca = dpcov.PrivatePCA(n_components=1, epsilon=4.0, bound=2.0, random_state=3).fit(X)
    err = pca.subspace_error_
    assert isinstance(err, dpcov.estimators.SubspaceErrorBound) and not err.swamped
    assert 0 < err.sin_theta_bound < 0.5 and err.noise_norm > 0
    assert err.eigengap == pytest.approx(np.diff(np.linalg.eigvalsh(pca.covariance_))[-1])
    exact = np.cov(X.T, bias=True)
    assert dpcov.pca_subspace_distance(pca.covariance_, exact, 1).sin_theta_spectral <= \
        err.sin_theta_bound
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        auto = dpcov.PrivatePCA(n_components=1, epsilon=4.0, bound="auto", random_state=3).fit(X)
    assert auto.subspace_error_ is not None, auto.subspace_error_reason_
    uncentred = dpcov.PrivatePCA(n_components=1, epsilon=4.0, bound=2.0, center=False,
                                 random_state=3).fit(X)
    assert 0 <= uncentred.subspace_error_.sin_theta_bound <= 1
    with pytest.warns(UserWarning, match="swamps the signal"):
        swamped = dpcov.PrivatePCA(n_components=1, epsilon=0.01, bound=2.0,
                                   random_state=3).fit(X[:2000])
    assert swamped.subspace_error_.swamped and swamped.subspace_error_.sin_theta_bound == 1
    scaled = dpcov.PrivatePCA(n_components=1, epsilon=4.0, bounds=(-1, 1), random_state=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scaled.fit(X)
    assert scaled.subspace_error_ is None and "units" in scaled.subspace_error_reason_
    iev = dpcov.PrivatePCA(n_components=1, epsilon=4.0, bound=2.0, mechanism="iev",
                           random_state=3, mechanism_options={"rank": 2}).fit(X)
    assert iev.subspace_error_ is None and "iev" in iev.subspace_error_reason_


def test_private_pca_with_iev_releases_a_rank_k_covariance(gaussian_rows):
    pca = dpcov.PrivatePCA(n_components=2, epsilon=5.0, bound=2.0, mechanism="iev",
                           center=False, random_state=6, mechanism_options={"rank": 2})
    pca.fit(gaussian_rows)
    assert pca.receipt_.rank == 2
    assert np.linalg.matrix_rank(pca.covariance_, tol=1e-10) <= 2


@pytest.fixture
def regression_data():
    gen = np.random.default_rng(42)
    X = gen.uniform(-1, 1, size=(2000, 2)) / 2
    y = 0.3 + X @ [0.8, -0.5] + gen.normal(scale=0.05, size=2000)
    return X, y


def test_private_regression_matches_least_squares_when_the_noise_is_negligible(regression_data):
    X, y = regression_data
    # bound_epsilon=0: the default private bound clips about 5% of the rows by design.
    est = dpcov.PrivateLinearRegression(random_state=7, bound_epsilon=0,
                                        **NEGLIGIBLE_NOISE).fit(X, y)
    design = np.column_stack([np.ones(len(y)), X])
    beta, *_ = np.linalg.lstsq(design, y, rcond=None)
    np.testing.assert_allclose(est.params_, beta, atol=1e-4)
    assert est.intercept_ == pytest.approx(beta[0], abs=1e-4)
    assert est.receipt_.mechanism_name == "adassp" and est.receipt_.seed_fixed == 1
    # Balanced rows [1, x sqrt(d) / bound]: B_X = sqrt(1 + d) whatever the bound.
    assert est.receipt_.bound == pytest.approx(np.sqrt(3.0))
    assert isinstance(est.release_, dpcov.AdasspFit) and est.release_.released_xtx.shape == (3, 3)
    np.testing.assert_allclose(est.predict(X[:5]), design[:5] @ beta, atol=1e-3)
    assert est.score(X, y) > 0.95


def test_gram_mechanisms_keep_their_plug_in_inference_only_on_request(regression_data):
    X, y = regression_data
    est = dpcov.PrivateLinearRegression(mechanism="analyze_gauss", random_state=7, plug_in=True,
                                        **NEGLIGIBLE_NOISE).fit(X, y)
    design = np.column_stack([np.ones(len(y)), X])
    beta, rss, *_ = np.linalg.lstsq(design, y, rcond=None)
    np.testing.assert_allclose(est.params_, beta, atol=1e-4)
    se = np.sqrt(np.diag(rss[0] / (len(y) - 3) * np.linalg.inv(design.T @ design)))
    assert est.plug_in_["basis"].startswith("plug-in")
    np.testing.assert_allclose(est.plug_in_["std_errors"], se, rtol=0.05)
    assert est.plug_in_["summary"].dof == len(y) - 3
    # The default intervals are noise-aware; at negligible noise they agree with OLS's.
    assert est.inference_.startswith("noise-aware")
    np.testing.assert_allclose(est.std_errors_, se, rtol=0.25)
    assert est.receipt_.mechanism_name == "analyze_gauss"
    assert not hasattr(dpcov.PrivateLinearRegression(mechanism="analyze_gauss", random_state=7,
                                                     **NEGLIGIBLE_NOISE).fit(X, y), "plug_in_")


def test_adassp_intervals_are_noise_aware_by_default_and_answer_at_small_n(regression_data):
    X, y = regression_data
    design = np.column_stack([np.ones(len(y)), X])
    beta, *_ = np.linalg.lstsq(design, y, rcond=None)
    est = dpcov.PrivateLinearRegression(random_state=7, errors="homoscedastic",
                                        **NEGLIGIBLE_NOISE).fit(X, y)
    assert est.inference_.startswith("noise-aware") and est.receipt_.label_square_released == 1
    assert np.all(est.conf_int_[:, 0] <= beta + 1e-3) and np.all(beta - 1e-3 <= est.conf_int_[:, 1])
    se, p, ci = est.noise_aware_intervals(level=0.9, random_state=3)
    assert np.all(ci[:, 1] - ci[:, 0] <= est.conf_int_[:, 1] - est.conf_int_[:, 0] + 1e-12)
    assert est.conclusive_.all()
    # Where the bootstrap refuses (the noise swamps X'X) small_n="refuse" refuses: NaN and a
    # warning.
    with pytest.warns(UserWarning, match="noise-aware"):
        refused = dpcov.PrivateLinearRegression(epsilon=0.1, random_state=1, intervals="always",
                                                small_n="refuse").fit(X[:100], y[:100])
    assert refused.inference_.startswith("none") and np.isnan(refused.conf_int_).all()
    assert refused.interval_method_ is None
    # By default (small_n="posterior") the posterior answers there; a coefficient whose interval
    # covers every value that matters gets NaN, conclusive_ False and a warning.
    assert dpcov.PrivateLinearRegression().small_n == "posterior"
    with pytest.warns(UserWarning, match="cannot support a conclusion"):
        small = dpcov.PrivateLinearRegression(epsilon=0.1, random_state=1, intervals="always",
                                              errors="homoscedastic").fit(X[:100], y[:100])
    assert "posterior" in small.inference_ and not small.conclusive_.all()
    assert small.interval_method_ == "posterior"
    assert np.array_equal(np.isnan(small.conf_int_).any(axis=1), ~small.conclusive_)
    assert np.isfinite(small.coef_).all()
    plain = dpcov.PrivateLinearRegression(intervals=False, random_state=7).fit(X, y)
    assert plain.receipt_.label_square_released == 0 and plain.inference_ == "none: intervals=False"
    with pytest.raises(ValueError, match="intervals=False"):
        dpcov.PrivateLinearRegression(calibration="paper").fit(X, y)


def test_regression_without_intercept_and_with_ridge(regression_data):
    X, y = regression_data
    plain = dpcov.PrivateLinearRegression(fit_intercept=False, random_state=8,
                                          **NEGLIGIBLE_NOISE).fit(X, y)
    assert plain.intercept_ == 0.0 and plain.params_.shape == (2,)
    ridge = dpcov.PrivateLinearRegression(mechanism="analyze_gauss", ridge=1e4, random_state=8,
                                          **NEGLIGIBLE_NOISE).fit(X, y)
    assert np.linalg.norm(ridge.coef_) < np.linalg.norm(plain.coef_)
    with pytest.raises(ValueError, match="chooses its ridge privately"):
        dpcov.PrivateLinearRegression(ridge=1.0).fit(X, y)


def test_adassp_never_fails_where_analyze_gauss_was_indefinite(regression_data):
    X, y = regression_data
    for seed in range(20):
        est = dpcov.PrivateLinearRegression(epsilon=0.01, random_state=seed).fit(X[:50], y[:50])
        assert np.isfinite(est.params_).all() and est.receipt_.ridge >= 0


def test_adassp_bound_is_chosen_privately_below_the_public_one(regression_data):
    X, y = regression_data
    norms = np.linalg.norm(X, axis=1)
    # Rows of norm <= 0.71 under a public bound of 4: without intervals a tenth of epsilon picks
    # a bound near the 0.95 quantile from the grid 4 / 1.25^k (k = 0..12), and AdaSSP gets the
    # rest. (At a tenth of 10 the 8 candidates above every row are each exp(-50) less likely than
    # the best.)
    est = dpcov.PrivateLinearRegression(epsilon=10.0, bound=4.0, intervals=False,
                                        random_state=3).fit(X, y)
    grid = 4.0 / 1.25 ** np.arange(13)
    assert np.isclose(grid, est.bound_).any()
    assert np.quantile(norms, 0.8) < est.bound_ < 1.25 * np.quantile(norms, 0.99)
    # A tenth of 10 is exactly 1, so the rest is exactly 9 (dpcov_bound_step_rest).
    assert est.receipt_.epsilon == dpcov.private_bound.bound_step_rest(10.0, 1.0) == 9.0
    assert est.receipt_.bound == pytest.approx(np.sqrt(1.0 + X.shape[1]))  # balanced rows
    assert 0 < est.n_clipped_ < 0.2 * len(y)
    worst = dpcov.PrivateLinearRegression(epsilon=1.0, bound=4.0, bound_epsilon=0,
                                          errors="homoscedastic", random_state=3).fit(X, y)
    assert worst.bound_ == 4.0 and worst.receipt_.epsilon == 1.0 and worst.n_clipped_ == 0
    with pytest.raises(ValueError, match="bound_epsilon"):
        dpcov.PrivateLinearRegression(bound_epsilon=1.0).fit(X, y)
    # Under add_remove the default takes no bound step (it aims at a quantile of the public n);
    # an explicit one is refused.
    assert dpcov.PrivateLinearRegression(neighbour="add_remove", intervals=False,
                                         random_state=1).fit(X, y).bound_ == 1.0
    with pytest.raises(ValueError, match="add_remove"):
        dpcov.PrivateLinearRegression(neighbour="add_remove", intervals=False,
                                      bound_epsilon=0.1).fit(X, y)


def test_default_intervals_use_the_public_bound_and_say_what_they_assume(regression_data):
    # Clipping at a private quantile biases the statistics by an amount that does not shrink with
    # n, which the intervals cannot see (proofs/adassp.md, "Intervals and the private bound"): by
    # default a fit with intervals spends its whole budget at the public bound and clips nothing.
    X, y = regression_data
    est = dpcov.PrivateLinearRegression(epsilon=10.0, bound=4.0, random_state=3,
                                        errors="homoscedastic").fit(X, y)
    assert est.bound_ == 4.0 and est.receipt_.epsilon == 10.0 and est.n_clipped_ == 0
    assert "at the public bound" in est.inference_
    assert "constant error variance" in est.inference_
    # By default (errors="robust") the intervals are the sandwich's, at the public bound too.
    robust = dpcov.PrivateLinearRegression(epsilon=10.0, bound=4.0, random_state=3).fit(X, y)
    assert robust.errors_ == "robust" and "at the public bound" in robust.inference_
    assert "heteroscedastic" in robust.inference_ and robust.n_clipped_ == 0
    # An explicit share is honoured, and the intervals say which bias they leave out.
    tight = dpcov.PrivateLinearRegression(epsilon=10.0, bound=4.0, bound_epsilon=0.1,
                                          random_state=3).fit(X, y)
    assert tight.bound_ < 4.0 and tight.n_clipped_ > 0
    assert "not in the intervals" in tight.inference_
    gram = dpcov.PrivateLinearRegression(mechanism="analyze_gauss", random_state=3,
                                         errors="homoscedastic",
                                         **NEGLIGIBLE_NOISE).fit(X, y)
    assert "constant error variance" in gram.inference_
    # add_remove needs no n for the bound step it no longer takes.
    assert dpcov.PrivateLinearRegression(neighbour="add_remove", random_state=1).fit(
        X, y).bound_ == 1.0


def test_adassp_fits_are_charged_to_the_active_accountant_before_any_noise(regression_data):
    X, y = regression_data
    with dpcov.BudgetAccountant(epsilon=2.5, delta=1e-5) as budget:
        dpcov.PrivateLinearRegression(epsilon=1.0, bound_epsilon=0.1, random_state=1).fit(X, y)
        dpcov.PrivateLinearRegression(epsilon=1.0, bound_epsilon=0, random_state=2).fit(X, y)
        # The bound step (pure, a tenth) and each AdaSSP release with its robust intervals' meat
        # are charged: 5 charges.
        assert budget.spent.charges == 5 and budget.spent.epsilon == pytest.approx(2.0)
        assert budget.spent.delta == pytest.approx(2e-6)
        with pytest.raises(dpcov.PreconditionError, match="cap would be exceeded"):
            dpcov.PrivateLinearRegression(epsilon=1.0, random_state=3).fit(X, y)
        with pytest.raises(ValueError, match="ridge"):  # refused before the budget is touched
            dpcov.PrivateLinearRegression(epsilon=0.1, ridge=1.0).fit(X, y)
        assert budget.spent.charges == 5
    # Under zCDP accounting the bound step costs (eps/10)^2 / 2 and AdaSSP its plan's rho (one
    # Gaussian mechanism: proofs/adassp.md, "zCDP").
    with dpcov.BudgetAccountant(epsilon=2.5, delta=1e-5, accounting="zcdp") as budget:
        fit = dpcov.PrivateLinearRegression(epsilon=1.0, bound_epsilon=0.1,
                                            errors="homoscedastic", random_state=1).fit(X, y)
        assert budget.spent.charges == 2
        assert budget.spent.rho == pytest.approx(0.1 ** 2 / 2 + fit.receipt_.rho)
        plan = dpcov.adassp_plan(X.shape[1] + 1, 1.0, 1.0, 0.9, 1e-6,
                                 release_label_square=True)
        assert fit.receipt_.rho == pytest.approx(plan.rho, rel=1e-12)
    # A cap whose rho the fit exceeds: refused before the bound step spent or drew anything.
    with dpcov.BudgetAccountant(epsilon=0.5, delta=1e-5, accounting="zcdp") as budget, \
            dpcov.Rng(6) as rng:
        state = rng.save_state()
        with pytest.raises(dpcov.PreconditionError, match="cap would be exceeded"):
            dpcov.PrivateLinearRegression(epsilon=1.0, random_state=rng).fit(X, y)
        assert budget.spent.charges == 0 and rng.save_state() == state


def test_adassp_test_error_is_within_1_5_times_least_squares_at_n_1e4():
    # Issue 15: a Gaussian linear model, n = 1e4 training rows, d = 10, epsilon = 1 (defaults
    # otherwise). The ratio of test MSEs varies with the noise (bench/adassp_regression.py, 20
    # runs: median 1.27, 16 of 20 runs within 1.5); the median of 9 fixed-seed runs is within 1.5
    # unless 5 of 9 exceed it, probability about 0.02 at the measured 4 in 20.
    n, d, ratios = 10000, 10, []
    for r in range(9):
        gen = np.random.default_rng(500 + r)
        theta = gen.normal(size=d)
        theta /= np.linalg.norm(theta)
        X_train, X_test = (gen.normal(size=(n, d)) / (2 * np.sqrt(d)) for _ in range(2))
        y_train = X_train @ theta + gen.normal(scale=0.1, size=n)
        y_test = X_test @ theta + gen.normal(scale=0.1, size=n)
        design = np.column_stack([np.ones(n), X_train])
        beta, *_ = np.linalg.lstsq(design, y_train, rcond=None)
        mse_ols = np.mean((y_test - beta[0] - X_test @ beta[1:]) ** 2)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", dpcov.ClippingWarning)
            est = dpcov.PrivateLinearRegression(epsilon=1.0, random_state=4000 + r).fit(
                X_train, y_train)
        ratios.append(np.mean((y_test - est.predict(X_test)) ** 2) / mse_ols)
    assert np.median(ratios) <= 1.5, ratios


def diabetes_scaled():
    """data/diabetes.csv mapped to [-1, 1] by the public ranges of data/diabetes_bounds.csv
    (the library's own scaling): ten regressors of norm <= sqrt(10) and the label."""
    root = pathlib.Path(__file__).resolve().parents[3] / "data"
    table = np.loadtxt(root / "diabetes.csv", delimiter=",", skiprows=1)
    ranges = np.loadtxt(root / "diabetes_bounds.csv", delimiter=",", skiprows=1, usecols=(1, 2))
    scaled, clamped = dpcov.column_bounds.scale_rows(table, ranges[:, 0].copy(),
                                                     ranges[:, 1].copy())
    assert clamped == 0
    return scaled[:, 1:-1], scaled[:, -1]


def test_adassp_beats_the_constant_predictor_on_diabetes_in_most_runs_at_epsilon_1():
    # Issue 15: 200 random 80/20 splits, the default estimator with the public worst-case bound
    # sqrt(10), test R^2 > 0 in more than half of the runs, and more often than without the
    # private bound (bound_epsilon=0). With the small-n split (no lambda_min step: n = 353 is
    # below the n from which the plan expects the bootstrap) and no y'y (the forecast expects no
    # interval), these seeds give 148 and 120 of 200 (0.613 and 0.395 over 400 runs before the
    # split, bench/results/adassp_diabetes.md); at rates 0.74 and 0.60 on the same splits a
    # count of at most 100, or a default no better than the variant, has probability about 1e-3.
    # intervals="deferred": the default's release and split, so the same coef_, without the
    # small-n posterior's chains that no score reads.
    X, y = diabetes_scaled()
    counts = {}
    for share in (0.1, 0.0):
        positive = 0
        for r in range(200):
            order = np.random.default_rng(r).permutation(len(y))
            train, test = order[:353], order[353:]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                est = dpcov.PrivateLinearRegression(epsilon=1.0, bound=np.sqrt(10), label_bound=1.0,
                                                    bound_epsilon=share, n_bootstrap=199,
                                                    intervals="deferred",
                                                    random_state=1000 + r).fit(X[train], y[train])
            positive += est.score(X[test], y[test]) > 0
        counts[share] = positive
    assert counts[0.1] > max(100, counts[0.0]), counts


def test_regression_by_projection_has_projection_degrees_of_freedom():
    gen = np.random.default_rng(43)
    X = gen.uniform(-1, 1, size=(20000, 2)) / 2
    y = np.clip(0.2 + X @ [0.4, -0.3] + gen.normal(scale=0.3, size=20000), -0.5, 0.5)
    with dpcov.BudgetAccountant(epsilon=1.5, delta=1e-5) as budget:
        est = dpcov.PrivateLinearRegression(bound=0.75, label_bound=0.5, mechanism="ols_jl",
                                            projection_rows=60, random_state=10).fit(X, y)
        assert budget.spent.charges == 1 and budget.spent.epsilon == pytest.approx(1.0)
        with pytest.raises(dpcov.PreconditionError, match="cap would be exceeded"):
            dpcov.PrivateLinearRegression(bound=0.75, label_bound=0.5, mechanism="ols_jl",
                                          projection_rows=60, random_state=11).fit(X, y)
    assert est.summary_.dof == 60 - 3
    assert est.receipt_.mechanism_name == "ols_jl" and est.receipt_.test_passed == 1


def test_a_seeded_fit_recomputes_the_same_intervals(regression_data):
    # Every draw of a seeded run comes from the seed: noise_aware_intervals without its own
    # random_state uses the estimator's.
    X, y = regression_data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fit = dpcov.PrivateLinearRegression(epsilon=4.0, bound=1.0, label_bound=1.0,
                                            random_state=7).fit(X, y)
        first, second = (fit.noise_aware_intervals(level=0.9, n_bootstrap=99) for _ in range(2))
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)
