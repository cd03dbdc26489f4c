"""The shape of the bootstrap intervals' errors where they over-cover: coverage at several levels,
the estimate's studentised error, and whether its tails or the worlds' centre make the cover.

Usage (from the repository root, after building):
    DPCOV_LIBRARY=build/capi/libdpcov.so PYTHONPATH=bindings/python:bench \\
        /usr/bin/python3 bench/interval_shape.py --model binary --n 2000 --d 10 --eps 1 --fits 40

Runs the default fits of bench/interval_coverage.py (fit r: noise seed r, data seed 10^6 + r) and,
for each fit a bootstrap answered (the robust one where the fit released a meat, else the
homoscedastic one), recomputes its intervals from one generator (seed 10^4 + r, so the same
worlds at every level) at the levels of LEVELS, and prints per level the coverage of the
population target by the percentile intervals (what is printed) and by the basic (reflected)
intervals [2 b - hi, 2 b - lo] around the unregularised estimate b. Then the studentised error
t = (b - target) / se (se the worlds' standard deviation): its sd, kurtosis and the share beyond
1.96, against the standard normal's 1, 3 and 0.05; the worlds' offset (centre of the 95% interval
minus b) / se; and the half width / (1.96 se), 1 for a normal worlds' law.
"""

from __future__ import annotations

import argparse
import numpy as np

from dpcov.adassp import adassp_bootstrap_intervals, adassp_sandwich_intervals
from dpcov.rng import Rng
import interval_coverage as ic
from interval_width import default_fits

LEVELS = (0.5, 0.8, 0.9, 0.95, 0.98, 0.99)


def intervals(est, n, level, seed, draws):
    """The fit's bootstrap intervals at `level` from generator `seed`: (b, se, lower, upper)."""
    with Rng.seeded(seed) as rng:
        if getattr(est, "meat_", None) is not None and est.errors_ == "robust":
            r = adassp_sandwich_intervals(est.release_, est.meat_, rng, level, draws,
                                          est.meat_receipt_)
        else:
            r = adassp_bootstrap_intervals(est.release_, n, rng, level, draws)
    return (np.asarray(r.coefficients), np.asarray(r.std_errors), np.asarray(r.ci_lower),
            np.asarray(r.ci_upper))


def cell(args):
    c_y = ic.label_range(args.model, args.d)
    target = ic.truth(args.model, args.d, c_y)
    paths, rows = {}, []
    for r, _, _, est in default_fits(args, c_y, paths):
        if est.interval_method_ == "bootstrap":
            rows.append([intervals(est, args.n, lv, 10_000 + r, args.draws) for lv in LEVELS])
    return target, paths, rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for name, kind in (("--model", str), ("--n", int), ("--d", int), ("--eps", float)):
        ap.add_argument(name, type=kind, required=True)
    ap.add_argument("--fits", type=int, default=40)
    ap.add_argument("--draws", type=int, default=1999)
    args = ap.parse_args(argv)
    target, paths, rows = cell(args)
    print(f"{args.model} n = {args.n} d = {args.d} epsilon = {args.eps:g}, {args.fits} fits; "
          f"paths: {paths}; {len(rows)} bootstrap fits, {args.draws} worlds")
    if not rows:
        return 0
    print("| level | percentile coverage | basic coverage | median width |")
    print("| --- | --- | --- | --- |")
    for i, lv in enumerate(LEVELS):
        b = np.array([f[i][0] for f in rows])
        lo = np.array([f[i][2] for f in rows])
        hi = np.array([f[i][3] for f in rows])
        pc = np.mean((lo <= target) & (target <= hi))
        bc = np.mean((2 * b - hi <= target) & (target <= 2 * b - lo))
        print(f"| {lv:g} | {pc:.3f} | {bc:.3f} | {np.median(hi - lo):.3g} |")
    i95 = LEVELS.index(0.95)
    b = np.array([f[i95][0] for f in rows])
    se = np.array([f[i95][1] for f in rows])
    lo = np.array([f[i95][2] for f in rows])
    hi = np.array([f[i95][3] for f in rows])
    t = (b - target) / se
    flat = t.ravel()
    kurt = float(np.mean((flat - flat.mean()) ** 4) / np.var(flat) ** 2)
    print(f"studentised error t = (b - target) / se over {flat.size}: mean {flat.mean():.3f}, "
          f"sd {flat.std(ddof=1):.3f}, kurtosis {kurt:.2f}, share |t| > 1.96 "
          f"{np.mean(np.abs(flat) > 1.96):.3f}")
    print("per coefficient sd of t: " + " ".join(f"{v:.2f}" for v in t.std(axis=0, ddof=1)))
    offset = ((lo + hi) / 2 - b) / se
    ratio = (hi - lo) / 2 / (1.96 * se)
    print(f"worlds' offset (centre - b) / se: median {np.median(offset):.3f}, "
          f"quartiles {np.quantile(offset, 0.25):.3f} {np.quantile(offset, 0.75):.3f}")
    print(f"half width / (1.96 se): median {np.median(ratio):.3f}, "
          f"quartiles {np.quantile(ratio, 0.25):.3f} {np.quantile(ratio, 0.75):.3f}")
    spread = b.std(axis=0, ddof=1)
    print("estimate's sd over fits / median se, per coefficient: "
          + " ".join(f"{v:.2f}" for v in spread / np.median(se, axis=0)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
