"""The released meat's own noise in the robust intervals (bench/results/interval_grid.md, "The
meat's noise").

Usage (from the repository root, after building):
    /usr/bin/python3 bench/meat_noise_coverage.py model
    DPCOV_LIBRARY=build/capi/libdpcov.so PYTHONPATH=bindings/python:bench OPENBLAS_NUM_THREADS=1 \\
        /usr/bin/python3 bench/meat_noise_coverage.py cell --model quadratic --mechanism analyze_gauss

model: one coefficient in units of its sampling variance v = 1. Its error is N(0, 1 + p), p the
privacy part; the meat estimates v as v^ = 1 + r xi (xi standard normal, r the meat noise's sd
over v). The worlds' sampling variance is drawn per world, their error is N(0, that + p), and the
interval is the worlds' percentile interval. Rules:
- plug-in: max(v^, 0) in every world;
- mixed: max(v^ + r xi_w, 0), a fresh xi_w per world (the library's worlds redraw the meat's
  noise);
- mixed + shift: max(v^ + r^2 / (tau^2 + r) + r xi_w, 0), tau^2 = max(v^, 0) + p. For small r the
  shift is the second-order term the mixture misses: with z the level's normal quantile, the
  mixture widens the interval by the factor 1 + (z^2 - 3) r^2 / (8 tau^4), while coverage needs
  1 + (1 + z^2) r^2 / (8 tau^4); a mean shift a widens it by 1 + a / (2 tau^2), so a = r^2 / tau^2,
  the same at every level. The + r in the denominator keeps the shift below r where v^ is small
  against its noise (the expansion's premise fails there; r^2 / tau^2 alone over-covers).
Prints the coverage of each rule over `--releases` releases (exact binomial standard error about
0.003 at 4000) per r, p and level.

cell: per fit of bench/interval_coverage.py's cell (data seed 10^6 + r, noise seed r), the printed
intervals against the non-private heteroscedasticity-consistent standard errors (HC0) of the same
rows: the coverage per coefficient, the median and spread of half width / (1.96 HC0), and that
ratio at the misses and at the hits.
"""

from __future__ import annotations

import argparse
import math

import numpy as np

LEVELS = (0.9, 0.95, 0.99)


def interval(rng, vhat, r, p, level, rule, worlds):
    """The worlds' percentile interval of one release."""
    xi = rng.standard_normal(worlds)
    shift = r * r / (max(vhat, 0.0) + p + r) if rule == "mixed + shift" else 0.0
    spread = 0.0 if rule == "plug-in" else r
    v = np.maximum(vhat + shift + spread * xi, 0.0)
    draws = rng.standard_normal(worlds) * np.sqrt(v + p)
    return np.quantile(draws, [(1 - level) / 2, (1 + level) / 2])


def model(args) -> None:
    rng = np.random.default_rng(args.seed)
    rules = ("plug-in", "mixed", "mixed + shift")
    print("| r | p | level | " + " | ".join(rules) + " |")
    print("| --- | --- | --- |" + " --- |" * len(rules))
    for r in (0.15, 0.3, 0.57, 1.0):
        for p in (0.1, 0.5, 2.0):
            for level in LEVELS:
                cover = []
                for rule in rules:
                    hits = 0
                    for _ in range(args.releases):
                        vhat = 1.0 + r * rng.standard_normal()
                        error = rng.standard_normal() * math.sqrt(1.0 + p)
                        lo, hi = interval(rng, vhat, r, p, level, rule, args.worlds)
                        hits += lo <= error <= hi
                    cover.append(hits / args.releases)
                print(f"| {r:g} | {p:g} | {level:g} | " + " | ".join(f"{c:.3f}" for c in cover)
                      + " |", flush=True)


def cell(args) -> None:
    import interval_coverage as ic

    c_y = ic.label_range(args.model, args.d)
    target = ic.truth(args.model, args.d, c_y)
    options = {} if args.mechanism == "adassp" else {"mechanism": args.mechanism}
    hits, ratios = [], []
    for r in range(args.first, args.first + args.fits):
        x, y = ic.mapped(args.model, args.n, args.d, np.random.default_rng(1_000_000 + r), c_y)
        a = np.column_stack([np.ones(len(y)), x])
        inverse = np.linalg.inv(a.T @ a)
        residual = y - a @ (inverse @ (a.T @ y))
        meat = (a * (residual ** 2)[:, None]).T @ a
        hc0 = np.sqrt(np.diag(inverse @ meat @ inverse))
        ci = ic.default_fit(args.model, args.n, args.d, args.eps, r, c_y, **options).conf_int_
        hits.append((ci[:, 0] <= target) & (target <= ci[:, 1]))
        ratios.append((ci[:, 1] - ci[:, 0]) / (2 * 1.96 * hc0))
    hits, ratios = np.array(hits), np.array(ratios)
    show = lambda v: "[" + ", ".join(f"{x:.3f}" for x in v) + "]"  # noqa: E731
    print(f"{args.model} n {args.n} d {args.d} epsilon {args.eps:g} {args.mechanism}, "
          f"{args.fits} fits (intercept first)")
    print("coverage                     ", show(hits.mean(axis=0)))
    print("half width / (1.96 HC0): median", show(np.median(ratios, axis=0)))
    print("                          sd  ", show(ratios.std(axis=0)))
    print("                          min ", show(ratios.min(axis=0)))
    print("  mean at the misses          ",
          show([ratios[~hits[:, j], j].mean() if (~hits[:, j]).any() else math.nan
                for j in range(hits.shape[1])]))
    print("  mean at the hits            ", show([ratios[hits[:, j], j].mean()
                                                  for j in range(hits.shape[1])]))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    m = sub.add_parser("model")
    m.add_argument("--releases", type=int, default=4000)
    m.add_argument("--worlds", type=int, default=999)
    m.add_argument("--seed", type=int, default=1)
    c = sub.add_parser("cell")
    c.add_argument("--model", default="quadratic")
    c.add_argument("--mechanism", default="analyze_gauss")
    c.add_argument("--n", type=int, default=50000)
    c.add_argument("--d", type=int, default=3)
    c.add_argument("--eps", type=float, default=4.0)
    c.add_argument("--fits", type=int, default=200)
    c.add_argument("--first", type=int, default=0)
    args = ap.parse_args(argv)
    (model if args.command == "model" else cell)(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
