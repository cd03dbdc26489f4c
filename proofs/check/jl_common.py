"""Shared by the checks of Sheffet's JL, inverse-Wishart and OLS mechanisms (proofs/jl_ridge.md,
proofs/inverse_wishart.md, proofs/ols_ptr.md): the threshold w^2 of Thm 3.1 / B.1 and its exact
add/remove delta (constants.md section 5.1), in mpmath."""
from mpmath import (cos, e, eig, gammainc, inf, log, loggamma, matrix, mp, mpf, pi, quad, sin,
                    sqrt, workdps)


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


def _chi2_logpdf(k, x):
    k = mpf(k)
    return (k / 2 - 1) * log(x) - x / 2 - (k / 2) * log(2) - loggamma(k / 2)


def loss_eigenvalues(a, b, theta):
    """Replace-one: the row v (whitened norm^2 a = v^T M0^{-1} v) is replaced by v' (b), at angle
    theta in the whitened space, M0 the Gram matrix of the other rows (plus w^2 I). Per row of R A
    the privacy loss is (1/2) ln((1+b)/(1+a)) + (1/2) z^T (S1^{1/2} S2^{-1} S1^{1/2} - I) z,
    z ~ N(0, I), S1 = I + u u^T, S2 = I + u' u'^T; returns the two non-zero eigenvalues mu1 >= mu2
    of that matrix (those of S2^{-1} S1, minus 1)."""
    u = matrix([sqrt(mpf(a)), 0])
    v = matrix([sqrt(mpf(b)) * cos(theta), sqrt(mpf(b)) * sin(theta)])
    ident = matrix([[1, 0], [0, 1]])
    values = eig((ident + v * v.T) ** -1 * (ident + u * u.T), left=False, right=False)
    return sorted((mp.re(x) - 1 for x in values), reverse=True)


def replace_delta(eps, a, b, theta, r):
    """The exact delta(eps) = E_P1[(1 - e^{eps - L})_+] of publishing R A (r rows) for one
    replace-one pair (a, b, theta) of loss_eigenvalues: L = (r/2) ln((1+b)/(1+a)) +
    (mu1 X1 + mu2 X2)/2 with X1, X2 iid chi2_r. The expectation over X1 is closed-form
    (E[e^{-mu X/2}; X > t] = (1+mu)^{-r/2} P[chi2_r > t (1+mu)]); the one over X2 = u^2 is a
    quadrature (the substitution removes the singularity of the chi2_1 density at 0)."""
    with workdps(30):
        eps = mpf(eps)
        mu1, mu2 = loss_eigenvalues(a, b, theta)
        if mu1 <= 0:
            return mpf(0)
        c = mpf(r) / 2 * log((1 + mpf(b)) / (1 + mpf(a)))

        def inner(x2):
            k = eps - c - mu2 * x2 / 2
            t = max(mpf(0), 2 * k / mu1)
            return chi2_sf(r, t) - e ** k * (1 + mu1) ** (-mpf(r) / 2) * chi2_sf(r, t * (1 + mu1))

        # 40 equal panels in u up to sqrt(r + 40 sd + 50) resolve the lower tail of X2 that
        # carries the integral (fewer panels lose 10% at r = 100).
        top = sqrt(r + 40 * sqrt(2 * mpf(r)) + 50)
        return quad(lambda x: 2 * x * e ** _chi2_logpdf(r, x * x) * inner(x * x),
                    [top * i / 40 for i in range(41)] + [inf])


def replace_one_delta(eps, s, r):
    """The exact replace-one delta when every whitened row norm^2 is <= s: the supremum over
    (a, b, theta) is attained at orthogonal rows of the largest norm (a = b = s, theta = pi/2;
    checked on a grid by jl_ridge.py). Add/remove (b = 0) is the special case exact_delta."""
    return replace_delta(eps, s, s, pi / 2, r)
