"""Checks the unit-level Gram sensitivity (proofs/unit_gram_sensitivity.md) with mpmath at 50
digits on random PSD contributions: for units of k rows of norm <= B (B = 1) in d dimensions,
||A||_F <= tr A <= k, ||A - A'||_F <= sqrt(2) k, and the upper triangle's L1 norm of A <= (d + 1) k / 2
(so of A - A' <= (d + 1) k), including the tight cases (aligned rows), and that the ratios reach
within 1e-12 of 1 there.

Usage: unit_gram_sensitivity.py [ignored]"""

import random
import sys

import mpmath

mpmath.mp.dps = 50


def unit(k, d, rng, aligned=None):
    rows = []
    for _ in range(k):
        v = aligned if aligned is not None else [mpmath.mpf(rng.gauss(0, 1)) for _ in range(d)]
        norm = mpmath.sqrt(sum(x * x for x in v))
        scale = mpmath.mpf(rng.random()) ** (0 if aligned is not None else 0.5) / norm
        rows.append([x * scale for x in v])
    return [[sum(r[i] * r[j] for r in rows) for j in range(d)] for i in range(d)]


def frobenius(a):
    return mpmath.sqrt(sum(x * x for row in a for x in row))


def upper_l1(a):
    d = len(a)
    return sum(abs(a[i][j]) for i in range(d) for j in range(i, d))


def main():
    rng = random.Random(34)
    worst = {"add_l2": 0, "replace_l2": 0, "add_l1": 0, "replace_l1": 0}
    for trial in range(600):
        d = rng.randint(1, 6)
        k = rng.randint(1, 8)
        ones = [mpmath.mpf(1)] * d
        e1 = [mpmath.mpf(1)] + [mpmath.mpf(0)] * (d - 1)
        e2 = [mpmath.mpf(0)] * d
        e2[-1] = mpmath.mpf(1)
        kind = trial % 4
        a = unit(k, d, rng, [e1, ones, None, None][kind])
        b = unit(k, d, rng, [e2, None, e1, None][kind] if d > 1 else None)
        tr = sum(a[i][i] for i in range(d))
        assert tr <= k * (1 + mpmath.mpf(10) ** -40), (tr, k)
        assert frobenius(a) <= tr * (1 + mpmath.mpf(10) ** -40)
        diff = [[a[i][j] - b[i][j] for j in range(d)] for i in range(d)]
        ratios = {
            "add_l2": frobenius(a) / k,
            "replace_l2": frobenius(diff) / (mpmath.sqrt(2) * k),
            "add_l1": upper_l1(a) / ((d + 1) * mpmath.mpf(k) / 2),
            "replace_l1": upper_l1(diff) / ((d + 1) * mpmath.mpf(k)),
        }
        for name, r in ratios.items():
            assert r <= 1 + mpmath.mpf(10) ** -40, (name, d, k, r)
            worst[name] = max(worst[name], r)
    # The aligned cases are tight for add/remove (L2 and L1) and replace L2.
    for name in ("add_l2", "add_l1", "replace_l2"):
        assert worst[name] >= 1 - mpmath.mpf(10) ** -12, (name, worst[name])
    print("unit_gram_sensitivity: 600 random units, largest ratios to the bounds:",
          {n: float(v) for n, v in worst.items()})
    return 0


if __name__ == "__main__":
    sys.exit(main())
