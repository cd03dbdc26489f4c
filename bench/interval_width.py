"""Why a cell's printed intervals are wide: their width against the true spread of the estimate,
and, where the robust (sandwich) bootstrap answered, which variance component makes the width.

Usage (from the repository root, after building):
    DPCOV_LIBRARY=build/capi/libdpcov.so PYTHONPATH=bindings/python:bench \\
        /usr/bin/python3 bench/interval_width.py --model binary --n 2000 --d 10 --eps 4 --fits 40

Runs the default fits of bench/interval_coverage.py (fit r: noise seed r, data seed 10^6 + r) and
prints, per cell: how many fits each path answered; per coefficient over the fits, the sd of the
unregularised released estimate X'X~^-1 X'y~ (its true sampling and privacy spread) against the
printed intervals' median half width / 1.96 (1 when the width matches the spread, above 1 wider);
and for the robust bootstrap's fits, the same release's intervals with the meat's noise redrawn
in every world (what is printed), with the released meat fixed, with the exact meat of the data
(a diagnostic only: it reads the data) and with no sampling noise at all (privacy noise only),
as median width and coverage over every coefficient, and the meat's noise sd against the exact
meat's median diagonal entry.
"""

from __future__ import annotations

import argparse
import math
import warnings

import numpy as np

import dpcov
from dpcov.adassp import adassp_sandwich_intervals
from dpcov.rng import Rng
import interval_coverage as ic

VARIANTS = ("redrawn meat (printed)", "fixed released meat", "exact meat", "no sampling noise")


def exact_meat(x, y, beta0, residual_bound):
    """sum_i r_i^2 a_i a_i', a_i = [1, x_i], r_i = clip(y_i - a_i' beta0, -R, R)."""
    a = np.column_stack([np.ones(len(y)), x])
    r = np.clip(y - a @ beta0, -residual_bound, residual_bound)
    return (a * (r * r)[:, None]).T @ a


def variants(est, x, y, seed):
    """The four intervals of VARIANTS for one robust fit, each from the generator `seed`."""
    fit, meat = est.release_, est.meat_
    budget = dpcov.adassp.sandwich_plan(math.sqrt(x.shape[1] + 1), 1.0, est.epsilon, est.delta)
    meats = [(meat, est.meat_receipt_), (meat, None),
             (exact_meat(x, y, fit.coefficients, budget.residual_bound), None),
             (np.zeros_like(meat), None)]
    out = []
    for m, receipt in meats:
        with Rng.seeded(seed) as rng:
            r = adassp_sandwich_intervals(fit, m, rng, est.level, est.n_bootstrap, receipt)
        out.append(np.column_stack([r.ci_lower, r.ci_upper]))
    return out


def default_fits(args, c_y, paths: dict):
    """bench/interval_coverage.py's default fits of the cell (args.model, n, d, eps), fit r on
    its data seed: (r, x, y, the fitted estimator), each fit's path counted in `paths`."""
    for r in range(args.fits):
        x, y = ic.mapped(args.model, args.n, args.d, np.random.default_rng(1_000_000 + r), c_y)
        est = dpcov.PrivateLinearRegression(epsilon=args.eps, delta=1e-6, bound=math.sqrt(args.d),
                                            label_bound=1.0, random_state=r)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est.fit(x, y)
        key = f"{est.interval_method_} ({est.errors_})"
        paths[key] = paths.get(key, 0) + 1
        yield r, x, y, est


def cell(args):
    c_y = ic.label_range(args.model, args.d)
    target = ic.truth(args.model, args.d, c_y)
    paths, estimates, half, meat_sd, meat_diag = {}, [], [], [], []
    tallies = [ic.Tally(target) for _ in VARIANTS]
    for r, x, y, est in default_fits(args, c_y, paths):
        fit = est.release_
        estimates.append(np.linalg.solve(fit.released_xtx, fit.released_xty))
        ci = est.conf_int_
        half.append(np.where(np.isfinite(ci[:, 1]), (ci[:, 1] - ci[:, 0]) / 2, np.nan))
        if getattr(est, "meat_", None) is not None and est.errors_ == "robust":
            for tally, v in zip(tallies, variants(est, x, y, 10_000 + r)):
                tally.add(v)
            meat_sd.append(est.meat_receipt_.sigma)
            meat_diag.append(np.median(np.diag(exact_meat(x, y, fit.coefficients, 2.0))[1:]))
    return paths, np.array(estimates), np.array(half), tallies, meat_sd, meat_diag


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for name, kind in (("--model", str), ("--n", int), ("--d", int), ("--eps", float),
                       ("--fits", int)):
        ap.add_argument(name, type=kind, required=name != "--fits", default=40)
    args = ap.parse_args(argv)
    paths, estimates, half, tallies, meat_sd, meat_diag = cell(args)
    print(f"{args.model} n = {args.n} d = {args.d} epsilon = {args.eps:g}, {args.fits} fits; "
          f"paths: {paths}")
    spread = estimates.std(axis=0, ddof=1)
    ratio = np.nanmedian(half, axis=0) / 1.96 / spread
    print("printed half width / 1.96 over the estimate's sd, per coefficient: "
          + " ".join(f"{v:.2f}" for v in ratio))
    if meat_sd:
        print(f"meat noise sd {np.median(meat_sd):.3g}, exact meat's median slope diagonal "
              f"{np.median(meat_diag):.3g} (robust fits: {tallies[0].fits})")
        print("| intervals of the robust fits | median width | coverage |")
        print("| --- | --- | --- |")
        for name, t in zip(VARIANTS, tallies):
            print(f"| {name} | {t.median_width():.3g} | {t.coverage():.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
