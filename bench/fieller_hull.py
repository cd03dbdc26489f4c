"""A Fieller interval beside the bootstrap at the edge of identifiability, the prototype of a hull
every bootstrap of the library once had, since replaced by the profile of the pivot vector
(core/estimators/profile_hull.hpp; run this against a library before either, DPCOV_LIBRARY, to
reproduce the prototype's table): per fit of one cell of
bench/interval_coverage.py, the printed bootstrap intervals, and the same hulled, for each
coefficient loading at least TAU of its square on a direction of the released X'X~ less than C2
noise sds strong, with the Fieller interval of that direction's component.

Why: along an eigenvector u of the released X'X~ = A (eigenvalue a), the pivot
u'(X'y~ - A beta) = u'X'e + u'e_xy - u'E beta is exactly Gaussian at the true beta with a variance
V(t) quadratic in t = u'beta (beta = beta_perp + u t, beta_perp from the estimate):
    V(t) = S_u + v_xy + s_o^2 (|beta_perp|^2 + 2 t^2) + (s_d^2 - 2 s_o^2) sum_i u_i^2 (beta_perp_i + u_i t)^2
(S_u the sampling variance of u'X'e: s^2 a for homoscedastic errors, u'Mu for the released meat;
v_xy, s_o^2, s_d^2 the variances of an X'y, an off-diagonal and a diagonal noise entry). The set
{t : (u'b - a t)^2 <= z^2 V(t)} is Fieller's: bounded only when a > z sqrt(V's t^2 term), and it
widens continuously as the direction weakens, where the bootstrap's worlds (built on the release)
cannot. The hull moves coefficient j by u_j (t - t_hat) over that set; a set that is not a bounded
interval leaves the coefficient unbounded (counted here as covering, and apart).

Usage (from the repository root, after building):
    DPCOV_LIBRARY=build/capi/libdpcov.so PYTHONPATH=bindings/python OPENBLAS_NUM_THREADS=1 \\
        /usr/bin/python3 bench/fieller_hull.py MODEL N D EPSILON FITS [--mechanism analyze_gauss]
        [--errors robust|homoscedastic] [--c2 6] [--tau 0.05]

Fits whose intervals the posterior answered are left as printed (the posterior integrates over
X'X). Record: bench/results/interval_grid.md, "A Fieller interval beside the bootstrap".
"""

from __future__ import annotations

import argparse
import math

import numpy as np

import interval_coverage as ic

Z = 1.959963984540054  # the 0.975 quantile of the standard normal


def statistics(est, p: int):
    """A, b, y'y (or None) and the entry variances (v_xy, s_o^2, s_d^2) of the fit's release."""
    release = est.release_
    if hasattr(release, "released_xtx"):  # AdaSSP
        r = release.receipt
        yy = r.released_label_square if r.label_square_released else None
        return (np.asarray(release.released_xtx), np.asarray(release.released_xty), yy,
                (r.sigma_cross ** 2, r.sigma_gram_off_diagonal ** 2, r.sigma_gram ** 2))
    m = np.asarray(release)
    s2 = est.receipt_.sigma ** 2  # Analyze Gauss: every entry N(0, sigma^2)
    return m[:p, :p], m[:p, p], m[p, p], (s2, s2, s2)


def pivot_terms(u, beta_hat, variances, sampling):
    """c0, c1, c2 of the pivot's variance V(t) = c0 + c1 t + c2 t^2 along u."""
    v_xy, s_o2, s_d2 = variances
    perp = beta_hat - u * (u @ beta_hat)
    w = u ** 2
    c0 = sampling + v_xy + s_o2 * (perp @ perp) + (s_d2 - 2 * s_o2) * (w @ perp ** 2)
    c1 = (s_d2 - 2 * s_o2) * 2 * ((w * u) @ perp)
    c2 = 2 * s_o2 + (s_d2 - 2 * s_o2) * (w @ u ** 2)
    return c0, c1, c2


def fieller_shift(u, a, b, beta_hat, variances, sampling):
    """The Fieller set of t = u'beta less t_hat, as (low, high), or None where it is not a
    bounded interval."""
    t_hat = u @ beta_hat
    c0, c1, c2 = pivot_terms(u, beta_hat, variances, sampling)
    ub = u @ b
    qa, qb, qc = a * a - Z * Z * c2, -(2 * a * ub + Z * Z * c1), ub * ub - Z * Z * c0
    disc = qb * qb - 4 * qa * qc
    if qa <= 0 or disc < 0:
        return None
    root = math.sqrt(disc)
    return (-qb - root) / (2 * qa) - t_hat, (-qb + root) / (2 * qa) - t_hat


def hulled(est, n: int, p: int, c2_max: float, tau: float):
    """The printed intervals hulled with the Fieller sets, a mask of the coefficients left
    unbounded, and how many intervals a weak direction touched."""
    ci = est.conf_int_.copy()
    unbounded = np.zeros(p, dtype=bool)
    if est.interval_method_ != "bootstrap" or not np.isfinite(ci).any():
        return ci, unbounded, 0
    a_mat, b, yy, variances = statistics(est, p)
    beta_hat = np.linalg.solve(a_mat, b)
    meat = getattr(est, "meat_", None) if est.errors_ == "robust" else None
    s2 = max(yy - b @ beta_hat, 0.0) / (n - p) if yy is not None else None
    values, vectors = np.linalg.eigh(a_mat)
    touched = 0
    for k in range(p):
        u, a = vectors[:, k], values[k]
        s_u = math.sqrt(2 * variances[1] + (variances[2] - 2 * variances[1]) * np.sum(u ** 4))
        if a >= c2_max * s_u:
            continue
        sampling = max(u @ np.asarray(meat) @ u, 0.0) if meat is not None else s2 * a
        shift = fieller_shift(u, a, b, beta_hat, variances, sampling)
        for j in range(p):
            if u[j] ** 2 < tau or not np.isfinite(ci[j]).all():
                continue
            touched += 1
            if shift is None:
                unbounded[j] = True
                continue
            e1, e2 = sorted((u[j] * shift[0], u[j] * shift[1]))
            ci[j] = [min(ci[j, 0], beta_hat[j] + e1), max(ci[j, 1], beta_hat[j] + e2)]
    return ci, unbounded, touched


def cell_parser(doc: str) -> argparse.ArgumentParser:
    """A parser of one cell of bench/interval_coverage.py: MODEL N D EPSILON FITS."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("model")
    parser.add_argument("n", type=int)
    parser.add_argument("d", type=int)
    parser.add_argument("epsilon", type=float)
    parser.add_argument("fits", type=int)
    return parser


def main() -> None:
    parser = cell_parser(__doc__)
    parser.add_argument("--mechanism", default="adassp")
    parser.add_argument("--errors", default="robust")
    parser.add_argument("--c2", type=float, default=6.0)
    parser.add_argument("--tau", type=float, default=0.05)
    args = parser.parse_args()
    c_y = ic.label_range(args.model, args.d)
    target = ic.truth(args.model, args.d, c_y)
    p = args.d + 1
    hits = np.zeros((2, p))
    shown = np.zeros(p)
    widths = ([], [])
    apart = touched = 0
    for r in range(args.fits):
        est = ic.default_fit(args.model, args.n, args.d, args.epsilon, r, c_y,
                             mechanism=args.mechanism, errors=args.errors)
        ci, unbounded, t = hulled(est, args.n, p, args.c2, args.tau)
        touched += t
        for j in range(p):
            if not np.isfinite(est.conf_int_[j]).all():
                continue
            shown[j] += 1
            hits[0, j] += est.conf_int_[j, 0] <= target[j] <= est.conf_int_[j, 1]
            widths[0].append(est.conf_int_[j, 1] - est.conf_int_[j, 0])
            if unbounded[j]:
                apart += 1
                hits[1, j] += 1
                continue
            hits[1, j] += ci[j, 0] <= target[j] <= ci[j, 1]
            widths[1].append(ci[j, 1] - ci[j, 0])
    total = max(shown.sum(), 1)
    print(f"{args.model} n {args.n} d {args.d} eps {args.epsilon} {args.mechanism} "
          f"{args.errors}: printed {int(shown.sum())}, coverage {hits[0].sum() / total:.3f}, "
          f"hulled {hits[1].sum() / total:.3f} ({apart} unbounded, {touched} touched); median "
          f"width {np.median(widths[0]) if widths[0] else float('nan'):.4g} -> "
          f"{np.median(widths[1]) if widths[1] else float('nan'):.4g}")
    for name, row in (("printed", hits[0]), ("hulled", hits[1])):
        print(f"  {name:8s}", " ".join(f"{h / max(s, 1):.3f}/{int(s)}" for h, s in zip(row, shown)))


if __name__ == "__main__":
    main()
