"""Checks the private bound's scan (proofs/private_bound.md, "The scan";
core/mechanisms/private_bound_scan.hpp) against exact and high-precision arithmetic.

1. Scales, at 2000 random epsilons (log-uniform over [2^-26, 1e6], plus edge values): each of the
   threshold and query scales t / s is the smallest t / 2^24 >= 2 / eps, in exact rational
   arithmetic on the double eps (never below 2 / eps, not even by one unit of t).
2. Selection log-probabilities of 120 random histograms and targets at random scales (1/4 to 4),
   recomputed independently from the definition with mpmath at 30 digits (sum over the threshold
   noise over a wider range than the code's, 50 scales): agree to 1e-11 relative (absolute below
   1).
3. The privacy bound at 30 digits: on every neighbour (one row added, removed or moved) of 8
   histograms with one or two occupied cells, 8 random ones and the worst case the audit found,
   at eps 1 and 4, the loss
   max_k |log p_k - log p'_k| is <= eps and above 0.98 eps somewhere (tight: neither scale can be
   lowered), and the mutant with the query scale 1 / eps (Dwork and Roth's factor 2 dropped and
   then halved again) exceeds eps.

Usage: private_bound_scan.py PRIVATE_BOUND_SCAN_VALUES (tests/proofs/private_bound_scan_values)."""

import random
import subprocess
import sys
from fractions import Fraction

import mpmath

from private_bound import neighbours  # one row added, removed or moved: every neighbour

mpmath.mp.dps = 30
DENOMINATOR = 2 ** 24


def log_probabilities(hist, m, scale_t, scale_q, width=50):
    """log P(the scan chooses k), k = 0..K-1: sum over the integer threshold noise tau of
    P(tau) prod_{j<k} P(nu_j >= m + tau - A_j + 1) P(nu_k <= m + tau - A_k), the top candidate
    taking every pass; discrete Laplace P(x) = (1 - r) / (1 + r) r^|x|, r = exp(-1 / scale)."""
    candidates = len(hist) - 1
    above = [sum(hist[k + 1:]) for k in range(candidates)]
    if candidates == 1:
        return [mpmath.mpf(0)]
    rt, rq = mpmath.exp(-1 / scale_t), mpmath.exp(-1 / scale_q)

    def at_least(a):
        return rq ** a / (1 + rq) if a >= 1 else 1 - rq ** (1 - a) / (1 + rq)

    margin = int(width * max(scale_t, scale_q)) + 2
    sums = [mpmath.mpf(0)] * candidates
    for tau in range(-(m + margin), above[0] - m + margin + 1):
        passed = (1 - rt) / (1 + rt) * rt ** abs(tau)
        for k in range(candidates - 1):
            slack = m + tau - above[k]
            sums[k] += passed * at_least(-slack)
            passed *= at_least(slack + 1)
        sums[-1] += passed
    return [mpmath.log(x) for x in sums]


def run(program, lines):
    out = subprocess.run([program], input="".join(line + "\n" for line in lines),
                         capture_output=True, text=True, check=True)
    return out.stdout.splitlines()


def worst_loss(cases, eps, scale_t, scale_q):
    worst = mpmath.mpf(0)
    for hist, m in cases:
        base = log_probabilities(hist, m, scale_t, scale_q, width=30)
        for other in neighbours(hist):
            for a, b in zip(base, log_probabilities(other, m, scale_t, scale_q, width=30)):
                worst = max(worst, abs(a - b))
    return worst / eps


def main():
    program = sys.argv[1]
    rng = random.Random(20261124)
    # 1. Scales.
    epsilons = [2.0 ** -26, 0.1, 0.5, 1.0, 4.0, 1e6] + [
        2.0 ** rng.uniform(-26, 19.9) for _ in range(2000)]
    lines = run(program, [f"scales {eps!r}" for eps in epsilons])
    assert len(lines) == len(epsilons)
    for eps, line in zip(epsilons, lines):
        st, tt, sq, tq = map(int, line.split())
        exact = 2 / Fraction(eps)
        for s, t in ((st, tt), (sq, tq)):
            assert s == DENOMINATOR and t >= 1, (eps, s, t)
            assert Fraction(t, s) >= exact, f"scale {t}/{s} below 2/eps at eps {eps!r}"
            assert t == 1 or Fraction(t - 1, s) < exact, f"scale {t}/{s} not the smallest at {eps!r}"
    # 2. Log-probabilities.
    cases = []
    for _ in range(120):
        size = rng.randint(2, 9)
        hist = [rng.randint(0, rng.choice([3, 20, 60])) for _ in range(size)]
        m = rng.randint(0, 10)
        scales = [(DENOMINATOR, rng.randint(DENOMINATOR // 4, 4 * DENOMINATOR)) for _ in range(2)]
        cases.append((hist, m, scales))
    lines = run(program, [f"probs {st} {tt} {sq} {tq} {m} " + " ".join(map(str, h))
                          for h, m, ((st, tt), (sq, tq)) in cases])
    assert len(lines) == len(cases)
    worst = mpmath.mpf(0)
    for (hist, m, ((st, tt), (sq, tq))), line in zip(cases, lines):
        got = [float.fromhex(x) for x in line.split()]
        want = log_probabilities(hist, m, mpmath.mpf(tt) / st, mpmath.mpf(tq) / sq)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            worst = max(worst, abs(mpmath.mpf(g) - w) / max(1, abs(w)))
    assert worst <= 1e-11, f"log-probability error {worst}"
    # 3. The privacy bound, tight, and a mutant caught.
    privacy_cases = []
    for _ in range(8):
        hist = [0] * rng.randint(3, 8)
        hist[rng.randrange(len(hist))] += rng.randint(1, 6)
        if rng.random() < 0.5:
            hist[rng.randrange(len(hist))] += rng.randint(0, 2)
        privacy_cases.append((hist, rng.randint(0, 4)))
    for _ in range(8):
        privacy_cases.append(([rng.randint(0, 3) for _ in range(rng.randint(2, 6))], rng.randint(0, 5)))
    privacy_cases.append(([3, 0, 0, 0, 0, 0, 0, 0, 0], 1))  # the worst case the audit found
    losses = []
    for eps in (1.0, 4.0):
        scale = mpmath.mpf(2) / eps
        loss = worst_loss(privacy_cases, eps, scale, scale)
        assert loss <= 1, f"privacy loss {loss} eps at eps {eps}"
        assert loss > 0.98, f"privacy loss only {loss} eps at eps {eps}: the audit looks elsewhere"
        mutant = worst_loss(privacy_cases[-1:], eps, scale, scale / 2)
        assert mutant > 1.2, f"the query-scale mutant's loss is only {mutant} eps"
        losses.append((eps, loss, mutant))
    print(f"private_bound_scan: {len(epsilons)} scales exact and smallest; {len(cases)} "
          f"probability cases, worst error {mpmath.nstr(worst, 3)}; worst loss over neighbours "
          + ", ".join(f"{mpmath.nstr(l, 8)} eps at eps {e} (mutant {mpmath.nstr(u, 6)})"
                      for e, l, u in losses))


if __name__ == "__main__":
    main()
