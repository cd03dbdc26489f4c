"""The intervals `dpcov regress` prints after `dpcov release --bound auto`: coverage of the user's
(unclipped) coefficients, against a release at a public bound that clips nothing.

Usage (from the repository root, after building):
    DPCOV_LIBRARY=build/capi/libdpcov.so PYTHONPATH=bindings/python:bench \\
        /usr/bin/python3 bench/auto_bound_regression_coverage.py [FITS]

What the CLI runs, through the same library calls: `release --bound auto` spends a tenth of
epsilon on a bound near the 0.95 quantile of the norms of the rows [x, y] (sparse vector scan
over the public grid 1e-6 * 1.25^k, `choose_bound`), clips the rows to it and releases their Gram
matrix by Analyze Gauss with the rest; `regress` reads the noise-aware intervals of the OLS
coefficients of y on x from it (`ols_bootstrap_intervals`, the homoscedastic bootstrap; 199
worlds here). The public-bound release spends all of epsilon at B = 6 sqrt(d + 1), above every
row drawn here. Model: x ~ N(0, I_3), y = x' (0.5, -0.3, 0.2) + N(0, 1): Gaussian, homoscedastic,
no intercept (the bootstrap's own model, so what is measured is the clipping alone). The target is
beta. Fit r draws its data from seed 10^6 + r and its noise from seed r; delta = 1e-6; 95%
intervals. Coverage pools the three coefficients of the fits that print one; its sampling error
is about sqrt(0.95 * 0.05 / (3 FITS)).
"""

from __future__ import annotations

import sys

import numpy as np

import dpcov
from dpcov.private_bound import choose_bound

BETA = np.array([0.5, -0.3, 0.2])


def fit(rows, bound, eps, rng):
    """The homoscedastic bootstrap intervals of a release of `rows` clipped at `bound`."""
    d = rows.shape[1]
    with dpcov.GramAccumulator(d) as gram:
        gram.add_rows(rows, bound, "clip")
        released, receipt = gram.release("analyze_gauss", eps, 1e-6, rng)
    out = dpcov.ols_bootstrap_intervals(released, receipt, d - 1, np.arange(d - 1), rng,
                                        num_bootstrap=199)
    return np.column_stack([out.ci_lower, out.ci_upper])


def main(argv) -> int:
    fits = int(argv[0]) if argv else 100
    print("| n | epsilon | bound | share with an interval | coverage of beta | worst coefficient "
          "| median width | median B |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for n in (2000, 10000, 50000):
        for eps in (1.0, 4.0):
            for rule in ("auto (0.95 quantile)", "public 6 sqrt(d + 1)"):
                hits, shown, widths, bounds, printed = np.zeros(3), np.zeros(3), [], [], 0
                for r in range(fits):
                    gen = np.random.default_rng(1_000_000 + r)
                    x = gen.standard_normal((n, 3))
                    rows = np.column_stack([x, x @ BETA + gen.standard_normal(n)])
                    rng = dpcov.Rng(r)
                    if rule.startswith("auto"):
                        bound = choose_bound(rows, 0.1 * eps, rng, quantile=0.95, lo=1e-6,
                                             hi=1e9)
                        spend = 0.9 * eps
                    else:
                        bound, spend = 6.0 * np.sqrt(4.0), eps
                    bounds.append(bound)
                    try:
                        ci = fit(rows, bound, spend, rng)
                    except dpcov.PreconditionError:
                        continue
                    printed += 1
                    hits += (ci[:, 0] <= BETA) & (BETA <= ci[:, 1])
                    shown += 1
                    widths.extend(ci[:, 1] - ci[:, 0])
                cov = hits.sum() / shown.sum() if shown.sum() else float("nan")
                worst = (hits / shown).min() if shown.min() else float("nan")
                print(f"| {n} | {eps:g} | {rule} | {printed / fits:.2f} | {cov:.3f} | "
                      f"{worst:.3f} | {np.median(widths) if widths else float('nan'):.3g} | "
                      f"{np.median(bounds):.3g} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
