"""Checks the exact Analyze Gauss's discrete Gaussian variance
(core/privacy/discrete_gaussian_smoothing.hpp, proofs/discrete_gaussian_smoothing.md) with mpmath.

Usage: discrete_gaussian_smoothing.py DISCRETE_GAUSSIAN_VALUES [POINTS [SEED]]

For random (Delta^2, eps, delta, m) it computes, at 80 digits and with the exact
kappa = (1 + e0) / (1 - e0), e0 = 2 sum_{k >= 1} exp(-8 pi^2 k^2), the smallest integer s2 such
that the continuous Gaussian of variance s2 - 4 is (eps - 2 m ln kappa, delta kappa^-m)-DP by
Balle & Wang's exact delta (Thm 8), and checks the library's s2 against it: never below (not even
by one), above by at most a relative 1e-9 plus one, refused only where s2 reaches 2^62. It also
checks the constants the proof rounds: e0 < 1.03e-34, ln kappa < 2^-111.
"""
import random
import subprocess
import sys

from mpmath import ceil, erfc, exp, log, mp, mpf, nsum, pi, sqrt, inf

mp.dps = 80

B = 4
E0 = 2 * nsum(lambda k: exp(-2 * pi ** 2 * B * k ** 2), [1, inf])
LN_KAPPA = log((1 + E0) / (1 - E0))


def ncdf(x):
    return erfc(-x / sqrt(2)) / 2


def bw_delta(s, eps):
    """Balle-Wang's exact delta at sigma / Delta = s."""
    return ncdf(1 / (2 * s) - eps * s) - exp(eps) * ncdf(-1 / (2 * s) - eps * s)


def unit_sigma(eps, delta):
    """The smallest sigma / Delta meeting (eps, delta), to a relative 1e-40."""
    lo, hi = mpf(0), mpf(1)
    while bw_delta(hi, eps) > delta:
        lo, hi = hi, 2 * hi
    while hi - lo > mpf(10) ** -40 * hi:
        mid = (lo + hi) / 2
        if bw_delta(mid, eps) <= delta:
            hi = mid
        else:
            lo = mid
    return lo  # below the exact value: the smallest admissible variance is above lo^2 Delta^2


def smallest_s2(delta_squared, eps, delta, m):
    eps_c = eps - 2 * m * LN_KAPPA
    delta_c = delta * exp(-m * LN_KAPPA)
    s = unit_sigma(eps_c, delta_c)
    return int(ceil(s * s * delta_squared + B))


def cases(points, seed):
    rng = random.Random(seed)
    fixed = [(2 * 16781313 ** 2, 1.0, 1e-6, 55), (16781313 ** 2, 4.0, 1e-6, 500500),
             (1, 1.0, 1e-6, 1), (2 ** 100, 1e-3, 1e-15, 10 ** 9)]
    out = list(fixed)
    while len(out) < points:
        d2 = float(int(2 ** rng.uniform(0, 100)))
        eps = 10 ** rng.uniform(-3, 1.7)
        delta = 10 ** rng.uniform(-15, -0.31)
        m = int(10 ** rng.uniform(0, 9))
        out.append((d2, eps, delta, m))
    return out


def main():
    program = sys.argv[1]
    points = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    failures = 0
    if not (E0 < mpf("1.03e-34") and LN_KAPPA < mpf(2) ** -111):
        print("FAIL the proof's constants: e0", E0, "ln kappa", LN_KAPPA)
        failures += 1
    todo = cases(points, seed)
    text = "".join(f"{float(d2)!r} {eps!r} {delta!r} {m}\n" for d2, eps, delta, m in todo)
    result = subprocess.run([program], input=text, capture_output=True, text=True, check=True)
    answers = result.stdout.split()
    if len(answers) != len(todo):
        print("FAIL expected", len(todo), "answers, got", len(answers))
        return 1
    worst = mpf(0)
    for (d2, eps, delta, m), answer in zip(todo, answers):
        exact = smallest_s2(mpf(d2), mpf(eps), mpf(delta), m)
        what = f"Delta^2={d2!r} eps={eps!r} delta={delta!r} m={m}: library {answer}, exact {exact}"
        if answer == "refused":
            if exact * (1 + mpf(10) ** -9) < 2 ** 62:
                print("FAIL refused", what)
                failures += 1
            continue
        s2 = int(answer)
        if s2 < exact:
            print("FAIL below the smallest admissible variance", what)
            failures += 1
        elif s2 > exact * (1 + mpf(10) ** -9) + 1:
            print("FAIL too far above", what)
            failures += 1
        worst = max(worst, mpf(s2 - exact) / exact)
    print(f"{len(todo)} points, {failures} failures; largest excess {float(worst):.3g} relative")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
