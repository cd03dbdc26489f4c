"""Coverage of `dpcov regress FILE --epsilon E -m MECHANISM` (the CLI's Gram regression, robust
intervals by default) over a model of bench/interval_coverage.py, fit r with --noise-seed r on
the data that script's fit r reads (seed 10^6 + r), so that its figures are those of Python's
PrivateLinearRegression(mechanism=MECHANISM) on the same fits (the two agree byte for byte for
analyze_gauss and laplace_sym: tests/cli/regress_gram_test.py).

Usage (from the repository root, after building the library and the command):
    DPCOV_LIBRARY=build/capi/libdpcov.so PYTHONPATH=bindings/python:bench nice -n 10 \\
        /usr/bin/python3 bench/cli_gram_coverage.py [--fits 40] [--model hetero] [--n 10000]
        [--d 3] [--eps 4] [--mechanism analyze_gauss] [--dpcov build/cli/dpcov]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

import interval_coverage as ic


def cli_intervals(dpcov: str, path: str, args, r: int) -> np.ndarray:
    """The [lower, upper] rows the command prints for fit r (NaN where it prints none)."""
    out = subprocess.run(
        [dpcov, "regress", path, "--label", "y", "--epsilon", str(args.eps), "--delta", "1e-6",
         "--bound", repr(math.sqrt(args.d)), "--label-bound", "1", "-m", args.mechanism,
         "--noise-seed", str(r), "--quiet", "--json"],
        capture_output=True, check=True)
    rows = json.loads(out.stdout)["coefficients"]
    return np.array([[row["noise_aware"]["ci_lower"], row["noise_aware"]["ci_upper"]]
                     if "noise_aware" in row else [math.nan, math.nan] for row in rows])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fits", type=int, default=40)
    parser.add_argument("--model", default="hetero", choices=ic.MODELS)
    parser.add_argument("--n", type=int, default=10000)
    parser.add_argument("--d", type=int, default=3)
    parser.add_argument("--eps", type=float, default=4.0)
    parser.add_argument("--mechanism", default="analyze_gauss")
    parser.add_argument("--dpcov", default=os.path.join("build", "cli", "dpcov"))
    args = parser.parse_args(argv)
    c_y = ic.label_range(args.model, args.d)
    tally = ic.Tally(ic.truth(args.model, args.d, c_y))
    header = ",".join([f"x{j}" for j in range(1, args.d + 1)] + ["y"])
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "fit.csv")
        for r in range(args.fits):
            x, y = ic.mapped(args.model, args.n, args.d, np.random.default_rng(1_000_000 + r), c_y)
            np.savetxt(path, np.column_stack([x, y]), delimiter=",", header=header, comments="",
                       fmt="%.17g")
            tally.add(cli_intervals(args.dpcov, path, args, r))
    print(f"{args.model} n={args.n} d={args.d} eps={args.eps:g} {args.mechanism}: "
          f"share {tally.printed / tally.fits:.2f}, coverage {tally.coverage():.3f} "
          f"({tally.counted} intervals), worst coefficient {tally.worst():.3f}, "
          f"median width {tally.median_width():.3g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
