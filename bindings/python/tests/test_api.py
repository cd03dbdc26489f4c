"""Round trips through the wrapped C ABI, checked against NumPy where it computes the same."""

import math

import numpy as np
import pytest
from scipy import stats

import dpcov


def test_version_and_names():
    assert dpcov.version_string() == dpcov.__version__
    major, minor, patch = map(int, dpcov.__version__.split("."))
    assert dpcov.version_number() == major * 10000 + minor * 100 + patch
    assert dpcov.mechanism_name(dpcov.Mechanism.ANALYZE_GAUSS) == "analyze_gauss"
    assert dpcov.mechanism_name(99) == "unknown"
    for m in dpcov.Mechanism:
        assert dpcov.mechanism_name(m) == m.name.lower()


def test_plan_and_release_receipts_agree_except_the_generator(spd):
    plan = dpcov.plan("analyze_gauss", 4, 100, 1.0, 0.5, 1e-6)
    with dpcov.Rng(1) as rng:
        released, receipt = dpcov.release("analyze_gauss", spd, 100, 1.0, 0.5, 1e-6, rng)
    assert plan.seed_fixed == 0 and receipt.seed_fixed == 1
    assert plan.generator_name == "none" and receipt.generator_name == "pcg64"
    generator_keys = {"seed_fixed", "generator", "generator_name", "differentially_private",
                      "privacy_claim"}
    assert {k: v for k, v in plan.to_dict().items() if k not in generator_keys} == \
        {k: v for k, v in receipt.to_dict().items() if k not in generator_keys}
    assert receipt.mechanism_name == "analyze_gauss"
    assert receipt.sensitivity == pytest.approx(math.sqrt(2.0))
    assert "analyze_gauss" in receipt.theorem
    assert np.array_equal(released, released.T)


def test_a_release_without_a_seed_uses_the_cryptographic_generator(spd):
    with dpcov.Rng() as rng:
        _, receipt = dpcov.release("analyze_gauss", spd, 100, 1.0, 0.5, 1e-6, rng)
    assert receipt.seed_fixed == 0
    assert receipt.generator_name == "chacha20"
    assert receipt.numerics == 0  # idealized: floating-point noise


def test_the_analyze_gauss_log_density_is_the_gaussian_density_of_the_upper_triangle(spd):
    with dpcov.Rng(2) as rng:
        released, receipt = dpcov.release("analyze_gauss", spd, 100, 1.0, 1.0, 1e-6, rng)
    upper = np.triu_indices(4)
    expected = stats.norm(scale=receipt.sigma).logpdf((released - spd)[upper]).sum()
    got = dpcov.log_density("analyze_gauss", released, spd, 100, 1.0, 1.0, 1e-6)
    assert got == pytest.approx(expected, rel=1e-12)
    assert dpcov.log_density_symmetric_gaussian(released - spd, receipt.sigma) == \
        pytest.approx(expected, rel=1e-12)


def test_the_laplace_noise_density_matches_scipy():
    with dpcov.Rng(3) as rng:
        noise = rng.symmetric_laplace_noise(0.7, 5)
    upper = np.triu_indices(5)
    expected = stats.laplace(scale=0.7).logpdf(noise[upper]).sum()
    assert dpcov.log_density_symmetric_laplace(noise, 0.7) == pytest.approx(expected, rel=1e-12)


def test_scalar_samplers_return_the_requested_counts():
    with dpcov.Rng(4) as rng:
        u = rng.uniform01(1000)
        assert u.shape == (1000,) and 0 < u.min() and u.max() < 1
        assert rng.standard_normal(0).shape == (0,)
        assert (rng.exponential(10) > 0).all()
        assert rng.laplace(2.0, 10).shape == (10,)
        assert (rng.gamma(0.5, 10) >= 0).all()
        assert (rng.chi_square(3.5, 10) > 0).all()
        with pytest.raises(dpcov.DimensionError):
            rng.standard_normal(-1)


def test_sphere_acg_and_bingham_draws_are_unit_vectors(spd):
    with dpcov.Rng(6) as rng:
        for draws in (rng.uniform_sphere(4, 20), rng.acg(spd, 20), rng.bingham(spd, 20)[0]):
            assert draws.shape == (20, 4)
            np.testing.assert_allclose(np.linalg.norm(draws, axis=1), 1.0, rtol=1e-12)
        _, tries = rng.bingham(spd, 5)
        assert tries >= 5
        u = rng.uniform_sphere(4, 1)[0]
    expected = 0.5 * np.linalg.slogdet(spd)[1] - 2.0 * math.log(u @ spd @ u)
    assert dpcov.log_density_acg(spd, u) == pytest.approx(expected, rel=1e-12)


def test_post_processing_functions(spd):
    indefinite = spd - 6.0 * np.eye(4)
    projected = dpcov.psd_project(indefinite)
    assert np.linalg.eigvalsh(projected).min() >= -1e-12
    assert not np.shares_memory(projected, indefinite)
    clipped = dpcov.eigenvalues_clip(spd, 5.0, 8.0)
    ev = np.linalg.eigvalsh(clipped)
    assert ev.min() >= 5.0 - 1e-9 and ev.max() <= 8.0 + 1e-9
    shifted, c = dpcov.analyze_gauss_shift(indefinite, sigma=0.5, nu=0.05)
    assert c > 0 and np.allclose(shifted, indefinite + c * np.eye(4))
    _, c0 = dpcov.analyze_gauss_shift(spd, sigma=0.5, nu=0.05)
    assert c0 == 0
    unbiased = dpcov.wishart_mean_subtract(spd, dof=2.0, scale=0.5)
    np.testing.assert_allclose(unbiased, spd - np.eye(4), rtol=1e-15)
    _, shift = dpcov.wishart_shift(spd + 10 * np.eye(4), dof=5.0, scale=1.0, nu=0.05)
    assert shift == 5.0
    a = spd.copy()
    assert dpcov.psd_project(a, inplace=True) is a


def test_regression_on_an_exact_gram_matrix_is_ordinary_least_squares():
    gen = np.random.default_rng(8)
    X = gen.normal(size=(200, 3))
    y = X @ [1.0, -2.0, 0.5] + 0.3 + gen.normal(scale=0.1, size=200)
    A = np.column_stack([np.ones(200), X, y])
    fit = dpcov.regression_fit(A.T @ A, 200, label=4, features=[1, 2, 3], intercept_column=0)
    design = A[:, :4]
    beta, rss, *_ = np.linalg.lstsq(design, y, rcond=None)
    np.testing.assert_allclose(fit.coefficients, beta, rtol=1e-8)
    s2 = rss[0] / (200 - 4)
    se = np.sqrt(np.diag(s2 * np.linalg.inv(design.T @ design)))
    np.testing.assert_allclose(fit.std_errors, se, rtol=1e-6)
    t = stats.t.ppf(0.975, 196)
    np.testing.assert_allclose(fit.ci_upper, beta + t * se, rtol=1e-6)
    np.testing.assert_allclose(fit.p_values, 2 * stats.t.sf(np.abs(beta / se), 196), rtol=1e-5,
                               atol=1e-300)
    assert fit.summary.dof == 196
    ridge = dpcov.regression_fit(A.T @ A, 200, 4, [1, 2, 3], intercept_column=0, ridge=50.0)
    assert np.linalg.norm(ridge.coefficients[1:]) < np.linalg.norm(beta[1:])


def test_pca_matches_numpy_and_subspace_distances_vanish_on_itself(spd):
    values, vectors, ratio = dpcov.pca_top_k(spd, 2)
    ev, evec = np.linalg.eigh(spd)
    np.testing.assert_allclose(values, ev[::-1][:2], rtol=1e-12)
    np.testing.assert_allclose(np.abs(vectors), np.abs(evec[:, ::-1][:, :2]), rtol=1e-9)
    np.testing.assert_allclose(ratio, values / np.trace(spd), rtol=1e-12)
    dist = dpcov.pca_subspace_distance(spd, spd, 2)
    assert dist.sin_theta_spectral < 1e-7 and dist.angles.shape == (2,)


def test_glasso_with_zero_penalty_inverts_the_matrix(spd):
    result = dpcov.glasso_solve(spd, 0.0)
    np.testing.assert_allclose(result.precision, np.linalg.inv(spd), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(result.covariance, spd, rtol=1e-5)
    assert result.info.kkt_residual <= 1e-6
    warm = dpcov.glasso_solve(spd, 0.1, warm_start=result.precision)
    assert warm.info.start == dpcov.GlassoStart.WARM


def test_metrics_match_numpy(spd):
    other = spd + 0.01 * np.eye(4)
    assert dpcov.metric_frobenius_error(other, spd) == pytest.approx(0.02)
    assert dpcov.metric_spectral_error(other, spd, relative=True) == \
        pytest.approx(0.01 / np.linalg.norm(spd, 2))
    assert dpcov.metric_vector_error([1.0, 2.0], [1.0, 0.0]) == pytest.approx(2.0)
    recovery = dpcov.metric_support_recovery(np.eye(3), np.eye(3) + 0.5 * (1 - np.eye(3)))
    assert recovery.false_negatives == 3 and recovery.precision == 1.0


def test_private_ols_by_projection_and_its_refusal():
    gen = np.random.default_rng(9)
    # Rows of norm <= 1 whose Gram matrix has lambda_min about 770, well above the test's
    # threshold w^2 = 287 at r = 50 (its Laplace noise has scale 4 / epsilon = 4).
    n = 20000
    X = gen.uniform(-1, 1, size=(n, 2))
    y = np.clip(X @ [0.4, -0.3] + gen.normal(scale=0.5, size=n), -1, 1)
    A = np.column_stack([np.ones(n), X, y]) / 2.0
    G = A.T @ A
    with dpcov.Rng(10) as rng:
        res = dpcov.ols_jl(G, n, 1.0, 1.0, 1e-6, rng, label=3, features=[1, 2],
                           projection_rows=50, intercept_column=0)
        assert res.receipt.test_passed == 1 and res.summary.dof == 47
        assert res.reject.dtype == bool and res.reject.shape == (3,)
        before = rng.save_state()
        with pytest.raises(dpcov.RefusedError):
            dpcov.ols_jl(np.diag([1e-3, 1e-3, 1e-3]), n, 1.0, 1.0, 1e-6, rng, label=2,
                         features=[1], projection_rows=50, intercept_column=0)
        # The refusal consumed the test's noise: a retry never reuses it.
        assert rng.save_state() != before
        ag = dpcov.ols_analyze_gauss(G, n, 1.0, 1.0, 1e-6, rng, label=3, features=[1, 2],
                                     intercept_column=0)
        assert ag.summary.dof == n - 3


def test_a_refusal_of_private_ols_is_charged_and_a_bad_argument_is_not():
    # The private test's noise is drawn before it refuses: the refusal is an output, and retrying
    # until the test passes must spend the budget each time. A bad argument (a label outside the
    # matrix) fails before any draw and costs nothing; a release over the cap draws nothing.
    n = 20000
    with dpcov.BudgetAccountant(epsilon=2.5, delta=1e-5) as budget:
        with dpcov.Rng(10) as rng:
            with pytest.raises(dpcov.RefusedError):
                dpcov.ols_jl(np.diag([1e-3, 1e-3, 1e-3]), n, 1.0, 1.0, 1e-6, rng, label=2,
                             features=[1], projection_rows=50, intercept_column=0)
            assert budget.spent.charges == 1 and budget.spent.epsilon == 1.0
            with pytest.raises(dpcov.ArgumentError):
                dpcov.ols_jl(np.diag([1e-3, 1e-3, 1e-3]), n, 1.0, 1.0, 1e-6, rng, label=7,
                             features=[1], projection_rows=50, intercept_column=0)
            assert budget.spent.charges == 1
            before = rng.save_state()
            with pytest.raises(dpcov.PreconditionError):
                dpcov.ols_jl(np.diag([1e-3, 1e-3, 1e-3]), n, 1.0, 2.0, 1e-6, rng, label=2,
                             features=[1], projection_rows=50, intercept_column=0)
            assert budget.spent.charges == 1 and rng.save_state() == before


def test_a_refusal_of_a_sketch_release_is_charged_and_a_bad_argument_is_not():
    # As for ols_jl: the refusal after the private test's draw is charged, a projection_rows
    # that is not the sketch's (found before any draw) is not.
    x = np.random.default_rng(5).normal(size=(300, 3)) * 1e-4
    with dpcov.BudgetAccountant(epsilon=5.0, delta=1e-3) as budget, dpcov.Rng(77) as key, \
            dpcov.Rng(3) as rng, dpcov.Sketch(3, 40, key) as sketch:
        sketch.add_rows(x, 0, 1.0)
        with pytest.raises(dpcov.RefusedError):
            sketch.release("ols_jl", 1.0, 1e-6, rng)
        assert budget.spent.charges == 1
        with pytest.raises(dpcov.ArgumentError):
            sketch.release("ols_jl", 1.0, 1e-6, rng, projection_rows=30)
        assert budget.spent.charges == 1


def test_guaranteed_intervals_from_an_analyze_gauss_release():
    gen = np.random.default_rng(11)
    n = 100000
    X = gen.normal(scale=0.08, size=(n, 3))
    y = X @ [0.5, -0.5, 0.25] + gen.normal(scale=0.08, size=n)
    A = np.column_stack([X, y])
    G = A.T @ A
    with dpcov.Rng(12) as rng:
        released, receipt = dpcov.release("analyze_gauss", G, n, 1.0, 1.0, 1e-6, rng)
    res = dpcov.ols_analyze_gauss_intervals(released, receipt.sigma, n, label=3,
                                            features=[0, 1, 2])
    assert 0 < res.kappa < 1 and res.noise_norm_bound > 0
    beta_hat = np.linalg.solve(G[:3, :3], G[:3, 3])
    # Holds with probability >= 0.975 over the noise; the seed is fixed.
    assert np.all(res.data_ci_lower <= beta_hat) and np.all(beta_hat <= res.data_ci_upper)
    assert np.all(res.ci_lower < res.data_ci_lower) and np.all(res.ci_upper > res.data_ci_upper)
    assert res.reject.dtype == bool and res.reject.shape == (3,)
    with pytest.raises(dpcov.UnmetPreconditionError, match="lambda_min"):
        dpcov.ols_analyze_gauss_intervals(released, 1e4, n, label=3, features=[0, 1, 2])


def test_noise_aware_intervals_from_a_release_and_its_receipt():
    gen = np.random.default_rng(11)
    n = 100000
    X = gen.normal(scale=0.08, size=(n, 3))
    y = X @ [0.5, -0.5, 0.0] + gen.normal(scale=0.08, size=n)
    A = np.column_stack([X, y])
    G = A.T @ A
    with dpcov.Rng(12) as rng:
        released, receipt = dpcov.release("laplace_sym", G, n, 1.0, 1.0, 1e-6, rng)
        res = dpcov.ols_bootstrap_intervals(released, receipt, label=3, features=[0, 1, 2],
                                            rng=rng)
        assert np.all(res.ci_lower < res.coefficients) and np.all(res.coefficients < res.ci_upper)
        assert res.p_values[0] < 0.05 and res.p_values[1] < 0.05
        assert np.all((res.p_values <= 0.05) == ((res.ci_lower > 0) | (res.ci_upper < 0)))
        assert 0 < res.kappa < 1 and res.noise_norm > 0
        # Every direction of X'X / 1000 is under 3 noise sds strong: refused before any world.
        with pytest.raises(dpcov.UnmetPreconditionError, match="cannot bound coefficients 0, 1, 2"):
            dpcov.ols_bootstrap_intervals(released / 1000, receipt, label=3, features=[0, 1, 2],
                                          rng=rng)
        # With an outcome per coefficient: the same intervals where none is weak, and where one
        # is (the third column scaled to 13% of itself: its direction about 2 noise sds strong, too
        # weak for the release to bound its coefficient) only it goes without.
        state = rng.save_state()
        flagged = dpcov.ols_intervals(released, receipt, label=3, features=[0, 1, 2], rng=rng)
        rng.restore_state(state)
        plain = dpcov.ols_bootstrap_intervals(released, receipt, label=3, features=[0, 1, 2],
                                              rng=rng)
        assert flagged.conclusive.all() and not flagged.unbounded.any()
        assert np.array_equal(flagged.ci_lower, plain.ci_lower)
        assert np.array_equal(flagged.ci_upper, plain.ci_upper)
        weak = released.copy()
        weak[2, :] *= 0.13
        weak[:, 2] *= 0.13
        one = dpcov.ols_intervals(weak, receipt, label=3, features=[0, 1, 2], rng=rng)
        assert one.unbounded.tolist() == [False, False, True] and one.conclusive[:2].all()
        assert np.isnan(one.ci_lower[2]) and np.isfinite(one.ci_lower[:2]).all()
        with pytest.raises(ValueError, match="meat_receipt"):
            dpcov.ols_intervals(released, receipt, label=3, features=[0, 1, 2], rng=rng,
                                meat=np.eye(3))
        err = dpcov.pca_subspace_error_bound(released, receipt, 1, rng)
        assert 0 <= err.sin_theta_bound <= 1 and err.noise_norm > 0 and err.eigengap > 0
        # The label column is no constant, but any nonzero column centres: the API is exercised.
        err = dpcov.pca_centred_subspace_error_bound(released, receipt, 1, rng, constant_column=3,
                                                     n=n)
        assert 0 <= err.sin_theta_bound <= 1 and err.noise_norm > 0
        with pytest.raises(ValueError, match="constant_column"):
            dpcov.pca_centred_subspace_error_bound(released, receipt, 1, rng, constant_column=4)
        iev_plan = dpcov.plan("iev", 4, n, 1.0, 1.0, 0.0)
        with pytest.raises(ValueError, match="iev"):
            dpcov.ols_bootstrap_intervals(released, iev_plan, label=3, features=[0, 1, 2],
                                          rng=rng)


def test_plans_of_the_projection_and_posterior_mechanisms():
    jl = dpcov.plan("jl_ridge", 5, 100, 1.0, 1.0, 1e-6, projection_rows=50)
    assert jl.projection_rows == 50 and jl.threshold_w2 > 0
    iw = dpcov.plan(dpcov.Mechanism.INVERSE_WISHART, 5, 100, 1.0, 1.0, 1e-6, posterior_dof=20)
    assert iw.dof == 20
    ag = dpcov.plan("analyze_gauss", 5, 100, 1.0, 1.0, 1e-6, neighbour="add_remove")
    assert ag.neighbour == dpcov.Neighbour.ADD_REMOVE
    assert ag.sensitivity == pytest.approx(1.0)


def test_the_tested_log_density_of_a_sigma_min_release(data):
    with dpcov.GramAccumulator(4) as gram:
        gram.add_rows(data, 2.0)
        G = gram.matrix()
        with dpcov.Rng(12) as rng:
            rel, receipt = gram.release("jl_ridge_sigma_min", 1.0, 1e-6, rng, projection_rows=8)
    value = dpcov.log_density_tested("jl_ridge_sigma_min", rel, receipt.test_value, G, 60, 2.0,
                                     1.0, 1e-6, projection_rows=8)
    assert np.isfinite(value)


def test_private_glasso_covariance_perturbation(data):
    with dpcov.GramAccumulator(4) as gram:
        gram.add_rows(data, 2.0)
        G = gram.matrix()
    plan = dpcov.private_glasso_plan("analyze_gauss", 4, 60, 2.0, 1.0, 1e-6, rho=0.1)
    with dpcov.Rng(13) as rng:
        out = dpcov.private_glasso_release("analyze_gauss", G, 60, 2.0, 1.0, 1e-6, 0.1, rng,
                                           glasso={"tol": 1e-8})
    assert out.receipt.sigma == plan.sigma
    assert np.array_equal(out.precision, out.precision.T)
    assert out.info.kkt_residual <= 1e-8
    with dpcov.Rng(14) as rng:
        ow = dpcov.private_glasso_release("glasso_output_wishart", G, 60, 2.0, 1.0, 0.0, 0.1, rng,
                                          audit_only_not_private=True)
    assert ow.info is None and ow.receipt.not_dp == 1
    density = dpcov.private_glasso_log_density("glasso_output_wishart", ow.precision, G, 60, 2.0,
                                               1.0, 0.0, 0.1, audit_only_not_private=True)
    assert np.isfinite(density)


def test_an_audit_of_analyze_gauss_finds_no_violation():
    result = dpcov.audit_run("analyze_gauss", 3, 20, 1.0, 1.0, 1e-6, trials=200,
                             first_checkpoint=100, seed=5, neighbour_kind="max_l2_change")
    assert not result.violation
    assert result.noise == dpcov.AuditNoise.GAUSSIAN
    assert result.samples >= 200


def test_a_black_box_audit_of_each_mechanism_on_the_rows_finds_no_violation():
    # COINPRESS_MEAN is audited by audit_coinpress_mean, and at unit level by audit_rows_units.
    for mechanism in set(dpcov.AuditRowsMechanism) - {dpcov.AuditRowsMechanism.COINPRESS_MEAN}:
        scale = 9.0 if mechanism == dpcov.AuditRowsMechanism.COINPRESS else 1.0
        result = dpcov.audit_rows_black_box(mechanism.name.lower(), 3, 20, 0.02, 1e-6, scale,
                                            statistic="top_eigenvector_alignment", trials=100,
                                            seed=5)
        assert not result.violation
        assert result.samples == 2 * (100 + 20)
        assert result.epsilon == dpcov.zcdp_epsilon(0.02, 1e-6)
    with pytest.raises(dpcov.ArgumentError):
        dpcov.audit_rows_black_box("coinpress", 3, 20, 0.02, 1e-6, 0.5, trials=100)


def test_the_exact_audit_of_each_gaussian_release_finds_no_violation():
    for mechanism in ("dly_gauss", "dly_separate", "coinpress"):
        result = dpcov.audit_rows_exact(mechanism, 0.5, trials=200, seed=2)
        assert not result.violation, mechanism
        assert result.findings == 0
        assert result.samples == 400
        assert result.n == 1000
        assert result.rho == (0.25 if mechanism == "dly_separate" else 0.5)
        assert result.epsilon == dpcov.zcdp_epsilon(result.rho, 1e-6)
        assert 0 <= result.rho_lower <= result.rho
        assert result.clamp_hits == 0
    with pytest.raises(dpcov.PreconditionError, match="dpcov_audit_rows_black_box"):
        dpcov.audit_rows_exact("dly_adaptive", 0.5)
    # CoinPress at t = 3: exact per step on its transcript, inside the library.
    three = dpcov.audit_rows_exact("coinpress", 0.5, steps=3, trials=100, seed=2)
    assert not three.violation
    assert (three.samples, three.n, three.clamp_hits) == (200, 2000, 0)
    assert 0 < three.rho_lower <= three.rho == 0.5
    with pytest.raises(dpcov.ArgumentError):
        dpcov.audit_rows_exact("dly_gauss", 0.5, trials=1)


def test_the_exact_audit_over_several_pairs_reports_the_worst():
    result, worst = dpcov.audit_rows_exact_pairs("dly_gauss", 0.5, trials=200, seed=2, pairs=3)
    assert not result.violation
    assert result.samples == 3 * 400
    assert 0 <= worst < 3
    one, axis = dpcov.audit_rows_exact_pairs("coinpress", 0.5, trials=200, seed=2, pairs=1)
    assert axis == 0
    assert one.rho_lower == dpcov.audit_rows_exact("coinpress", 0.5, trials=200, seed=2).rho_lower
    with pytest.raises(dpcov.ArgumentError, match="pairs"):
        dpcov.audit_rows_exact_pairs("dly_gauss", 0.5, trials=20, pairs=0)
    with pytest.raises(dpcov.PreconditionError):
        dpcov.audit_rows_exact_pairs("dly_adaptive", 0.5, pairs=2)


def test_the_exact_audit_of_coinpress_mean_finds_no_violation():
    result = dpcov.audit_coinpress_mean(3, 20, 5.0, rho=0.5, trials=300, seed=2)
    assert not result.violation
    assert result.findings == 0
    assert result.samples == 600
    assert result.rho == 0.5
    assert result.epsilon == dpcov.zcdp_epsilon(0.5, 1e-6)
    assert 0 < result.rho_lower <= 0.5
    with pytest.raises(dpcov.ArgumentError):
        dpcov.audit_coinpress_mean(3, 20, 5.0, trials=1)


def test_an_audit_of_the_jiang_mechanism_finds_the_violation():
    rows = np.array([[1.0, 0.0], [0.0, 0.5], [0.3, 0.3]])
    prime = rows.copy()
    prime[0] = 0.0
    result = dpcov.audit_run_pair("wishart_jiang", rows, prime, 1.0, 1.0, 0.0,
                                  mechanism_options={"audit_only_not_private": True},
                                  trials=400, seed=3)
    assert result.violation
    assert dpcov.AuditFinding(result.findings) & dpcov.AuditFinding.LOSS_ABOVE_EPSILON


def test_the_public_receipt_withholds_n_under_add_remove_and_the_bingham_counts():
    data = np.random.default_rng(3).uniform(-0.5, 0.5, size=(40, 3))
    with dpcov.GramAccumulator(3) as gram:
        gram.add_rows(data, 1.0)
        with dpcov.Rng(4) as rng:
            _, full = gram.release("analyze_gauss", 1.0, 1e-6, rng, neighbour="add_remove")
            _, iev = gram.release("iev", 1.0, 0.0, rng)
    shown = full.public()
    assert full.n == 40 and shown.n == dpcov.RECEIPT_N_WITHHELD
    assert shown.sigma == full.sigma and shown.theorem == full.theorem
    assert iev.bingham_proposals >= 3
    assert iev.public().bingham_proposals == 0 and iev.public().n == 40


def test_dropped_rows_are_refused_under_replace_one():
    data = np.array([[0.1, 0.2], [3.0, 4.0], [0.3, 0.1]])
    with dpcov.GramAccumulator(2) as gram:
        gram.add_rows(data, 1.0, policy="drop")
        with dpcov.Rng(4) as rng:
            with pytest.raises(dpcov.UnmetPreconditionError, match="DPCOV_BOUND_DROP"):
                gram.release("analyze_gauss", 1.0, 1e-6, rng)
            _, receipt = gram.release("analyze_gauss", 1.0, 1e-6, rng, neighbour="add_remove")
    assert receipt.public().n == dpcov.RECEIPT_N_WITHHELD


def test_receipt_field_read_alone_equals_the_converted_view():
    """A field read before the view is converted (read on its own from the struct) has the
    value and type it has after: numbers as they are, strings decoded, derived names too."""
    gram = np.eye(4) * 0.5
    for mechanism, delta in (("iev", 0.0), ("analyze_gauss", 1e-6)):
        alone = dpcov.release(mechanism, gram, 10, 1.0, 1.0, delta, dpcov.Rng.seeded(3)).receipt
        whole = dpcov.release(mechanism, gram, 10, 1.0, 1.0, delta, dpcov.Rng.seeded(3)).receipt
        values = whole.to_dict()
        for name, value in values.items():
            fresh = dpcov.Receipt(alone._struct)
            read = getattr(fresh, name)
            assert type(read) is type(value) and (read == value or read != read), name
        assert alone == whole
