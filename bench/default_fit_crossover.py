"""The crossover n of the default regression's fit, simulated, against the forecast it prints.

The default PrivateLinearRegression (AdaSSP, an intercept on top of the features' bound, robust
errors: the fit at its share of the budget) on R fits of n rows of p features of independent
signs (+-1, filling [-1, 1]^p) and a label of independent signs (the true coefficients 0). Per
fit, the slopes of the OLS fit of the released X'X~ and X'y~ (``release_``) against the exact OLS
fit: the sampling variance (exact) and the privacy variance (released minus exact) of a slope,
pooled over slopes and fits; the crossover is n times their ratio. Printed beside ``forecast_``
(what `dpcov regress` and `dpcov plan -m adassp --regress` print; docs/forecast.md, "With an
intercept").

Usage (from the repository root, after building):
    DPCOV_LIBRARY=build/capi/libdpcov.so PYTHONPATH=bindings/python OPENBLAS_NUM_THREADS=1 \\
        /usr/bin/python3 bench/default_fit_crossover.py [--n 1142,4568] [--p 3] [--eps 1] [--fits 150]
"""

from __future__ import annotations

import argparse
import math
import warnings

import numpy as np

import dpcov


def simulate(n: int, p: int, eps: float, fits: int):
    sampling, privacy, forecast = [], [], None
    for r in range(fits):
        gen = np.random.default_rng(10_000 + r)
        x = np.where(gen.random((n, p)) < 0.5, 1.0, -1.0)
        y = np.where(gen.random(n) < 0.5, 1.0, -1.0)
        est = dpcov.PrivateLinearRegression(epsilon=eps, delta=1e-6, bound=math.sqrt(p),
                                            label_bound=1.0, random_state=r, n_bootstrap=99)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est.fit(x, y)
        a = np.column_stack([np.ones(n), x])
        exact = np.linalg.solve(a.T @ a, a.T @ y)[1:]
        released = np.linalg.solve(est.release_.released_xtx, est.release_.released_xty)[1:]
        sampling += list(exact ** 2)
        privacy += list((released - exact) ** 2)
        forecast = est.forecast_
    return n * np.mean(privacy) / np.mean(sampling), forecast


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", default="1142,4568")
    parser.add_argument("--p", type=int, default=3)
    parser.add_argument("--eps", type=float, default=1.0)
    parser.add_argument("--fits", type=int, default=150)
    args = parser.parse_args(argv)
    for n in (int(v) for v in args.n.split(",")):
        simulated, forecast = simulate(n, args.p, args.eps, args.fits)
        print(f"n {n}: simulated crossover {simulated:.1f}, forecast_ {forecast.crossover_rows:.1f}"
              f" (ratio {simulated / forecast.crossover_rows:.3f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
