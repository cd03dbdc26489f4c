"""Checks the group-privacy budget of privacy units (proofs/unit_group_privacy.md) against mpmath
at 60 digits: for random (m, eps, delta) the library's (eps_r, delta_r) satisfy m eps_r <= eps and
delta_r sum_{i<m} e^{i eps_r} <= delta (the group-privacy theorem's conditions, the safe side), and
lie within (eps + 8) 2^-51 relatively of the largest values that do (not wastefully low: rounding
m eps_r up by an ulp moves e^{m eps_r} by about m eps_r 2^-52). Also checks the
induction of the theorem itself on random three-point output laws: chains of m pairs each
(eps_r, delta_r)-indistinguishable give ends (m eps_r, delta_r S_m)-indistinguishable.

Usage: unit_group_privacy.py VALUES_PROGRAM [points] [seed]"""

import random
import subprocess
import sys

import mpmath

mpmath.mp.dps = 60


def group_sum(m, e):
    e = mpmath.mpf(e)
    return mpmath.expm1(m * e) / mpmath.expm1(e)


def check_budget(program, points, seed):
    rng = random.Random(seed)
    cases = []
    for _ in range(points):
        m = max(1, min(2 ** 21, int(mpmath.exp(rng.uniform(0, mpmath.log(2 ** 21))))))
        eps = float(mpmath.exp(rng.uniform(mpmath.log(1e-4), mpmath.log(30))))
        delta = 0.0 if rng.random() < 0.05 else float(mpmath.exp(rng.uniform(-690, mpmath.log(0.5))))
        cases.append((m, eps, delta))
    text = "".join(f"{m} {eps.hex()} {delta.hex()}\n" for m, eps, delta in cases)
    out = subprocess.run([program], input=text, capture_output=True, text=True, check=True)
    failures, checked = 0, 0
    for (m, eps, delta), line in zip(cases, out.stdout.splitlines()):
        if line == "refused":
            # Only where a per-row delta below the smallest subnormal is needed.
            if not delta > 0 or delta / group_sum(m, float(eps) / m) >= mpmath.mpf(2) ** -1070:
                print("refused wrongly", m, eps, delta)
                failures += 1
            continue
        checked += 1
        e_r, d_r = (float.fromhex(v) for v in line.split())
        s = group_sum(m, e_r)
        ok = m * mpmath.mpf(e_r) <= eps and mpmath.mpf(d_r) * s <= delta
        ok = ok and m * mpmath.mpf(e_r) >= eps * (1 - mpmath.mpf(2) ** -51)
        ideal = delta / s
        if ideal > mpmath.mpf(2) ** -1000:
            ok = ok and d_r >= ideal * (1 - (eps + 8) * mpmath.mpf(2) ** -51)
        if delta == 0:
            ok = ok and d_r == 0
        if not ok:
            print("FAIL", m, eps, delta, e_r, d_r, float(ideal))
            failures += 1
    print(f"budget: {checked} points checked, {failures} failures")
    return failures


def check_induction(points, seed):
    """Laws on three outcomes; each step's pair (eps_r, delta_r)-indistinguishable in both
    directions; the ends' hockey-stick divergence at m eps_r is at most delta_r S_m."""
    rng = random.Random(seed + 1)
    failures = 0
    for _ in range(points):
        m = rng.randint(2, 8)
        e_r = mpmath.mpf(rng.uniform(0.01, 1.0))
        d_r = mpmath.mpf(10) ** rng.uniform(-8, -2)
        laws = [[mpmath.mpf(rng.random()) + 1 for _ in range(3)]]
        laws[0] = [x / sum(laws[0]) for x in laws[0]]
        while len(laws) <= m:
            prev = laws[-1]
            # A neighbour: each mass scaled by e^{+-u} (u <= e_r / 2, so the ratio stays within
            # e^{e_r} after renormalising), then up to d_r of mass moved to one outcome; kept only
            # if (e_r, d_r)-indistinguishable both ways.
            cand = [p * mpmath.exp(rng.uniform(-float(e_r) / 2, float(e_r) / 2)) for p in prev]
            cand = [x / sum(cand) for x in cand]
            lam = d_r * mpmath.mpf(rng.random())
            j = rng.randrange(3)
            cand = [(1 - lam) * x + (lam if i == j else 0) for i, x in enumerate(cand)]
            if all(hockey(a, b, e_r) <= d_r for a, b in ((prev, cand), (cand, prev))):
                laws.append(cand)
        bound = d_r * group_sum(m, e_r)
        if hockey(laws[0], laws[m], m * e_r) > bound * (1 + mpmath.mpf(10) ** -40):
            failures += 1
    print(f"induction: {points} chains, {failures} failures")
    return failures


def hockey(p, q, eps):
    return sum(max(a - mpmath.exp(eps) * b, 0) for a, b in zip(p, q))


def main():
    program = sys.argv[1]
    points = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 3434
    failures = check_budget(program, points, seed) + check_induction(200, seed)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
