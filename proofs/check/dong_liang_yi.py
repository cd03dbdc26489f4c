"""Checks the Dong-Liang-Yi constants (proofs/dong_liang_yi.md) against mpmath at 50 digits.

Usage: dong_liang_yi.py <dly_constants program>
- the budget: Gauss and Separate spend rho on the covariance; Adaptive 123 rho / 128 and
  AdaptivePaper 3 rho / 4 (rounded down), and rho_trace + rho_radius + rho_covariance <= rho with
  (rho_trace, rho_radius) = (rho / 128, rho / 32) and (rho / 8, rho / 8); Adaptive's radius
  budget is its first look, rho / 512, plus its second, (15 / 512) rho rounded down (the two
  sigmas pin them); a release whose first look settles the radius spends rho / 512 and
  (511 / 512) rho rounded down, and on rows at the bound it settles;
- the trace sigma: not below r^2 / (n sqrt(2 rho_trace)) (2 r^2 / (n sqrt(rho)) for the paper),
  within 1e-15;
- AdaptivePaper's SVT epsilon: not above sqrt(2 rho / 8) = sqrt(rho) / 2, within 1e-15;
- Adaptive's histogram sigmas: the first look's not below sqrt(2) / sqrt(2 rho / 512), the
  second's not below sqrt(2) / sqrt(2 (15 / 512) rho), within 1e-15;
- the number of SVT queries 1 + min(79, d n);
- the receipt's epsilon: within 1e-9 above the Canonne-Kamath-Steinke infimum (coinpress.py).
- Gauss and Separate: the plan's matrix sigma not below r^2 / (n sqrt(rho)) (Separate: rho / 2, and
  the same sigma on the eigenvalues), within 1e-15. The adaptive variants' sigmas depend on the
  private radius, so they are recomputed in the unit test from dly_gauss_sigma
  (tests/unit/dong_liang_yi_test.cpp).
"""
import random
import sys

from mpmath import mp, mpf, sqrt

from coinpress import exact_epsilon
from receipts import Checker, plan as run

mp.dps = 50


def main(program):
    c = Checker("dong_liang_yi")
    rng = random.Random(20261124)
    cases = [(2, 1000, 10, 0.1, 1.0, 0.1, 1e-6), (1, 16000, 800, 0.1, 1.0, 0.1, 1e-6),
             (0, 4000, 50, 0.1, 1.0, 0.1, 1e-6), (3, 1000, 10, 0.1, 1.0, 0.1, 1e-6)]
    for _ in range(40):
        cases.append((rng.randint(0, 3), rng.randint(1, 10 ** 6), rng.randint(1, 1000),
                      10 ** rng.uniform(-3, 1), 10 ** rng.uniform(-2, 2), rng.uniform(0.01, 0.9),
                      10 ** rng.uniform(-10, -2)))
    results = run(program, [" ".join(repr(v) for v in case) for case in cases])
    settled = [got.get("settled") for case, got in zip(cases, results) if case[:3] == (2, 1000, 10)]
    c.ok(settled == [1], "rows at the bound settle the radius at n = 1000, d = 10, rho = 0.1")
    for (variant, n, d, rho, r, beta, delta), got in zip(cases, results):
        what = f"variant={variant} n={n} d={d} rho={rho!r} r={r!r}"
        c.status(got, "DPCOV_OK", what)
        rho_m = mpf(rho)
        if variant in (2, 3):
            trace, radius = (mpf(1) / 128, mpf(1) / 32) if variant == 2 else (mpf(1) / 8, mpf(1) / 8)
            rest = 1 - trace - radius
            c.ok(mpf(got["rho_covariance"]) <= rest * rho_m, "release rounded down " + what)
            c.close(got["rho_covariance"], rest * rho_m, 1e-15, "rho_covariance " + what)
            c.ok(trace * rho_m + radius * rho_m + mpf(got["rho_covariance"]) <= rho_m,
                 "budget " + what)
            exact = mpf(r) ** 2 / (n * sqrt(2 * trace * rho_m))
            c.not_below(got["trace_sigma"], exact, "trace sigma " + what)
            c.close(got["trace_sigma"], exact, 1e-15, "trace sigma " + what)
            if variant == 3:
                exact = sqrt(2 * radius * rho_m)
                c.ok(mpf(got["svt_epsilon"]) <= exact, "svt epsilon rounded down " + what)
                c.close(got["svt_epsilon"], exact, 1e-15, "svt epsilon " + what)
                c.ok(got["histogram_sigma"] == 0 and got["first_look_sigma"] == 0,
                     "no histogram " + what)
            else:
                first, second = mpf(1) / 512, mpf(15) / 512
                c.ok(first + second == radius, "the two looks make the radius budget " + what)
                for name, share in (("first_look_sigma", first), ("histogram_sigma", second)):
                    exact = sqrt(2) / sqrt(2 * share * rho_m)
                    c.not_below(got[name], exact, name + " " + what)
                    c.close(got[name], exact, 1e-15, name + " " + what)
                c.ok(got["svt_epsilon"] == 0, "no sparse vector " + what)
                if "settled" in got:
                    early = mpf(got["released_rho_covariance"])
                    if got["settled"] == 1:
                        c.ok(first * rho_m + early <= rho_m, "settled budget " + what)
                        c.close(got["released_rho_covariance"], (1 - first) * rho_m, 1e-15,
                                "settled rho_covariance " + what)
                    else:
                        c.ok(early == mpf(got["rho_covariance"]), "unsettled release " + what)
            c.ok(got["first_look_settled"] == -1, "a plan has not looked " + what)
            c.ok(got["svt_queries"] == 1 + min(79, d * n), "bins " + what)
            c.ok(got["branch"] == -1 and got["sigma_matrix"] == 0, "a plan has no branch " + what)
        else:
            c.ok(got["rho_covariance"] == rho and got["trace_sigma"] == 0, "no split " + what)
            # Gauss and Separate: the noise of the release at r, data-independent, in the plan:
            # sigma = r^2 / (n sqrt(rho)) (Gauss), at rho / 2 (Separate, both steps).
            c.ok(got["branch"] == variant and got["clip_radius"] == r, "fixed branch " + what)
            exact = mpf(r) ** 2 / (n * sqrt(rho_m if variant == 0 else rho_m / 2))
            c.not_below(got["sigma_matrix"], exact, "matrix sigma " + what)
            c.close(got["sigma_matrix"], exact, 1e-15, "matrix sigma " + what)
            eigen = got["sigma_matrix"] if variant == 1 else 0
            c.ok(got["sigma_eigenvalues"] == eigen, "eigenvalue sigma " + what)
        exact = exact_epsilon(rho, delta)
        c.not_below(got["epsilon"], exact, "epsilon " + what)
        c.close(got["epsilon"], exact, 1e-9, "epsilon " + what)
    bad = ["4 100 10 0.1 1 0.1 1e-6", "2 0 10 0.1 1 0.1 1e-6", "2 100 0 0.1 1 0.1 1e-6",
           "2 100 10 0 1 0.1 1e-6", "2 100 10 0.1 0 0.1 1e-6", "2 100 10 0.1 1 1 1e-6",
           "2 100 10 0.1 1 0.1 0"]
    for request, got in zip(bad, run(program, bad)):
        c.ok(got["status"] != "DPCOV_OK", "refused: " + request)
    c.exit()


if __name__ == "__main__":
    main(sys.argv[1])
