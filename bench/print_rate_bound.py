"""An upper bound on how often ANY valid confidence interval for a slope can be bounded, given
the default AdaSSP release, on bench/interval_coverage.py's models (proofs/adassp_posterior.md,
"How often any valid interval can be bounded").

Usage (from the repository root, after building):
    DPCOV_LIBRARY=build/capi/libdpcov.so PYTHONPATH=bindings/python:bench \\
        /usr/bin/python3 bench/print_rate_bound.py [--fits 40] [--models gaussian,binary] \\
        [--n 500,2000] [--d 3] [--eps 1,4]

For data D = (X, y) and slope j, let D_0 be D with column j of X set to 0. A procedure whose
interval for the slope covers the least-squares coefficient with probability at least
1 - alpha at every data set within the bounds gives a bounded interval on D_0's release with
probability at most alpha; so on D's release with probability at most the power of the most
powerful level-alpha test of D_0 against D, Phi(Delta_j - z_{1 - alpha}), Delta_j the
Mahalanobis distance between the two releases' means under the release's noise. Per cell: the
noise scales of the default fit's receipt (fit 0), then over the fits' data sets (data seed
10^6 + r, as the grid) the mean of that bound over the slopes and over the fits, at
alpha = 0.05 (the nominal level) and 0.07 (the band's lower edge, 0.93), and at alpha = 0.05 for
the release with X'X and X'y alone at the whole budget (noise / 1.76, no lambda_min: the most
any split of the same budget gives, proofs/adassp_posterior.md), and the median Delta_j.
"""

from __future__ import annotations

import argparse
import math
import sys

import numpy as np
from scipy.stats import norm

import interval_coverage as ic

BEST_SPLIT = 1.76  # X'X and X'y alone at the whole budget against the robust default's release


def distances(a: np.ndarray, y: np.ndarray, rec, scale: float = 1.0,
              with_lambda: bool = True) -> np.ndarray:
    """Delta_j for every slope j: the means of D's and D_0's releases differ in column j of
    X'X (the diagonal entry and the free entries above it), in X'y_j and in lambda_min."""
    g = a.T @ a
    u = a.T @ y
    lam = float(np.linalg.eigvalsh(g)[0]) if with_lambda and rec.lambda_min_released else 0.0
    out = []
    for j in range(1, a.shape[1]):
        off = np.delete(g[:, j], j)
        d2 = (g[j, j] / rec.sigma_gram) ** 2 + float(np.sum((off / rec.sigma_gram_off_diagonal)
                                                              ** 2))
        d2 += (u[j] / rec.sigma_cross) ** 2
        if lam > 0.0:
            d2 += (lam / rec.sigma_lambda_min) ** 2
        out.append(scale * math.sqrt(d2))
    return np.array(out)


def cell(model: str, n: int, d: int, eps: float, fits: int, c_y: float) -> dict:
    rec = ic.default_fit(model, n, d, eps, 0, c_y).receipt_
    nominal, edge, best, deltas = [], [], [], []
    for r in range(fits):
        x, y = ic.mapped(model, n, d, np.random.default_rng(1_000_000 + r), c_y)
        a = np.column_stack([np.ones(n), x])
        delta = distances(a, y, rec)
        nominal.extend(norm.cdf(delta - norm.ppf(0.95)))
        edge.extend(norm.cdf(delta - norm.ppf(0.93)))
        best.extend(norm.cdf(distances(a, y, rec, BEST_SPLIT, False) - norm.ppf(0.95)))
        deltas.extend(delta)
    return {"nominal": float(np.mean(nominal)), "edge": float(np.mean(edge)),
            "best": float(np.mean(best)), "delta": float(np.median(deltas)),
            "lambda": bool(rec.lambda_min_released)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fits", type=int, default=40)
    ap.add_argument("--models", default="gaussian,hetero,heavy,ar1,binary")
    ap.add_argument("--n", default="500,2000")
    ap.add_argument("--d", default="3")
    ap.add_argument("--eps", default="0.5,1,4")
    args = ap.parse_args(argv)
    print("| model | n | d | epsilon | median Delta_j | bound at 0.95 | at 0.93 "
          "| at 0.95, best split | lambda_min released |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for d in map(int, args.d.split(",")):
        for model in args.models.split(","):
            c_y = ic.label_range(model, d)
            for n in map(int, args.n.split(",")):
                for eps in map(float, args.eps.split(",")):
                    c = cell(model, n, d, eps, args.fits, c_y)
                    print(f"| {model} | {n} | {d} | {eps:g} | {c['delta']:.2f} | "
                          f"{c['nominal']:.2f} | {c['edge']:.2f} | {c['best']:.2f} | "
                          f"{'yes' if c['lambda'] else 'no'} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
