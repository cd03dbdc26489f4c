"""The default regression on the diabetes data: test R^2 and the coverage of OLS's full-data
coefficients by the printed 95% intervals.

Usage (from the repository root, after building):
    DPCOV_LIBRARY=build/capi/libdpcov.so PYTHONPATH=bindings/python \\
        /usr/bin/python3 bench/diabetes_intervals.py [SPLITS] [--option key=value ...]

Data as bench/adassp_regression.py (442 rows, ten regressors and the label mapped to [-1, 1] by
the public ranges of data/diabetes_bounds.csv: ||x|| <= sqrt(10), |y| <= 1). Split r (seed r)
fits dpcov.PrivateLinearRegression(bound=sqrt(10), label_bound=1, random_state=1000 + r) with its
defaults on 80% of the rows at epsilon in {0.5, 1, 2, 4}, delta = 1e-6, and reports the median
test R^2 on the other 20%, the share of fits that print an interval, and the coverage of the
eleven OLS coefficients of the full data (intercept included) by the printed intervals. The
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


def main(argv) -> int:
    splits = int(argv[0]) if argv and not argv[0].startswith("--") else 20
    options = estimator_options(argv[i + 1] for i, a in enumerate(argv) if a == "--option")
    X, y = load_diabetes()
    target = ols(X, y)
    print("| epsilon | median test R^2 | share with an interval | coverage of OLS (full data) "
          "| median width |")
    print("| --- | --- | --- | --- | --- |")
    for eps in (0.5, 1.0, 2.0, 4.0):
        scores, tally = [], Tally(target)
        for r in range(splits):
            order = np.random.default_rng(r).permutation(len(y))
            train, test = order[:353], order[353:]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                est = dpcov.PrivateLinearRegression(epsilon=eps, delta=1e-6, bound=np.sqrt(10),
                                                    label_bound=1.0, random_state=1000 + r,
                                                    **options).fit(X[train], y[train])
            scores.append(r2(est.params_, X[test], y[test]))
            tally.add(est.conf_int_)
        print(f"| {eps:g} | {np.median(scores):.3f} | {tally.printed / splits:.2f} | "
              f"{tally.coverage():.3f} | {tally.median_width():.3g} |", flush=True)
    print(f"non-private OLS on the full data: R^2 {r2(target, X, y):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
