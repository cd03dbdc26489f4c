"""Checks the closed form of the normaliser of an exponential-mechanism step on the circle
(proofs/iev.md, "The q = 2 step") and the auditor's implementation of it.

Usage: iev_circle_step.py <circle_step program>
- the closed form Z(A) = exp((a1 + a2)/2) I_0((a1 - a2)/2) of E_uniform[exp(u^T A u)] on S^1
  against direct quadrature of (1/2pi) int_0^{2pi} exp(u(t)^T A u(t)) dt with A a rotated
  diag(a1, a2) (mpmath, 30 digits), at 40 random and 6 edge cases;
- the library's ln Z (core/audit/distributions.cpp: power series, asymptotic series beyond 50)
  within 1e-14 relative (1e-15 absolute for |ln Z| < 1) of mpmath's (a1 + a2)/2 + ln besseli(0, c);
- the library's folded-angle distribution function F(psi) within 1e-12 of mpmath quadrature of
  exp(c cos 2s) / (pi I_0(c)) over [0, psi].
"""
import random
import subprocess
import sys

from mpmath import besseli, cos, exp, log, mp, mpf, pi, quad, sin

mp.dps = 30


def direct_normaliser(a1, a2, rotation):
    """(1/2pi) int over the circle of exp(u^T R diag(a1, a2) R^T u), R a rotation by `rotation`."""
    def f(t):
        x, y = cos(t), sin(t)
        # Coordinates in the eigenbasis of the rotated matrix.
        p = cos(rotation) * x + sin(rotation) * y
        q = -sin(rotation) * x + cos(rotation) * y
        return exp(a1 * p * p + a2 * q * q)
    return quad(f, [0, pi / 2, pi, 3 * pi / 2, 2 * pi]) / (2 * pi)


def closed_form(a1, a2):
    return exp((a1 + a2) / 2) * besseli(0, (a1 - a2) / 2)


def angle_cdf(c, psi):
    psi = psi - pi * mp.floor(psi / pi)
    f = lambda s: exp(c * (cos(2 * s) - 1))
    return quad(f, [0, min(psi, pi / 4), psi]) / quad(f, [0, pi / 4, pi / 2, 3 * pi / 4, pi])


def main(program):
    rng = random.Random(7)
    failures = 0

    def check(ok, what):
        nonlocal failures
        if not ok:
            failures += 1
            print("FAIL:", what)

    # The closed form itself.
    cases = [(0.0, 0.0), (1.0, 1.0), (3.0, -2.0), (0.0, -40.0), (25.0, 0.0), (60.0, 59.0)]
    cases += [(rng.uniform(-5, 30), rng.uniform(-5, 30)) for _ in range(40)]
    for a, b in cases:
        a1, a2 = (mpf(max(a, b)), mpf(min(a, b)))
        direct = direct_normaliser(a1, a2, mpf(rng.uniform(0, 3.2)))
        exact = closed_form(a1, a2)
        check(abs(direct / exact - 1) < mpf("1e-25"), f"Z({a1}, {a2}): quadrature {direct} vs {exact}")

    # The library against mpmath.
    lines, expected = [], []
    for _ in range(150):
        a2 = rng.choice([0.0, rng.uniform(-50, 50)])
        a1 = a2 + rng.choice([0.0, 1e-6, rng.uniform(0, 2), rng.uniform(0, 120), rng.uniform(0, 3000)])
        psi = rng.choice([0.0, rng.uniform(0, 3.14159), rng.uniform(-10, 10), 1e-4])
        lines.append(f"{a1!r} {a2!r} {psi!r}")
        expected.append((mpf(a1), mpf(a2), mpf(psi)))
    out = subprocess.run([program], input="\n".join(lines) + "\n", capture_output=True, text=True,
                         check=True).stdout.split("\n")
    for (a1, a2, psi), row in zip(expected, out):
        log_z, cdf = (mpf(x) for x in row.split())
        c = (a1 - a2) / 2
        exact_log_z = (a1 + a2) / 2 + log(besseli(0, c))
        check(abs(log_z - exact_log_z) <= mpf("1e-14") * max(1, abs(exact_log_z)),
              f"ln Z({a1}, {a2}) = {log_z} vs {exact_log_z}")
        if c <= 500:  # quadrature of the sharp peaks beyond is slow; the series is the same code
            exact_cdf = angle_cdf(c, psi)
            check(abs(cdf - exact_cdf) <= mpf("1e-12"), f"F(c = {c}, psi = {psi}) = {cdf} vs {exact_cdf}")
    check(len(out) >= len(expected), "one output line per case")
    print(f"{len(cases)} closed-form cases, {len(expected)} library cases, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
