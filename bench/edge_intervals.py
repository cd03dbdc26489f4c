"""Three constructions of intervals at the edge of identifiability, measured beside the library on
the fits of one cell of bench/interval_coverage.py (the default PrivateLinearRegression).

The bootstrap answers only on releases whose weak directions came out strong enough
(core/estimators/weak_directions.hpp: at least 3 noise sds in the worlds' truth), so its printed
intervals, and the Fieller hull that widens them, are read on selected releases. Along an
eigenvector u of the released X'X~ (eigenvalue a = lambda + eta, eta = u'Eu ~ N(0, s^2)) with
t = u'beta, the pivot P(t) = u'X'y~ - a t is N(0, V(t)) at the true t, V(t) = c0 + c1 t + c2 t^2
(fieller_hull.py).

--method conditional: Fieller's set conditional on the selection a >= a_min. Write
eta = g P + R with g = Cov(P, eta) / V(t) = (-c1 / 2 - c2 t) / V(t) and R independent of P; then
S = a - g P_obs is independent of P, and given S the selection is the half-line g P >= a_min - S:
P is N(0, V(t)) truncated there (the polyhedral lemma of Lee, Sun, Sun and Taylor 2016, in one
dimension), and {t : the truncated law's upper tail at P_obs in [alpha/2, 1 - alpha/2]} covers t
with probability 1 - alpha given the selection, whatever lambda. u is taken as fixed and a_min is
read off the worlds' truth (C_SELECT sds there): both approximations. For each fit the bootstrap
answered, each coefficient with at least TAU of its square on a direction below C2 sds in the
worlds' truth gets the hull of its printed interval and its range over the conditional set; an
unbounded set prints NaN ("cannot support a conclusion").

--method in-place: no bootstrap and no rule. On every fit, Fieller's set along every eigenvector
of the release (the other components at the estimate), each coefficient's interval the estimate
plus its directions' shifts combined in quadrature on each side; NaN where a direction carrying at
least 0.01 of its square has no bounded set. The quadrature drops the directions' covariances.

--method profile: on every fit, the library's dpcov_adassp_profile_intervals
(core/estimators/pivot_profile.hpp, proofs/pivot_profile.md): r(beta) = X'y~ - X'X~ beta is
exactly N(0, Sigma(beta)) at the true beta, Sigma(beta) = the sampling covariance (the released
meat's positive part, or s^2 X'X~) + v_xy I + Q(beta beta'); each coefficient's set is
{c : min over beta with beta_j = c of r' Sigma(beta)^-1 r <= z^2}: Fieller's set in many
dimensions, calibrated as chi-square with one degree of freedom (exact where Sigma does not
depend on beta); NaN where the interval contains [-R_j, R_j].

Usage (from the repository root, after building):
    DPCOV_LIBRARY=build/capi/libdpcov.so PYTHONPATH=bindings/python:bench OPENBLAS_NUM_THREADS=1 \\
        /usr/bin/python3 bench/edge_intervals.py MODEL N D EPSILON FITS [--first F]
        [--method conditional|in-place|profile] [--c-select 3] [--c2 4.5] [--tau 0.05]

Record: bench/results/interval_grid.md, "Intervals that the edge's selection does not bias".
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import log_ndtr

import dpcov
import fieller_hull as fh
import interval_coverage as ic

ALPHA = 0.05


class Release:
    """What a fit released, read as the library's intervals read it: the feature block A, X'y~ b,
    the estimate A^-1 b, the noise's entry variances, and the sampling covariance of X'e (the
    released meat made positive semidefinite for robust errors, else s^2 A)."""

    def __init__(self, est, n: int, p: int):
        self.a, self.b, yy, self.variances = fh.statistics(est, p)
        self.beta = np.linalg.solve(self.a, self.b)
        self.eigen = np.linalg.eigh(self.a)
        meat = getattr(est, "meat_", None) if est.errors_ == "robust" else None
        if meat is not None:
            w, v = np.linalg.eigh(np.asarray(meat, dtype=float))
            self.sampling = (v * np.maximum(w, 0.0)) @ v.T
        elif yy is not None:
            self.sampling = max(yy - self.b @ self.beta, 0.0) / (n - p) * self.a
        else:
            raise ValueError("no sampling covariance released")

    def noise_q(self, m):
        """Q(M) = E[E M E] (core/estimators/worlds_truth.hpp)."""
        _, s_o2, s_d2 = self.variances
        return (s_o2 * (m + np.trace(m) * np.eye(len(m)))
                + (s_d2 - 2 * s_o2) * np.diag(np.diag(m)))

    def worlds_truth(self):
        """The release de-noised to second order (core/estimators/worlds_truth.cpp)."""
        inv = np.linalg.inv(self.a)
        q = self.noise_q(inv)
        li = np.linalg.inv(np.linalg.cholesky(self.a))
        if np.linalg.eigvalsh(li @ q @ li.T)[-1] > 0.5:
            return self.a
        return np.linalg.inv(inv - inv @ q @ inv)

    def direction(self, k):
        """Eigenvector k of A, its eigenvalue, the noise sd of u'Eu and u's sampling variance."""
        values, vectors = self.eigen
        u = vectors[:, k]
        _, s_o2, s_d2 = self.variances
        s_u = math.sqrt(2 * s_o2 + (s_d2 - 2 * s_o2) * np.sum(u ** 4))
        return u, values[k], s_u, max(u @ self.sampling @ u, 0.0)


def upper_tail(p_obs, sd, g, edge):
    """P(X >= p_obs) for X ~ N(0, sd^2) truncated to X >= edge (g > 0) or X <= edge (g < 0)."""
    z, ze = p_obs / sd, edge / sd
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        up = np.where(g > 0, np.exp(log_ndtr(-z) - log_ndtr(-ze)),
                      np.where(g < 0, 1 - np.exp(log_ndtr(z) - log_ndtr(ze)), np.exp(log_ndtr(-z))))
    return np.clip(np.nan_to_num(up, nan=0.5), 0.0, 1.0)


def conditional_set(a, ub, a_min, terms, t_hat, width):
    """The set of t given a >= a_min as (low, high), or None where it reaches the grid's ends."""
    c0, c1, c2 = terms
    ts = t_hat + np.linspace(-width, width, 40001)
    v = c0 + c1 * ts + c2 * ts ** 2
    p_obs = ub - a * ts
    g = (-0.5 * c1 - c2 * ts) / v
    with np.errstate(divide="ignore", invalid="ignore"):
        edge = (a_min - (a - g * p_obs)) / g
    up = upper_tail(p_obs, np.sqrt(v), g, edge)
    ok = (up >= ALPHA / 2) & (up <= 1 - ALPHA / 2)
    if not ok.any():
        return t_hat, t_hat
    if ok[0] or ok[-1]:
        return None
    idx = np.flatnonzero(ok)
    return ts[idx[0]], ts[idx[-1]]


def conditional(est, rel, p, args):
    ci = est.conf_int_.copy()
    if est.interval_method_ != "bootstrap":
        return ci
    truth = rel.worlds_truth()
    for k in range(p):
        u, a, s_u, sampling = rel.direction(k)
        terms = fh.pivot_terms(u, rel.beta, rel.variances, sampling)
        strength = u @ truth @ u
        if strength >= args.c2 * s_u:
            continue
        a_min = min(a, args.c_select * s_u - (strength - a))
        t_hat = u @ rel.beta
        width = 200 * math.sqrt(terms[0] + terms[2] * t_hat ** 2) / max(a, 1e-300)
        found = conditional_set(a, u @ rel.b, a_min, terms, t_hat, width)
        for j in range(p):
            if u[j] ** 2 < args.tau or not np.isfinite(ci[j]).all():
                continue
            if found is None:
                ci[j] = np.nan
                continue
            e1, e2 = sorted((u[j] * (found[0] - t_hat), u[j] * (found[1] - t_hat)))
            ci[j] = [min(ci[j, 0], rel.beta[j] + e1), max(ci[j, 1], rel.beta[j] + e2)]
    return ci


def in_place(est, rel, p, args):
    low, high = np.zeros(p), np.zeros(p)
    bounded = np.ones(p, dtype=bool)
    for k in range(p):
        u, a, _, sampling = rel.direction(k)
        shift = fh.fieller_shift(u, a, rel.b, rel.beta, rel.variances, sampling) if a > 0 else None
        for j in range(p):
            if shift is None:
                bounded[j] &= u[j] ** 2 < 0.01
                continue
            e1, e2 = sorted((u[j] * shift[0], u[j] * shift[1]))
            low[j] += min(e1, 0.0) ** 2
            high[j] += max(e2, 0.0) ** 2
    ci = np.full((p, 2), np.nan)
    ci[bounded, 0] = rel.beta[bounded] - np.sqrt(low[bounded])
    ci[bounded, 1] = rel.beta[bounded] + np.sqrt(high[bounded])
    return ci


def profile(est, rel, p, args):
    """The library's dpcov_adassp_profile_intervals on the fit's release; NaN where the interval
    covers [-R_j, R_j] (cannot support a conclusion)."""
    meat = getattr(est, "meat_", None) if est.errors_ == "robust" else None
    try:
        out = dpcov.adassp_profile_intervals(est.release_, args.n,
                                             None if meat is None else np.asarray(meat),
                                             intercept_column=0)
    except dpcov.DpcovError:
        return np.full((p, 2), np.nan)
    ci = np.column_stack([out.ci_lower, out.ci_upper])
    ci[~out.conclusive] = np.nan
    return ci


METHODS = {"conditional": conditional, "in-place": in_place, "profile": profile}


def main() -> None:
    parser = fh.cell_parser(__doc__)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--method", choices=sorted(METHODS), default="conditional")
    parser.add_argument("--c-select", type=float, default=3.0)
    parser.add_argument("--c2", type=float, default=4.5)
    parser.add_argument("--tau", type=float, default=0.05)
    args = parser.parse_args()
    c_y = ic.label_range(args.model, args.d)
    target = ic.truth(args.model, args.d, c_y)
    p = args.d + 1
    printed, other = ic.Tally(target), ic.Tally(target)
    for r in range(args.first, args.first + args.fits):
        est = ic.default_fit(args.model, args.n, args.d, args.epsilon, r, c_y)
        printed.add(est.conf_int_)
        try:
            rel = Release(est, args.n, p)
        except (AttributeError, ValueError, np.linalg.LinAlgError):
            other.add(np.full((p, 2), np.nan))
            continue
        other.add(METHODS[args.method](est, rel, p, args))
    print(f"{args.model} n {args.n} d {args.d} eps {args.epsilon}, fits {args.first}-"
          f"{args.first + args.fits - 1} (covered / printed per coefficient):")
    for name, t in (("printed", printed), (args.method, other)):
        print(f"  {name:12s}", " ".join(f"{h:.0f}/{s:.0f}" for h, s in zip(t.hits, t.shown)),
              f"median width {t.median_width():.3g}")


if __name__ == "__main__":
    main()
