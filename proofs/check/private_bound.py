"""Checks the private bound (proofs/private_bound.md, core/mechanisms/private_bound.hpp) against
mpmath at 50 digits over random histograms and epsilons: the exponent factor is exactly eps / 2
(never larger), and every selection log-probability, recomputed independently from the
definition u_k = -|#{rows with norm > b_k} - m|, p_k proportional to exp(eps u_k / 2), agrees to
1e-12 relative (absolute below 1). It then checks the privacy bound itself at 50 digits: on every neighbour of each
histogram (one row added, removed or moved), |log p_k - log p'_k| <= eps, with equality
approached to 1e-6 (the bound is tight).

Usage: private_bound.py PRIVATE_BOUND_VALUES (the tests/proofs/private_bound_values program)."""

import random
import subprocess
import sys

import mpmath

mpmath.mp.dps = 50


def log_probabilities(eps, target, hist):
    candidates = len(hist) - 1
    utilities = []
    for k in range(candidates):
        above = sum(hist[k + 1:])
        utilities.append(-abs(above - target))
    e = mpmath.mpf(eps) / 2
    logs = [e * u for u in utilities]
    total = mpmath.log(mpmath.fsum(mpmath.exp(x) for x in logs))
    return [x - total for x in logs]


def neighbours(hist):
    for i in range(len(hist)):
        added = list(hist)
        added[i] += 1
        yield added
        if hist[i] == 0:
            continue
        removed = list(hist)
        removed[i] -= 1
        yield removed
        for j in range(len(hist)):
            if j != i:
                moved = list(removed)
                moved[j] += 1
                yield moved


def main():
    rng = random.Random(20261124)
    cases = []
    for _ in range(300):
        size = rng.randint(2, 40)
        scale = 10 ** rng.randint(0, 6)
        hist = [rng.randint(0, scale) for _ in range(size)]
        target = rng.randint(0, max(1, sum(hist)))
        cases.append((10 ** rng.uniform(-3, 1.5), target, hist))
    text = "".join(f"{eps!r} {target} " + " ".join(map(str, hist)) + "\n" for eps, target, hist in cases)
    out = subprocess.run([sys.argv[1]], input=text, capture_output=True, text=True, check=True)
    lines = out.stdout.splitlines()
    assert len(lines) == len(cases), (len(lines), len(cases))
    worst = mpmath.mpf(0)
    for (eps, target, hist), line in zip(cases, lines):
        values = [float.fromhex(x) for x in line.split()]
        factor, logs = values[0], values[1:]
        assert mpmath.mpf(factor) == mpmath.mpf(eps) / 2, (eps, factor)
        exact = log_probabilities(eps, target, hist)
        assert len(logs) == len(exact)
        for got, want in zip(logs, exact):
            worst = max(worst, abs(mpmath.mpf(got) - want) / max(1, abs(want)))
    assert worst <= 1e-12, f"log-probability error {worst}"
    # The theorem, at 50 digits, on small histograms.
    worst_ratio = mpmath.mpf(0)
    for _ in range(60):
        hist = [rng.randint(0, 8) for _ in range(rng.randint(2, 7))]
        target = rng.randint(0, 12)
        eps = 10 ** rng.uniform(-2, 1)
        base = log_probabilities(eps, target, hist)
        for other in neighbours(hist):
            for a, b in zip(base, log_probabilities(eps, target, other)):
                worst_ratio = max(worst_ratio, abs(a - b) / eps)
    assert worst_ratio <= 1, f"privacy loss {worst_ratio} eps"
    # ... and is tight: the factor eps / 2 cannot be raised.
    assert worst_ratio > 1 - mpmath.mpf("1e-6"), f"privacy loss only {worst_ratio} eps"
    print(f"private_bound: {len(cases)} cases, worst log-probability error {mpmath.nstr(worst, 3)}; "
          f"worst loss over neighbours {mpmath.nstr(worst_ratio, 12)} eps")


if __name__ == "__main__":
    main()
