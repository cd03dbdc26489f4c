"""Checks the constants of the exact (floating-point-safe) additive mechanisms
(proofs/exact_additive.md) with mpmath at 50 digits.

Usage: exact_additive.py
- zCDP to (eps, delta) (Canonne-Kamath-Steinke 2020, Cor. 13): the rho values pinned in
  tests/unit/exact_additive_test.cpp are the exact largest rho reaching delta (to 20 digits);
- the bound is valid at every alpha > 1 and tightest at the root of its derivative;
- the rounded-row bound: for a unit row x, ||round(x 2^k)||_2 <= 2^k + sqrt(d) / 2 <
  2^k + ceil(sqrt(d) / 2) + 1 (checked on extreme rows: axes, diagonals, random), and the exact
  Gram fits 53 bits when n (2^k + ceil(sqrt(d)/2) + 1)^2 < 2^53.
"""
import random
import sys

from mpmath import exp, log, mp, mpf, nstr, sqrt, ceil

mp.dps = 50


def delta_at(rho, eps, a):
    return exp((a - 1) * (a * rho - eps) + a * log(1 - 1 / a)) / (a - 1)


def best_alpha(rho, eps):
    lo, hi = mpf(1) + mpf(10) ** -30, (eps + 1) / (2 * rho) + 2
    for _ in range(300):
        mid = (lo + hi) / 2
        if (2 * mid - 1) * rho - eps + log(1 - 1 / mid) < 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def delta(rho, eps):
    return min(delta_at(rho, eps, best_alpha(rho, eps)), mpf(1))


def rho_for(eps, d):
    lo, hi = mpf(0), eps + 1
    for _ in range(300):
        mid = (lo + hi) / 2
        if delta(mid, eps) <= d:
            lo = mid
        else:
            hi = mid
    return lo


PINNED = {(1, 1e-6): "0.024355970359538372796", (0.1, 1e-6): "0.00032104769034574012888",
          (2, 1e-9): "0.056130501796519819368", (0.5, 1e-5): "0.0085055305911819113554",
          (5, 1e-10): "0.28078875941037525265"}


def main():
    failures = 0
    for (eps, d), text in PINNED.items():
        rho = rho_for(mpf(eps), mpf(d))
        if abs(rho - mpf(text)) > mpf(10) ** -18 * rho:
            print("FAIL rho", eps, d, nstr(rho, 22), text)
            failures += 1
        # Any other alpha gives a larger (still valid) delta.
        a = best_alpha(rho, mpf(eps))
        for factor in (mpf("0.9"), mpf("1.1")):
            if delta_at(rho, mpf(eps), a * factor) < delta_at(rho, mpf(eps), a):
                print("FAIL alpha not minimal", eps, d)
                failures += 1
    rng = random.Random(21)
    for d in (1, 2, 3, 10, 100, 1000):
        h = int(ceil(sqrt(mpf(d)) / 2))
        for k in (4, 8, 12):
            rows = [[1.0] + [0.0] * (d - 1), [1.0 / d ** 0.5] * d]
            for _ in range(50):
                v = [rng.gauss(0, 1) for _ in range(d)]
                n = sum(t * t for t in v) ** 0.5
                rows.append([t / n for t in v])
            for x in rows:
                z = [round(t * 2 ** k) for t in x]
                norm = sqrt(mpf(sum(t * t for t in z)))
                if not norm <= 2 ** k + sqrt(mpf(d)) / 2 < 2 ** k + h + 1:
                    print("FAIL rounded row bound", d, k, nstr(norm, 10))
                    failures += 1
    print("exact_additive: %d failures" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
