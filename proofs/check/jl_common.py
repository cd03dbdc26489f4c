"""Shared by the checks of Sheffet's JL, inverse-Wishart and OLS mechanisms (proofs/jl_ridge.md,
proofs/inverse_wishart.md, proofs/ols_ptr.md): the threshold w^2 of Thm 3.1 / B.1 and its exact
add/remove delta (constants.md section 5.1), in mpmath."""
from mpmath import e, gammainc, inf, log, mpf, sqrt


def threshold_w2(bound, eps, delta, r):
    """w^2 = (2 B^2 / eps) (sqrt(2 r ln(4/delta)) + 2 ln(4/delta))."""
    big_l = log(4 / mpf(delta))
    return 2 * mpf(bound) ** 2 / mpf(eps) * (sqrt(2 * r * big_l) + 2 * big_l)


def chi2_sf(k, x):
    return gammainc(mpf(k) / 2, x / 2, inf, regularized=True)


def chi2_cdf(k, x):
    return gammainc(mpf(k) / 2, 0, x / 2, regularized=True)


def exact_delta(eps, a, r):
    """The add/remove delta of publishing R A (r rows) when v^T M^{-1} v = a (section 5.1):
    the privacy loss is L = -(r/2) ln(1+a) + (a/2) X, X ~ chi2_r under the larger covariance, and
    L' = (r/2) ln(1+a) - (a/(2(1+a))) X' in the other direction."""
    eps, a = mpf(eps), mpf(a)
    t = 2 * eps + r * log(1 + a)
    t2 = r * log(1 + a) - 2 * eps
    first = chi2_sf(r, t / a) - e ** eps * chi2_sf(r, t * (1 + a) / a)
    second = 0 if t2 <= 0 else chi2_cdf(r, t2 * (1 + a) / a) - e ** eps * chi2_cdf(r, t2 / a)
    return max(first, second)
