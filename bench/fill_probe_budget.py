"""What a private probe of the rows' fill would read and cost (docs/regression_intervals.md, "Not
built yet"; bench/results/interval_grid.md, "Small n: where the information goes").

The small-n split is decided at fill 1 because the fill is the data's. A probe would release the
balanced slopes' trace T = sum_i sum_j (x_ij sqrt(d) / B)^2 (each row adds between 0 and d, so
its sensitivity is d under either neighbour relation) with Gaussian noise at a share s of
(epsilon, delta), taken from the fit by basic composition as every other share of the default is.
This script prints, per cell (n, epsilon) and share, at the grid's Gaussian rows (columns
N(0, 1) / 3 under B = sqrt(d): fill E x_j^2 = 1/9, so E T = n d / 9):

- the probe's noise standard deviation (the library's analytic Gaussian calibration,
  `dpcov.plan("analyze_gauss", ...)`, at (s epsilon, s delta)) and E T over it;
- the factor on AdaSSP's noise from the fit at (1 - s) of its share (the robust default's 0.8);
- the factor that spending the meat's unspent share (0.2 of (epsilon, delta)) on a second release
  of X'X, X'y and y'y, merged with the first by inverse variance, would give where the posterior
  answers.

Usage: DPCOV_LIBRARY=build/capi/libdpcov.so PYTHONPATH=bindings/python \
    /usr/bin/python3 bench/fill_probe_budget.py
"""

from __future__ import annotations

import math

import dpcov

DELTA = 1e-6
DIMS = 3           # regressors besides the intercept
FIT_SHARE = 0.8    # the robust default's fit; the meat's 0.2 rest
FILL = 1.0 / 9.0   # the grid's Gaussian rows
CELLS = ((500, 1.0), (500, 4.0), (2000, 1.0))
SHARES = (0.03, 0.05, 0.1)


def noise_over_sensitivity(epsilon: float, delta: float) -> float:
    """The analytic Gaussian's sigma / sensitivity at (epsilon, delta)."""
    receipt = dpcov.plan("analyze_gauss", 1, 1, 1.0, epsilon, delta)
    return receipt.sigma / receipt.sensitivity


def adassp_noise(epsilon: float, delta: float, without_lambda_min: bool = False) -> float:
    """sigma of an off-diagonal entry of AdaSSP's X'X~ (balanced rows: bound sqrt(1 + d), label
    bound 1, y'y released) at (epsilon, delta)."""
    return dpcov.adassp_plan(DIMS + 1, math.sqrt(1 + DIMS), 1.0, epsilon, delta,
                             release_label_square=True,
                             without_lambda_min=without_lambda_min).sigma_gram_off_diagonal


def main() -> None:
    print("| n | epsilon | probe share | E T | probe sd | E T / sd | AdaSSP noise x |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for n, epsilon in CELLS:
        expected = n * DIMS * FILL
        fit = adassp_noise(FIT_SHARE * epsilon, FIT_SHARE * DELTA)
        for share in SHARES:
            sd = DIMS * noise_over_sensitivity(share * epsilon, share * DELTA)
            rest = adassp_noise((1 - share) * FIT_SHARE * epsilon, (1 - share) * FIT_SHARE * DELTA)
            print(f"| {n} | {epsilon:g} | {share:g} | {expected:.0f} | {sd:.0f} | "
                  f"{expected / sd:.2f} | {rest / fit:.3f} |")
    print()
    print("| epsilon | AdaSSP noise at 0.8 | meat's 0.2 as a second release | merged | factor |")
    print("| --- | --- | --- | --- | --- |")
    for epsilon in sorted({e for _, e in CELLS}):
        first = adassp_noise(FIT_SHARE * epsilon, FIT_SHARE * DELTA)
        second = adassp_noise((1 - FIT_SHARE) * epsilon, (1 - FIT_SHARE) * DELTA,
                              without_lambda_min=True)
        merged = (first ** -2 + second ** -2) ** -0.5
        print(f"| {epsilon:g} | {first:.2f} | {second:.2f} | {merged:.2f} | "
              f"{first / merged:.3f} |")


if __name__ == "__main__":
    main()
