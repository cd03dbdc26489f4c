"""Measures a candidate for an answer at small n where the bootstrap refuses: intervals by
inverting a noise-aware test on AdaSSP's released statistics (a measurement for the design in
docs/regression_intervals.md, "Not built yet"; the library does not ship it).

Usage (from the repository root, after building):
    DPCOV_LIBRARY=build/capi/libdpcov.so PYTHONPATH=bindings/python:bench \\
        /usr/bin/python3 bench/small_n_inversion.py [FITS] [--option key=value ...]

The release holds M = X'X + E, b = X'y + e and v = y'y + e_y (proofs/adassp.md: E symmetric,
N(0, s_g^2) on the diagonal and N(0, s_g^2 / 2) above it; e ~ N(0, s_c^2 I)). At the true beta,
r(beta) = b - M beta = X'(y - X beta) + e - E beta has mean 0 and covariance
    V(beta) = sigma^2(beta) X'X + s_c^2 I + (s_g^2 / 2)(||beta||^2 I + beta beta'),
with X'X estimated by M projected onto the positive semidefinite cone and sigma^2(beta) the
residual variance (v - 2 beta'b + beta'M beta) / (n - p), clamped at 0: both from the release.
The confidence set for beta_j is {t : min over the other coefficients of r'V^{-1}r <= chi2_1},
the profile computed by iterated generalised least squares; it needs no positive definite M.
A side on which the profile stays below chi2_1 up to |t| = 1e6 is unbounded: the release then
cannot support a conclusion about that coefficient. Prints, per cell of
bench/interval_coverage.py's models, the share of fits with a bounded interval for every
coefficient, the coverage of the bounded intervals and their median width.
"""

from __future__ import annotations

import math
import sys
import warnings

import numpy as np

import dpcov
from interval_coverage import Tally, estimator_options, label_range, mapped, truth

CHI2_1 = 3.841458820694124  # the 0.95 quantile of chi-square with 1 degree of freedom
FAR = 1e6


def psd(m):
    w, q = np.linalg.eigh((m + m.T) / 2)
    return (q * np.maximum(w, 0.0)) @ q.T


def covariance(beta, m, g, b, v, n, s):
    p = len(beta)
    rss = max(0.0, v - 2 * beta @ b + beta @ m @ beta)
    var = rss / (n - p)
    return var * g + s["c"] ** 2 * np.eye(p) + s["g"] ** 2 / 2 * (beta @ beta * np.eye(p)
                                                                  + np.outer(beta, beta))


def profile(j, t, m, g, b, v, n, s, start):
    """min over beta_{-j} of r'V^{-1}r with beta_j = t, and the minimiser."""
    beta = start.copy()
    beta[j] = t
    rest = [k for k in range(len(beta)) if k != j]
    for _ in range(4):
        w = np.linalg.inv(covariance(beta, m, g, b, v, n, s))
        a = m[:, rest]
        rhs = b - m[:, j] * t
        beta[rest] = np.linalg.lstsq(a.T @ w @ a, a.T @ w @ rhs, rcond=None)[0]
    r = b - m @ beta
    return float(r @ np.linalg.solve(covariance(beta, m, g, b, v, n, s), r)), beta


def end(j, centre, step, m, g, b, v, n, s, start):
    """The end of the interval of beta_j on the side of sign(step), or +-inf."""
    inside = centre
    far = centre + math.copysign(FAR, step)
    if profile(j, far, m, g, b, v, n, s, start)[0] <= CHI2_1:
        return far * math.inf
    out = centre + step
    while profile(j, out, m, g, b, v, n, s, start)[0] <= CHI2_1:
        inside, out = out, centre + 2 * (out - centre)
    for _ in range(25):
        mid = (inside + out) / 2
        if profile(j, mid, m, g, b, v, n, s, start)[0] <= CHI2_1:
            inside = mid
        else:
            out = mid
    return (inside + out) / 2


def intervals(fit, n):
    rc = fit.receipt
    m, b, v = fit.released_xtx, fit.released_xty, rc.released_label_square
    s = {"g": rc.sigma_gram, "c": rc.sigma_cross}
    g = psd(m)
    start = np.linalg.lstsq(m, b, rcond=None)[0]
    out = np.empty((len(b), 2))
    for j in range(len(b)):
        centre = start[j]
        step = 0.01 * (abs(centre) + 1.0)
        out[j] = [end(j, centre, -step, m, g, b, v, n, s, start),
                  end(j, centre, step, m, g, b, v, n, s, start)]
    return out


def main(argv) -> int:
    fits = int(argv[0]) if argv and not argv[0].startswith("--") else 50
    options = estimator_options(argv[i + 1] for i, a in enumerate(argv) if a == "--option")
    print("| model | n | d | epsilon | bootstrap: share | inversion: share bounded | coverage "
          "| median width |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for model, d in (("gaussian", 3), ("heavy", 3)):
        c_y = label_range(model, d)
        target = truth(model, d, c_y)
        for n in (500, 2000):
            for eps in (1.0, 4.0):
                boot = bounded = 0
                tally = Tally(target)
                for r in range(fits):
                    x, y = mapped(model, n, d, np.random.default_rng(1_000_000 + r), c_y)
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        est = dpcov.PrivateLinearRegression(
                            epsilon=eps, delta=1e-6, bound=math.sqrt(d), label_bound=1.0,
                            random_state=r, **options).fit(x, y)
                    boot += bool(np.isfinite(est.conf_int_).all())
                    bounded += bool(tally.add(intervals(est.release_, n)).all())
                print(f"| {model} | {n} | {d} | {eps:g} | {boot / fits:.2f} | "
                      f"{bounded / fits:.2f} | {tally.coverage():.3f} | "
                      f"{tally.median_width():.3g} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
