"""The regression's dependence on the units of X: the same rows at another scale.

Usage (from the repository root, after building):
    DPCOV_LIBRARY=build/capi/libdpcov.so PYTHONPATH=bindings/python \\
        /usr/bin/python3 bench/unit_scale.py [--fits R] [--scales s,...] [--n N] [--eps E]

Each fit r draws Gaussian rows x (d = 3, columns N(0, 1) / 3 clipped to [-1, 1]) and
y = (x beta + 0.2 + N(0, 0.3^2)) / 2.5 clipped to [-1, 1] from data seed 10^6 + r, then fits
X s with bound sqrt(d) s (the same bound relative to the rows) at noise seed r. The fits are
on balanced rows [1, x sqrt(d) / B, y / B_y] (proofs/balanced_rows.md), so they give the same
coefficients (times 1 / s) at every s; before, the intercept's constant 1 weighed s^-2 as much
against the features at scale s (bench/results/unit_scale.md keeps that measurement). Printed
per scale, medians over the fits: the slopes' error
|b s - beta / 2.5| (AdaSSP, the default), the intercept's error, the share of fits with an
interval, and Analyze Gauss's released count under add/remove (its sd over the fits).
"""

import argparse
import warnings

import numpy as np

from dpcov.learn import PrivateLinearRegression

D = 3
BETA = np.array([1.0, -1.0, 1.0]) / np.sqrt(D)
INTERCEPT = 0.2 / 2.5


def rows(n, seed):
    gen = np.random.default_rng(seed)
    x = np.clip(gen.normal(size=(n, D)) / 3, -1, 1)
    y = np.clip((x @ BETA + 0.2 + 0.3 * gen.normal(size=n)) / 2.5, -1, 1)
    return x, y


def cell(scale, fits, n, epsilon):
    slope, intercept, printed, counts = [], [], [], []
    for r in range(fits):
        x, y = rows(n, 10**6 + r)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fit = PrivateLinearRegression(epsilon=epsilon, bound=np.sqrt(D) * scale,
                                          label_bound=1, random_state=r).fit(x * scale, y)
            gram = PrivateLinearRegression(
                epsilon=epsilon, bound=np.sqrt(D) * scale, label_bound=1, random_state=r,
                mechanism="analyze_gauss", mechanism_options={"neighbour": "add_remove"},
                intervals=False).fit(x * scale, y)
        slope.append(np.linalg.norm(fit.coef_ * scale - BETA / 2.5))
        intercept.append(abs(fit.intercept_ - INTERCEPT))
        printed.append(bool(np.isfinite(fit.conf_int_).all()))
        counts.append(gram.n_samples_)
    return (np.median(slope), np.median(intercept), np.mean(printed), np.mean(counts),
            np.std(counts))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fits", type=int, default=20)
    parser.add_argument("--scales", default="0.01,0.1,1,10,1000")
    parser.add_argument("--n", type=int, default=5000)
    parser.add_argument("--eps", type=float, default=1.0)
    args = parser.parse_args()
    print("| scale s | bound | slopes' error | intercept's error | fits with an interval | "
          "Analyze Gauss add/remove count: mean (sd) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for s in (float(v) for v in args.scales.split(",")):
        slope, intercept, printed, count, sd = cell(s, args.fits, args.n, args.eps)
        print(f"| {s:g} | {np.sqrt(D) * s:.3g} | {slope:.3f} | {intercept:.4f} | {printed:.2f} | "
              f"{count:.4g} ({sd:.3g}) |")


if __name__ == "__main__":
    main()
