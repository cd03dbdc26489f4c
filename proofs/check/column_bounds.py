"""Checks the norm bound of scaled rows (proofs/column_bounds.md, core/data/box_norm_bound.hpp)
against mpmath at 50 digits: for every d in 1..3000 and 3000 random d up to 46339, B is the
smallest double whose row-bound limit fl(fl(B w)^2), w = 1 - (d + 17) 2^-53 (core/data/row_bound.hpp,
within_limit_squared), is >= d + 1, so that a scaled row is never clipped; B >= sqrt(d + 1) and
B <= sqrt(d + 1) (1 + (d + 41) 2^-53).

Usage: column_bounds.py BOX_NORM_BOUND_VALUES (the tests/proofs/box_norm_bound_values program)."""

import math
import random
import subprocess
import sys

import mpmath

mpmath.mp.dps = 50


def main():
    rng = random.Random(20261124)
    dims = list(range(1, 3001)) + [rng.randint(3001, 46339) for _ in range(3000)] + [46339]
    text = "".join(f"{d}\n" for d in dims)
    out = subprocess.run([sys.argv[1]], input=text, capture_output=True, text=True, check=True)
    lines = out.stdout.split("\n")
    failures = 0
    for d, line in zip(dims, lines):
        bound_hex, squared_hex = line.split()
        bound, squared = float.fromhex(bound_hex), float.fromhex(squared_hex)
        root = mpmath.sqrt(d + 1)
        below = math.nextafter(bound, 0.0)
        # The accumulator's limit (core/data/row_bound.hpp, within_limit_squared) in the same
        # double arithmetic: Python's floats round as C's doubles do.
        m = d + 1
        shave = 1.0 - (m + 16) * 2.0**-53
        limit = (bound * shave) * (bound * shave)
        limit_below = (below * shave) * (below * shave)
        loose = mpmath.mpf(bound) / root - 1 > (m + 40) * mpmath.mpf(2) ** -53
        if not (mpmath.mpf(bound) >= root and limit >= m and limit_below < m and not loose
                and squared >= m):
            failures += 1
            print(f"d = {d}: B = {bound!r}, B*B = {squared!r}, sqrt(d+1) = {mpmath.nstr(root, 25)}")
    assert len(lines) >= len(dims)
    print(f"{len(dims)} dimensions, {failures} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
