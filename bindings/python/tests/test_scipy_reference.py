"""dpcov's Wishart and inverse-Wishart densities and draws against SciPy's implementations.

Densities: ``scipy.stats.wishart`` / ``invwishart`` log-densities agree with
``dpcov_log_density_wishart`` / ``_inverse_wishart`` and with ``dpcov_mechanism_log_density`` of
the additive-Wishart and inverse-Wishart mechanisms to 1e-10 relative.

Draws: two-sample Kolmogorov-Smirnov tests of N = 2000 dpcov draws against N = 2000 SciPy draws
(fixed seeds) on three scalar statistics of each matrix: its trace, its log-determinant and its
(0, 1) entry. False-failure rate: alpha = 1e-4 per test, split by Bonferroni over the three
statistics (a = alpha / 3 each). The critical distance is Kolmogorov's asymptotic one,
D_crit = c(a) sqrt((n + m) / (n m)) with c(a) = sqrt(-ln(a / 2) / 2), from the first term
2 exp(-2 c^2) of Kolmogorov's series (an upper bound on the asymptotic tail): for a = 1e-4 / 3 and
n = m = 2000, c = 2.345 and D_crit = 0.0742. Draws that match SciPy's law give D about 0.02-0.03.
The same test must reject draws from a deliberately wrong scale (15% too large) or wrong degrees
of freedom (7 instead of 8): they give D = 0.16-0.22, far above D_crit.
"""

import math

import numpy as np
import pytest
from scipy import stats

import dpcov

ALPHA_PER_TEST = 1e-4
STATISTICS = 3
DRAWS = 2000


def critical_distance(n, m, alpha=ALPHA_PER_TEST / STATISTICS):
    c = math.sqrt(-math.log(alpha / 2.0) / 2.0)
    return c * math.sqrt((n + m) / (n * m))


def summaries(matrices):
    """(trace, log det, entry (0, 1)) of each matrix."""
    arr = np.asarray(matrices)
    return (np.trace(arr, axis1=1, axis2=2), np.linalg.slogdet(arr)[1], arr[:, 0, 1])


def ks_distances(ours, reference):
    return [stats.ks_2samp(a, b).statistic for a, b in zip(summaries(ours), summaries(reference))]


def test_the_critical_distance_is_the_one_derived_above():
    assert critical_distance(DRAWS, DRAWS) == pytest.approx(0.0742, abs=5e-5)


@pytest.fixture
def scale():
    """A 3 x 3 positive definite scale with correlations, exactly symmetric."""
    m = np.array([[2.0, 0.6, -0.3], [0.6, 1.0, 0.2], [-0.3, 0.2, 0.5]])
    return m


@pytest.mark.parametrize("dof", [2.5, 3.0, 7.25, 40.0])
@pytest.mark.parametrize("order", ["C", "F"])
def test_wishart_log_density_matches_scipy(dof, order, scale):
    with dpcov.Rng(100) as rng:
        for _ in range(5):
            w = rng.wishart(dof, scale)
            ours = dpcov.log_density_wishart(np.asarray(w, order=order), dof,
                                             np.asarray(scale, order=order))
            ref = stats.wishart(df=dof, scale=scale).logpdf(w)
            assert ours == pytest.approx(ref, rel=1e-10)


@pytest.mark.parametrize("dof", [2.5, 3.0, 7.25, 40.0])
def test_inverse_wishart_log_density_matches_scipy(dof, scale):
    with dpcov.Rng(101) as rng:
        for _ in range(5):
            x = rng.inverse_wishart(dof, scale)
            ours = dpcov.log_density_inverse_wishart(x, dof, scale)
            ref = stats.invwishart(df=dof, scale=scale).logpdf(x)
            assert ours == pytest.approx(ref, rel=1e-10)


def test_outside_the_support_the_log_density_is_minus_infinity(scale):
    assert dpcov.log_density_wishart(-np.eye(3), 4.0, scale) == -math.inf


def gram_of(rows, bound):
    with dpcov.GramAccumulator(rows.shape[1]) as gram:
        gram.add_rows(rows, bound)
        return gram.matrix(), gram.rows


def test_the_additive_wishart_mechanism_density_is_scipys_wishart_of_the_noise():
    G, n = gram_of(np.random.default_rng(5).normal(size=(40, 3)) * 0.4, 1.0)
    with dpcov.Rng(102) as rng:
        for _ in range(3):
            released, receipt = dpcov.release("wishart_additive", G, n, 1.0, 0.9, 1e-6, rng)
            ours = dpcov.log_density("wishart_additive", released, G, n, 1.0, 0.9, 1e-6)
            ref = stats.wishart(df=receipt.dof, scale=receipt.scale * np.eye(3)).logpdf(
                released - G)
            assert ours == pytest.approx(ref, rel=1e-10)


def test_the_inverse_wishart_mechanism_density_is_scipys_inverse_wishart_posterior():
    G, n = gram_of(np.random.default_rng(6).normal(size=(40, 3)) * 0.4, 1.0)
    with dpcov.Rng(103) as rng:
        for _ in range(3):
            released, receipt = dpcov.release("inverse_wishart", G, n, 1.0, 1.0, 1e-6, rng,
                                              posterior_dof=12)
            ours = dpcov.log_density("inverse_wishart", released, G, n, 1.0, 1.0, 1e-6,
                                     posterior_dof=12)
            psi = G + receipt.appended_w ** 2 * np.eye(3)
            ref = stats.invwishart(df=receipt.dof, scale=psi).logpdf(released)
            assert ours == pytest.approx(ref, rel=1e-10)


def our_wishart_draws(seed, dof, scale, inverse=False):
    with dpcov.Rng(seed) as rng:
        draw = rng.inverse_wishart if inverse else rng.wishart
        return [draw(dof, scale) for _ in range(DRAWS)]


@pytest.mark.parametrize("dof", [2.5, 6.0])
def test_wishart_draws_follow_scipys_wishart(dof, scale):
    ours = our_wishart_draws(200, dof, scale)
    ref = stats.wishart(df=dof, scale=scale).rvs(size=DRAWS,
                                                 random_state=np.random.default_rng(200))
    assert max(ks_distances(ours, ref)) < critical_distance(DRAWS, DRAWS)


@pytest.mark.parametrize("dof", [3.5, 8.0])
def test_inverse_wishart_draws_follow_scipys_inverse_wishart(dof, scale):
    ours = our_wishart_draws(201, dof, scale, inverse=True)
    ref = stats.invwishart(df=dof, scale=scale).rvs(size=DRAWS,
                                                    random_state=np.random.default_rng(201))
    assert max(ks_distances(ours, ref)) < critical_distance(DRAWS, DRAWS)


def test_the_ks_test_rejects_draws_with_a_wrong_scale(scale):
    ours = our_wishart_draws(202, 6.0, 1.15 * scale)
    ref = stats.wishart(df=6.0, scale=scale).rvs(size=DRAWS,
                                                 random_state=np.random.default_rng(202))
    assert max(ks_distances(ours, ref)) > critical_distance(DRAWS, DRAWS)


def test_the_ks_test_rejects_inverse_wishart_draws_with_wrong_degrees_of_freedom(scale):
    ours = our_wishart_draws(203, 7.0, scale, inverse=True)
    ref = stats.invwishart(df=8.0, scale=scale).rvs(size=DRAWS,
                                                    random_state=np.random.default_rng(203))
    assert max(ks_distances(ours, ref)) > critical_distance(DRAWS, DRAWS)
