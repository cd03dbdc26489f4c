"""The private bound's two rules on raw data: where the chosen B lands relative to the target
quantile of the row norms (issue 16; proofs/private_bound.md, "The scan").

Usage (from the repository root, after building):
    DPCOV_LIBRARY=build/capi/libdpcov.so PYTHONPATH=bindings/python \\
        /usr/bin/python3 bench/private_bound_choice.py [SEEDS]

For each data set, each epsilon in {1, 4} with the default bound share (a tenth: eps_B 0.1 and
0.4), each rule (exponential: dpcov_private_bound_select; scan: dpcov_private_bound_scan) and
seeds 0..SEEDS-1 (default 200), B is chosen as `dpcov release --bound auto` and
`PrivateCovariance(bound="auto")` choose it: the grid 1e-6 to 1e9 at ratio 1.25 (156 candidates),
target floor(0.05 n) rows above B (the 0.95 quantile, replace-one). The table gives quantiles of
B / q, q the exact 0.95 quantile of the row norms, and the share of seeds with B in [0.8 q, 2 q]
and above 10 q. Data: data/diabetes.csv raw (442 rows, 11 columns in their own units) and a
mixed-scale file of 20000 rows generated as tests/cli/raw_workflow_test.py generates its
block (four columns uniform on [-s, s], s = 1e-3, 1, 1e3, 1e6, and a label), seed 16.
A second table sweeps n: one column N(300, 40^2) (seed 0), n in {50, 100, 200, 442, 2000}, the
share of seeds with B in [0.8 q, 2 q], below 0.5 q (the scan stopped below the data) and above
10 q. Prints Markdown tables.
"""

import sys
from pathlib import Path

import numpy as np

import dpcov
from dpcov import private_bound

ROOT = Path(__file__).resolve().parents[1]
SCALES = np.array([1e-3, 1.0, 1e3, 1e6])
SLOPES = np.array([2e3, -3.0, 5e-3, 1e-6])


def mixed_scale(rows=20000, seed=16):
    gen = np.random.default_rng(seed)
    block = gen.uniform(-1, 1, size=(rows, 4)) * SCALES
    return np.column_stack([block, block @ SLOPES + gen.normal(0, 0.5, rows)])


def ratios(x, epsilon, rule, seeds):
    """B / q over seeds 0..seeds-1, as --bound auto chooses B at the default share."""
    q = np.quantile(np.linalg.norm(x, axis=1), 0.95)
    return np.array([private_bound.choose_bound(x, 0.1 * epsilon, dpcov.Rng(seed=s), quantile=0.95,
                                                lo=1e-6, hi=1e9, rule=rule) / q
                     for s in range(seeds)])


def sweep(seeds):
    print("\n| n | epsilon (eps_B) | rule | in [0.8q, 2q] | below 0.5q | above 10q |")
    print("|---|---|---|---|---|---|")
    gen = np.random.default_rng(0)
    for n in (50, 100, 200, 442, 2000):
        x = gen.normal(300.0, 40.0, size=(n, 1))
        for epsilon in (1.0, 4.0):
            for rule in ("exponential", "scan"):
                r = ratios(x, epsilon, rule, seeds)
                print(f"| {n} | {epsilon:g} ({0.1 * epsilon:g}) | {rule} | "
                      f"{np.mean((r >= 0.8) & (r <= 2.0)):.2f} | {np.mean(r < 0.5):.2f} | "
                      f"{np.mean(r > 10):.2f} |")


def main():
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    data = {"diabetes (raw, n = 442)": np.genfromtxt(ROOT / "data" / "diabetes.csv",
                                                     delimiter=",", skip_header=1),
            "mixed scales (n = 20000)": mixed_scale()}
    print("| data | epsilon (eps_B) | rule | B/q: 10% | 25% | 50% | 75% | 90% | in [0.8q, 2q] "
          "| above 10q |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, x in data.items():
        q = np.quantile(np.linalg.norm(x, axis=1), 0.95)
        for epsilon in (1.0, 4.0):
            for rule in ("exponential", "scan"):
                r = ratios(x, epsilon, rule, seeds)
                cuts = np.quantile(r, [0.1, 0.25, 0.5, 0.75, 0.9])
                near = np.mean((r >= 0.8) & (r <= 2.0))
                print(f"| {name}, q = {q:.4g} | {epsilon:g} ({0.1 * epsilon:g}) | {rule} | "
                      + " | ".join(f"{c:.3g}" for c in cuts)
                      + f" | {near:.2f} | {np.mean(r > 10):.2f} |")
    sweep(seeds)


if __name__ == "__main__":
    main()
