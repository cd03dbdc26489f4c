"""How often PrivatePCA's printed subspace bound holds against the user's data after a privately
chosen bound (bound="auto", which aims at the 0.999 quantile of the row norms), for the centred
and the uncentred form.

Usage (from the repository root, after building):
    DPCOV_LIBRARY=build/capi/libdpcov.so PYTHONPATH=bindings/python:bindings/python/tests \\
        /usr/bin/python3 bench/pca_auto_bound_coverage.py [--releases R] [--min-covered K]

Model and check as bindings/python/tests/test_pca_auto_bound.py (Student t rows with 3 degrees of
freedom, d = 5, n = 1e5, epsilon = 4, k = 2; each release against the top-2 subspace of the
exact covariance, or second moment, of the rows), R releases per form at fixed seeds. With
--min-covered K it exits 1 when a form covers fewer than K times. At R = 500, K = 490 (the long
suite): a method whose bound held in at most 95% of releases passes with probability at most
4.6e-4 (binomial), so a pass shows the rate is above 0.95; a method at 0.99 fails with
probability 0.013, at 0.999 with 7e-12.
"""

import argparse
import sys

from test_pca_auto_bound import _covered_count, _rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--releases", type=int, default=500)
    ap.add_argument("--min-covered", type=int, default=0)
    args = ap.parse_args(argv)
    X = _rows()
    failed = False
    for center, seed in ((True, 50), (False, 51)):
        covered = _covered_count(X, center, seed, args.releases)
        print(f"center={center}: bound held in {covered} of {args.releases} releases", flush=True)
        failed |= covered < args.min_covered
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
