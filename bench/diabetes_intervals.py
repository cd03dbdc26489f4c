"""The default regression on the diabetes data: test R^2 and the coverage of OLS's full-data
coefficients by the printed 95% intervals.

Usage (from the repository root, after building):
    DPCOV_LIBRARY=build/capi/libdpcov.so PYTHONPATH=bindings/python:bench \\
        /usr/bin/python3 bench/diabetes_intervals.py [SPLITS] [--mechanisms adassp,analyze_gauss]
        [--option key=value ...]

Data as bench/adassp_regression.py (442 rows, ten regressors and the label mapped to [-1, 1] by
the public ranges of data/diabetes_bounds.csv: ||x|| <= sqrt(10), |y| <= 1). Split r (seed r)
fits dpcov.PrivateLinearRegression(bound=sqrt(10), label_bound=1, random_state=1000 + r) with its
defaults and each mechanism of --mechanisms (default adassp) on 80% of the rows at epsilon in
{0.5, 1, 2, 4}, delta = 1e-6, and reports the median test R^2 on the other 20% (a fit that
refuses, a Gram mechanism's release whose feature block is not positive definite, counts as 0 and
as no interval), the share of fits that print an interval, and the coverage of the eleven OLS
coefficients of the full data (intercept included) by the printed intervals. The
target is the full-data fit because the rows are a sample of a population whose coefficients
are unknown; the training rows are 80% of those, so the coverage is that of a nearby target.
"""

from __future__ import annotations

import sys
import warnings

import numpy as np

import dpcov
from adassp_regression import load_diabetes, ols, r2
from interval_coverage import Tally, estimator_options


def fit_split(mechanism, eps, r, train, X, y, options):
    """The fit of split r, or None where it refuses (a Gram mechanism's release whose feature
    block is not positive definite: NaN coefficients, counted as test R^2 = 0)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est = dpcov.PrivateLinearRegression(
            epsilon=eps, delta=1e-6, bound=np.sqrt(10), label_bound=1.0, mechanism=mechanism,
            random_state=1000 + r, **options).fit(X[train], y[train])
    return None if np.isnan(est.params_).any() else est


def main(argv) -> int:
    splits = int(argv[0]) if argv and not argv[0].startswith("--") else 20
    options = estimator_options(argv[i + 1] for i, a in enumerate(argv) if a == "--option")
    mechanisms = next((argv[i + 1] for i, a in enumerate(argv) if a == "--mechanisms"),
                      "adassp").split(",")
    X, y = load_diabetes()
    target = ols(X, y)
    print("| mechanism | epsilon | median test R^2 | fits refused | share with an interval "
          "| coverage of OLS (full data) | median width | errors |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for mechanism in mechanisms:
        for eps in (0.5, 1.0, 2.0, 4.0):
            scores, tally, refused, errors = [], Tally(target), 0, set()
            for r in range(splits):
                order = np.random.default_rng(r).permutation(len(y))
                train, test = order[:353], order[353:]
                est = fit_split(mechanism, eps, r, train, X, y, options)
                if est is None:
                    refused += 1
                    scores.append(0.0)
                    tally.add(np.full((len(target), 2), np.nan))
                    continue
                errors.add(est.errors_)
                scores.append(r2(est.params_, X[test], y[test]))
                tally.add(est.conf_int_)
            print(f"| {mechanism} | {eps:g} | {np.median(scores):.3f} | {refused / splits:.2f} | "
                  f"{tally.printed / splits:.2f} | {tally.coverage():.3f} | "
                  f"{tally.median_width():.3g} | {'/'.join(sorted(errors)) or '-'} |", flush=True)
    test_r2 = [r2(ols(X[o[:353]], y[o[:353]]), X[o[353:]], y[o[353:]])
               for o in (np.random.default_rng(r).permutation(len(y)) for r in range(splits))]
    print(f"non-private OLS: R^2 on the full data {r2(target, X, y):.3f}, median test R^2 "
          f"(trained on each split) {np.median(test_r2):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
