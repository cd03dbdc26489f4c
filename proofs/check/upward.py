"""Checks the directed rounding of core/privacy/upward.hpp, on which every privacy constant's
safe side rests, with exact rational arithmetic (fractions) and mpmath at 60 digits for the
logarithm and expm1, at random points over the whole range of the doubles and concentrated where
the last session found errors: results below 2^-969, where the fma's residual can round to 0
(upward.hpp then moves every result one ulp), and subnormal operands.

Usage: upward.py <upward_values program> [POINTS SEED]
For positive finite a, b: mul_up(a, b) >= a b >= mul_down(a, b), div_up(a, b) >= a / b >=
div_down(a, b), add_up(a, b) >= a + b >= add_down(a, b), sqrt_up(a)^2 >= a >= sqrt_down(a)^2,
2 half_down(a) <= a, ceil_quotient_up(a, b) an integer with ceil_quotient_up(a, b) b >= a,
log_up(a) >= ln a, log_inverse_up(a) >= -ln a (a <= 1), expm1_up(b) >= e^b - 1 (b <= 700): never
on the unsafe side, not by one ulp; and each within 2 ulps (2 steps of 2^-1074 in the
subnormals) of the exact value, so that none is loose either (a lower bound of a result
above DBL_MAX is DBL_MAX). A result that overflows is
infinite on the upper side only. 2000 points by default, 100000 in the long suite.
"""
import math
import random
import subprocess
import sys
from fractions import Fraction as F

from mpmath import expm1, log, mp, mpf

from receipts import Checker

mp.dps = 60

STEP = math.ldexp(1.0, -1074)
DBL_MAX = sys.float_info.max


def ulp(x):
    return math.ulp(x) if x != 0 else STEP


def random_double(rng):
    kind = rng.randrange(4)
    if kind == 0:  # a subnormal
        return rng.randint(1, (1 << 52) - 1) * STEP
    if kind == 1:  # near 2^-969 .. 2^-480 (products and roots that end below 2^-969)
        return math.ldexp(rng.uniform(1.0, 2.0), rng.randint(-1022, -480))
    if kind == 2:  # anywhere
        return math.ldexp(rng.uniform(1.0, 2.0), rng.randint(-1074, 1023))
    return math.ldexp(rng.randint(1, 1 << 20), rng.randint(-1074, -1000))  # few bits, exact cases


def main(program, points, seed):
    rng = random.Random(seed)
    cases = [(math.ldexp(1.0, -500) * (1 + 2 ** -52), math.ldexp(1.0, -500) * (1 + 2 ** -52)),
             (78 * STEP, 2.0), (3 * STEP, 1.0), (STEP, STEP), (DBL_MAX, 2.0), (1.0, 3.0)]
    cases += [(random_double(rng), random_double(rng)) for _ in range(points)]
    text = "".join(f"{a.hex()} {b.hex()}\n" for a, b in cases)
    out = subprocess.run([program], input=text, capture_output=True, text=True, check=True)
    lines = out.stdout.strip().split("\n")
    assert len(lines) == len(cases)
    c = Checker("upward")

    def check(name, up, value, exact, what):
        """value on the safe side of exact (above if up), within 2 ulps (or infinite above)."""
        if math.isinf(value):
            c.ok(up and value > 0, f"{name} infinite on the wrong side {what}")
            return
        v = F(value)
        c.ok(v >= exact if up else v <= exact, f"{name} = {value.hex()} on the unsafe side {what}")
        if exact <= F(DBL_MAX):  # a lower bound of a result above DBL_MAX can only be DBL_MAX
            c.ok(abs(v - exact) <= 2 * F(ulp(value)), f"{name} = {value.hex()} loose {what}")

    for (a, b), line in zip(cases, lines):
        r = [float.fromhex(t) for t in line.split()]
        what = f"a={a.hex()} b={b.hex()}"
        fa, fb = F(a), F(b)
        check("mul_up", True, r[0], fa * fb, what)
        check("mul_down", False, r[1], fa * fb, what)
        check("div_up", True, r[2], fa / fb, what)
        check("div_down", False, r[3], fa / fb, what)
        check("add_up", True, r[4], fa + fb, what)
        check("add_down", False, r[5], fa + fb, what)
        c.ok(F(r[6]) ** 2 >= fa and (F(r[6]) - 2 * F(ulp(r[6]))) ** 2 < fa,
             f"sqrt_up = {r[6].hex()} {what}")
        c.ok(F(r[7]) ** 2 <= fa and (F(r[7]) + 2 * F(ulp(r[7]))) ** 2 > fa,
             f"sqrt_down = {r[7].hex()} {what}")
        c.ok(2 * F(r[8]) <= fa and 2 * (F(r[8]) + F(STEP)) > fa, f"half_down = {r[8].hex()} {what}")
        q = r[9]
        if not math.isinf(q):
            c.ok(q == math.floor(q) and F(q) * fb >= fa, f"ceil_quotient_up = {q!r} {what}")
            c.ok(F(q) * fb < fa + 2 * fb + 2 * F(ulp(q)) * fb, f"ceil_quotient_up = {q!r} loose {what}")
        exact = log(mpf(a))
        c.ok(mpf(r[10]) >= exact and mpf(r[10]) - exact <= 3 * ulp(r[10]),
             f"log_up = {r[10].hex()} {what}")
        if a <= 1.0:
            exact = -log(mpf(a))
            c.ok(mpf(r[11]) >= exact and mpf(r[11]) - exact <= 3 * ulp(r[11]),
                 f"log_inverse_up = {r[11].hex()} {what}")
        if b <= 700.0:
            exact = expm1(mpf(b))
            c.ok(mpf(r[12]) >= exact and mpf(r[12]) - exact <= 3 * ulp(r[12]),
                 f"expm1_up = {r[12].hex()} {what}")
    c.exit()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 2000,
         int(sys.argv[3]) if len(sys.argv) > 3 else 1)
