"""Checks the budget ledger's zCDP constants (proofs/ledger.md, core/privacy/zcdp.hpp) against
mpmath at 50 digits over random parameter points: each is on the privacy-safe side of the exact
value (rho of a release and the epsilon of a total rho up, the rho cap down) and within 8 ulps.

Usage: ledger.py ZCDP_VALUES (the tests/proofs/zcdp_values program)."""

import random
import subprocess
import sys

import mpmath

mpmath.mp.dps = 50


def exact(sensitivity, sigma, epsilon, rho, delta):
    s, g, e, r, d = map(mpmath.mpf, (sensitivity, sigma, epsilon, rho, delta))
    L = mpmath.log(1 / d)
    return (s * s / (2 * g * g), e * e / 2, r + 2 * mpmath.sqrt(r * L),
            (mpmath.sqrt(L + e) - mpmath.sqrt(L)) ** 2)


def main():
    rng = random.Random(20261123)
    cases = []
    for _ in range(2000):
        cases.append((10 ** rng.uniform(-3, 3), 10 ** rng.uniform(-3, 4), 10 ** rng.uniform(-3, 1.5),
                      10 ** rng.uniform(-6, 2), 10 ** rng.uniform(-15, -1)))
    text = "".join(" ".join(repr(x) for x in c) + "\n" for c in cases)
    out = subprocess.run([sys.argv[1]], input=text, capture_output=True, text=True, check=True)
    lines = out.stdout.split("\n")
    failures = 0
    for case, line in zip(cases, lines):
        got = [float.fromhex(v) for v in line.split()]
        want = exact(*case)
        # (value, exact, direction): +1 must be >= exact, -1 must be <= exact.
        for name, value, truth, side in zip(("rho_gaussian", "rho_pure", "zcdp_epsilon",
                                             "rho_cap"), got, want, (1, 1, 1, -1)):
            v = mpmath.mpf(value)
            safe = v >= truth if side > 0 else v <= truth
            close = abs(v - truth) <= 8 * mpmath.mpf(2) ** -52 * abs(truth)
            if not (safe and close):
                failures += 1
                print(f"{name}{case}: {value!r} vs exact {mpmath.nstr(truth, 20)}")
    assert len(lines) >= len(cases)
    print(f"{len(cases)} cases, {failures} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
