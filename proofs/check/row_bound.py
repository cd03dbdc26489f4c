"""Checks the row-bound shaves (proofs/row_bound.md, core/data/row_bound.hpp) against mpmath at
60 digits, for every d in 1..3000, 3000 random d up to 2^40, and 2^40:

- within_shave(d) and clip_shave(d) are exactly 1 - (d + 16) 2^-53;
- a row kept whole has exact norm <= B: with m = d + 5 roundings on a term's path,
  g = m u / (1 - m u) and u = 2^-53, w = within_shave(d) satisfies
  w <= sqrt(1 - g) / ((1 + u)^(3/2) sqrt(1 + d 2^-1074 / 1e-280))   (sum of squares <= fl(fl(B w)^2)),
  w <= sqrt(1 - g) (1 - u) / ((1 + u) sqrt(1 + d 2^-1072))           (scaled norm <= fl(B w));
- a clipped row has norm <= B: c = clip_shave(d) satisfies c (1 + u)^3 / (sqrt(1 - g) (1 - u)) <= 1;
- the smallest row bound accepted is 2^-960, where the products f x_j that land in the subnormals
  (each rounded by up to 2^-1075) fit in the room the clip bound leaves: sqrt(d) 2^-1075 <=
  (1 - c (1 + u)^3 / (sqrt(1 - g) (1 - u))) B at B = 2^-961 (half the smallest: CoinPress's mean
  halves the bound for a row whose centring overflows);
- below it the claim fails: at B = 3 2^-1070 the row (2^-60, 2^-60) is clipped, in the library's
  double arithmetic, to a row of exact norm above B.

Usage: row_bound.py ROW_BOUND_VALUES (the tests/proofs/row_bound_values program)."""

import math
import random
import subprocess
import sys
from fractions import Fraction

import mpmath

mpmath.mp.dps = 60


def clipped_outside_at_tiny_bound():
    """The clip of core/data/row_bound.cpp (plain path) in Python's doubles, which round as the
    library's: B = 3 2^-1070, the row (2^-60, 2^-60), d = 2. True if the clipped row's exact norm
    is above B."""
    bound, x, d = 3 * 2.0**-1070, 2.0**-60, 2
    norm = math.sqrt(x * x + x * x)
    factor = (bound / norm) * (1 - (d + 16) * 2.0**-53)
    assert factor >= 2.0**-1022  # a normal factor: no subnormal shave
    y = factor * x
    return 2 * Fraction(y) ** 2 > Fraction(bound) ** 2


def main():
    rng = random.Random(20261124)
    dims = list(range(1, 3001)) + [rng.randint(3001, 2**40) for _ in range(3000)] + [2**40]
    text = "".join(f"{d}\n" for d in dims)
    out = subprocess.run([sys.argv[1]], input=text, capture_output=True, text=True, check=True)
    lines = out.stdout.split("\n")
    smallest = float.fromhex(lines.pop(0))
    u = mpmath.mpf(2) ** -53
    failures = 0
    if Fraction(smallest) != Fraction(1, 2**960):
        print(f"the smallest row bound is {smallest.hex()}, not 2^-960")
        failures += 1
    if not clipped_outside_at_tiny_bound():
        print("the row (2^-60, 2^-60) at B = 3 2^-1070 no longer clips outside B: revisit the range")
        failures += 1
    subnormal_room = mpmath.mpf(smallest) / 2  # B = 2^-961, the bound CoinPress's mean may halve to
    worst = None
    for d, line in zip(dims, lines):
        within_hex, clip_hex = line.split()
        within, clip = float.fromhex(within_hex), float.fromhex(clip_hex)
        exact = 1 - Fraction(d + 16, 2**53)
        m = d + 5
        g = m * u / (1 - m * u)
        root = mpmath.sqrt(1 - g)
        squared_limit = root / ((1 + u) ** 1.5 * mpmath.sqrt(1 + d * mpmath.mpf(2) ** -1074 / mpmath.mpf("1e-280")))
        scaled_limit = root * (1 - u) / ((1 + u) * mpmath.sqrt(1 + d * mpmath.mpf(2) ** -1072))
        clipped = mpmath.mpf(clip) * (1 + u) ** 3 / (root * (1 - u))
        subnormal = mpmath.sqrt(d) * mpmath.mpf(2) ** -1075
        ok = (Fraction(within) == exact and Fraction(clip) == exact
              and mpmath.mpf(within) <= squared_limit and mpmath.mpf(within) <= scaled_limit
              and clipped <= 1 and subnormal <= (1 - clipped) * subnormal_room)
        # The room left, in units of u: how far below the tighter limit the shave is.
        room = (min(squared_limit, scaled_limit) - mpmath.mpf(within)) / u
        if worst is None or room < worst[1]:
            worst = (d, room)
        if not ok:
            failures += 1
            if failures <= 10:
                print(f"d = {d}: within {within_hex}, clip {clip_hex}, room {mpmath.nstr(room, 8)} u")
    print(f"{len(dims)} values of d; least room of within_shave below its limit: "
          f"{mpmath.nstr(worst[1], 8)} u at d = {worst[0]}")
    if failures:
        print(f"{failures} failures")
        sys.exit(1)


if __name__ == "__main__":
    main()
