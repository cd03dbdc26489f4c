"""The share of fits that print a noise-aware interval, at multiples of the forecast's
rows_for_intervals (what `dpcov plan` prints as "noise-aware intervals expected from n = ...").

Reference design (docs/forecast.md): every entry of a row an independent +-1 (fill 1), the true
coefficients 0, delta 1e-6. AdaSSP with y'y answers through ``adassp_intervals`` (the bootstrap,
the posterior where it refuses), without or with an intercept column inside the bound (the
design of `dpcov regress`: features in [-1, 1], bound_x^2 = 1 + p); a release of [x, y]
(analyze_gauss, laplace_sym) through ``ols_intervals`` (the homoscedastic bootstrap, unbounded
coefficients flagged). A fit prints when at least one coefficient gets an interval. The
statistical test ``rows_for_intervals`` checks two columns of this table at fixed seeds;
docs/forecast.md, "What rows_for_intervals means", records it.

Usage (from the repository root, after building):
    DPCOV_LIBRARY=build/capi/libdpcov.so PYTHONPATH=bindings/python OPENBLAS_NUM_THREADS=1 \\
        /usr/bin/python3 bench/rows_for_intervals.py [--mechanism adassp] [--p 3] [--eps 1] \\
        [--intercept] [--fits 40] [--times 0.5,0.6,0.7,0.8,1.0]
"""

from __future__ import annotations

import argparse

import numpy as np

import dpcov
from dpcov.adassp import adassp_intervals
from dpcov.errors import PreconditionError
from dpcov.ols import ols_intervals

DELTA = 1e-6


def adassp_cell(p: int, eps: float, intercept: bool):
    """The forecast n and a function that runs one fit at n and says whether it prints."""
    q = p + 1 if intercept else p
    bound_x = float(np.sqrt(q))
    plan = dpcov.adassp_plan(q, bound_x, 1.0, eps, DELTA, release_label_square=True)
    forecast = dpcov.regression_forecast(plan, n=1000, intercept=intercept).rows_for_intervals

    def prints(n: int, gen, rng) -> bool:
        columns = [gen.choice([-1.0, 1.0], size=(n, p + 1))]
        if intercept:
            columns.insert(0, np.ones((n, 1)))
        a = np.hstack(columns)
        fit = dpcov.adassp_fit(a.T @ a, q, list(range(q)), bound_x, 1.0, eps, DELTA, rng,
                               release_label_square=True)
        answer = adassp_intervals(fit, n, rng, intercept_column=0 if intercept else -1)
        return bool(answer.conclusive.any())

    return forecast, prints


def release_cell(mechanism: str, p: int, eps: float):
    d = p + 1
    bound = float(np.sqrt(d))
    forecast = dpcov.regression_forecast(dpcov.plan(mechanism, d, 1000, bound, eps, DELTA),
                                         n=1000).rows_for_intervals

    def prints(n: int, gen, rng) -> bool:
        a = gen.choice([-1.0, 1.0], size=(n, d))
        released = dpcov.release(mechanism, a.T @ a, n, bound, eps, DELTA, rng)
        try:
            answer = ols_intervals(released.matrix, released.receipt, p, list(range(p)), rng)
        except PreconditionError:
            return False
        return bool(np.asarray(answer.conclusive).any())

    return forecast, prints


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mechanism", default="adassp",
                        choices=["adassp", "analyze_gauss", "laplace_sym"])
    parser.add_argument("--p", type=int, default=3, help="regressors other than an intercept")
    parser.add_argument("--eps", type=float, default=1.0)
    parser.add_argument("--intercept", action="store_true", help="AdaSSP only")
    parser.add_argument("--fits", type=int, default=40)
    parser.add_argument("--times", default="0.5,0.6,0.7,0.8,1.0",
                        help="multiples of the forecast n")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    if args.mechanism == "adassp":
        forecast, prints = adassp_cell(args.p, args.eps, args.intercept)
    else:
        if args.intercept:
            parser.error("--intercept is for AdaSSP")
        forecast, prints = release_cell(args.mechanism, args.p, args.eps)
    gen = np.random.default_rng(args.seed)
    rng = dpcov.Rng(seed=args.seed + 4)
    print(f"{args.mechanism}, {args.p} regressors{' and an intercept' if args.intercept else ''}, "
          f"epsilon {args.eps}: forecast rows_for_intervals {forecast:.0f}")
    for times in (float(t) for t in args.times.split(",")):
        n = int(round(times * forecast))
        share = sum(prints(n, gen, rng) for _ in range(args.fits)) / args.fits
        print(f"  {times:.2f} of it (n = {n}): {share:.2f} of {args.fits} fits print")


if __name__ == "__main__":
    main()
