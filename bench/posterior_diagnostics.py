"""Diagnostics of AdaSSP's small-n posterior (proofs/adassp_posterior.md) on the releases of
bench/interval_coverage.py's default fits (fit r: noise seed r, data seed 10^6 + r).

Usage (from the repository root, after building):
    DPCOV_LIBRARY=build/capi/libdpcov.so PYTHONPATH=bindings/python:bench \\
        /usr/bin/python3 bench/posterior_diagnostics.py information --model gaussian --n 500 --d 3
    ... posterior_diagnostics.py mixing --model heavy --n 500 --d 10 --draws 999,2997
    ... posterior_diagnostics.py budget --model gaussian --n 500 --d 3 --factors 1,1.44,1.76,2.5

information: per coefficient, what the release says about it and how the posterior's intervals
behave: the signal-to-noise ratios of the released statistics at the truth (G_jj / s_g and
|(G beta)_j| / s_c, from 10^6 rows of the model), the coverage of the computed intervals, the
median width in units of 2 R_j, and the spread of z = (posterior median - truth) / posterior sd
over fits, the midpoint of the interval standing for the median (1 for intervals whose width matches the point's sampling spread; below 1, wider).

budget: what a smaller noise or a bound nearer the rows would print. Each variant releases the
fit's statistics with the noise of the default divided by a factor (the same four statistics at
the epsilon whose joint noise scale over sensitivity is the default's over the factor;
homoscedastic errors, so that the whole epsilon goes to that release) at the public bound
sqrt(d) or at the `--quantiles` quantile of the rows' norms (an oracle bound, read from the
data: about the best a private bound aimed at that quantile does). Per variant: G_jj / s_g of the slopes
(the smallest and largest over fits; G_jj from the fit's own rows), the share of fits that print
an interval, the share of coefficients printed, their coverage of the population coefficients and
median width. The default's release (robust errors) is 4 statistics at 0.8 epsilon; releasing
X'X, X'y and y'y alone at the whole epsilon divides its noise by 1.44 at epsilon = 1, and X'X
and X'y alone by 1.76.

convergence: per fit answered by the posterior, the library's own verdict
(dpcov_adassp_intervals, 4 chains started apart, rank-normalised split R-hat and bulk ESS, chains
lengthened at most twice): the share of coefficients whose chains converged, the coverage of the
converged and of the unconverged ones' intervals, and CPU seconds per fit.

mixing: K chains (noise seeds 1..K of the posterior, same release) per fit and chain length;
from each chain's posterior median and standard deviation, the potential scale reduction
R = sqrt((W + B) / W) (W the mean within-chain variance, B the variance of the chains'
medians) and an effective sample size per chain W / B (from medians, whose sampling variance is
about pi / 2 times the mean's for a normal posterior: a lower estimate), and seconds per chain.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
import warnings

import numpy as np

import dpcov
from dpcov.adassp import adassp_intervals, adassp_plan
from dpcov.rng import Rng
import interval_coverage as ic


def release(model, n, d, eps, r, c_y):
    """The default fit's AdaSSP release (fit r)."""
    return ic.default_fit(model, n, d, eps, r, c_y)


def posterior_releases(args, c_y):
    """(fit, its public n) for each of the default fits the posterior answered."""
    for r in range(args.fits):
        est = release(args.model, args.n, args.d, args.eps, r, c_y)
        if est.interval_method_ == "posterior":
            yield r, est, est._inference_rows(est.n_samples_)


def population_gram(model, d, c_y, target, rows=1_000_000):
    """E[x x'] n-free and E[x y] of the mapped model with the intercept: G / n and G beta / n."""
    x, y = ic.mapped(model, rows, d, np.random.default_rng(5), c_y)
    a = np.column_stack([np.ones(rows), x])
    return a.T @ a / rows, a.T @ a @ target / rows


def information(args, c_y, target):
    gram, u = population_gram(args.model, args.d, c_y, target)
    hits, widths, z = [], [], []
    rec = None
    for r in range(args.fits):
        est = release(args.model, args.n, args.d, args.eps, r, c_y)
        if est.interval_method_ != "posterior":
            continue
        rec = est.receipt_
        se, _, ci = est.noise_aware_intervals()
        mid = 0.5 * (ci[:, 0] + ci[:, 1])
        hits.append((ci[:, 0] <= target) & (target <= ci[:, 1]))
        widths.append(ci[:, 1] - ci[:, 0])
        z.append((mid - target) / se)
    if rec is None:
        print("no fit answered by the posterior")
        return
    p = args.d + 1
    b = math.sqrt(rec.bound ** 2 - 1.0)
    half = np.array([rec.bound_y] + [rec.bound_y / b] * args.d)
    print(f"{args.model} n = {args.n} d = {args.d} epsilon = {args.eps}: {len(hits)} fits "
          f"answered by the posterior; s_g = {rec.sigma_gram:.3g}, s_c = {rec.sigma_cross:.3g}")
    print("| coefficient | truth | truth / R_j | G_jj / s_g | abs((G beta)_j) / s_c | coverage "
          "| median width / 2 R_j | sd of z |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    hits, widths, z = np.array(hits), np.array(widths), np.array(z)
    for j in range(p):
        print(f"| {'intercept' if j == 0 else f'x{j}'} | {target[j]:.3f} | "
              f"{target[j] / half[j]:.2f} | {args.n * gram[j, j] / rec.sigma_gram:.2f} | "
              f"{args.n * abs(u[j]) / rec.sigma_cross:.2f} | {hits[:, j].mean():.3f} | "
              f"{np.median(widths[:, j]) / (2 * half[j]):.2f} | {np.std(z[:, j]):.2f} |")


def mixing(args, c_y, target):
    print("| draws | fits | max R over coefficients (median over fits) | min ESS per chain "
          "(median over fits) | seconds per chain |")
    print("| --- | --- | --- | --- | --- |")
    for draws in (int(v) for v in args.draws.split(",")):
        worst_r, worst_ess, seconds = [], [], []
        for _, est, rows in posterior_releases(args, c_y):
            med, var = [], []
            for k in range(args.chains):
                t = time.perf_counter()
                a = adassp_intervals(est.release_, rows, Rng(1000 + k, 2), 0, 0.95, draws)
                seconds.append(time.perf_counter() - t)
                med.append(a.coefficients)
                var.append(a.std_errors ** 2)
            w = np.mean(var, axis=0)
            bvar = np.var(med, axis=0, ddof=1)
            worst_r.append(float(np.max(np.sqrt((w + bvar) / w))))
            worst_ess.append(float(np.min(w / bvar)))
        print(f"| {draws} | {len(worst_r)} | {np.median(worst_r):.3f} | "
              f"{np.median(worst_ess):.0f} | {np.median(seconds):.2f} |", flush=True)


def convergence(args, c_y, target):
    print("| model | n | d | epsilon | fits | coefficients converged | coverage where converged "
          "| coverage where not | CPU seconds per fit (median, max) |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    ok, hit, seconds = [], [], []
    for r, est, rows in posterior_releases(args, c_y):
        t = time.process_time()  # CPU time: the shared machine's wall time says little
        a = adassp_intervals(est.release_, rows, Rng(r, 2), 0, 0.95, args.draws_one)
        seconds.append(time.process_time() - t)
        ok.append(~a.unconverged)
        hit.append((a.ci_lower <= target) & (target <= a.ci_upper))
    ok, hit = np.array(ok), np.array(hit)
    if not len(ok):
        print("no fit answered by the posterior")
        return
    print(f"| {args.model} | {args.n} | {args.d} | {args.eps:g} | {len(ok)} | {ok.mean():.2f} | "
          f"{hit[ok].mean() if ok.any() else float('nan'):.3f} | "
          f"{hit[~ok].mean() if (~ok).any() else float('nan'):.3f} | "
          f"{np.median(seconds):.2f}, {np.max(seconds):.2f} |", flush=True)


def noise_over_sensitivity(eps, delta, d):
    """sigma / sensitivity of the fit's joint Gaussian release (4 statistics, with y'y)."""
    r = adassp_plan(d + 1, math.sqrt(1.0 + d), 1.0, eps, delta, release_label_square=True)
    return r.sigma_gram / r.sensitivity_gram


def epsilon_for(ratio, d):
    """The epsilon at which noise_over_sensitivity at delta = 1e-6 is `ratio` (bisection in log
    epsilon)."""
    lo, hi = 1e-3, 1e3
    for _ in range(80):
        mid = math.sqrt(lo * hi)
        lo, hi = (mid, hi) if noise_over_sensitivity(mid, 1e-6, d) > ratio else (lo, mid)
    return hi


def budget(args, c_y, target):
    # The robust default's release: 0.8 of (epsilon, delta).
    default = noise_over_sensitivity(0.8 * args.eps, 0.8e-6, args.d)
    print("| model | n | d | epsilon | noise / factor | bound | G_jj / s_g (slopes) | share with an "
          "interval | coefficients printed | printed coverage | median width |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for factor in (float(v) for v in args.factors.split(",")):
        eps = epsilon_for(default / factor, args.d)
        for q in args.quantiles.split(","):
            printed = shown = hits = 0
            widths, snr = [], []
            for r in range(args.fits):
                x, y = ic.mapped(args.model, args.n, args.d,
                                 np.random.default_rng(1_000_000 + r), c_y)
                bound = (math.sqrt(args.d) if q == "none"
                         else float(np.quantile(np.linalg.norm(x, axis=1), float(q))))
                est = dpcov.PrivateLinearRegression(epsilon=eps, delta=1e-6, bound=bound,
                                                    label_bound=1.0, random_state=r,
                                                    errors="homoscedastic")
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    est.fit(x, y)
                clipped = x * np.minimum(1.0, bound / np.maximum(
                    np.linalg.norm(x, axis=1), 1e-300))[:, None]
                snr.extend(((clipped ** 2).sum(axis=0) / est.receipt_.sigma_gram).tolist())
                ci = est.conf_int_
                ok = np.all(np.isfinite(ci), axis=1)
                printed += bool(ok.any())
                shown += int(ok.sum())
                hits += int((ok & (ci[:, 0] <= target) & (target <= ci[:, 1])).sum())
                widths.extend((ci[ok, 1] - ci[ok, 0]).tolist())
            label = "sqrt(d)" if q == "none" else f"quantile {q} (oracle)"
            cov = f"{hits / shown:.3f} ({shown})" if shown else "none"
            width = f"{np.median(widths):.3g}" if widths else "nan"
            print(f"| {args.model} | {args.n} | {args.d} | {args.eps:g} | {factor:g} | {label} | "
                  f"{min(snr):.2f}-{max(snr):.2f} | {printed / args.fits:.2f} | "
                  f"{shown / (args.fits * (args.d + 1)):.2f} | {cov} | {width} |", flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=("information", "mixing", "convergence", "budget"))
    ap.add_argument("--model", default="gaussian")
    ap.add_argument("--n", type=int, default=500)
    ap.add_argument("--d", type=int, default=3)
    ap.add_argument("--eps", type=float, default=1.0)
    ap.add_argument("--fits", type=int, default=20)
    ap.add_argument("--chains", type=int, default=4)
    ap.add_argument("--draws", default="999,2997")
    ap.add_argument("--draws-one", type=int, default=999, help="convergence: the draws asked for")
    ap.add_argument("--factors", default="1,1.44,1.76,2.5",
                    help="budget: the default's noise is divided by each")
    ap.add_argument("--quantiles", default="none,0.95",
                    help="budget: the bound, none (sqrt(d)) or a quantile of the rows' norms")
    args = ap.parse_args(argv)
    c_y = ic.label_range(args.model, args.d)
    target = ic.truth(args.model, args.d, c_y, rows=1_000_000)
    {"information": information, "mixing": mixing, "convergence": convergence,
     "budget": budget}[args.what](
        args, c_y, target)
    return 0


if __name__ == "__main__":
    sys.exit(main())
