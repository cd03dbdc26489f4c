"""Checks the Gaussian noise scale of a zCDP budget, sigma = sensitivity / sqrt(2 rho)
(core/privacy/zcdp.hpp, zcdp_gaussian_sigma; Bun & Steinke 2016, Prop. 1.6), and the sparse vector
epsilon of a zCDP budget, sqrt(2 rho) (dly_svt_epsilon; Prop. 1.4), over the whole range of the
doubles against mpmath at 60 digits.

Usage: zcdp_sigma.py <zcdp_sigma_values program> [POINTS SEED]
- sigma: never below the exact value (not by one ulp); within 2^-50 relative of it where it is a
  normal double, within 4 steps of 2^-1074 where it is subnormal; DPCOV_E_NUMERICAL (-12) only
  where the exact value is above the largest double;
- epsilon: never above the exact sqrt(2 rho), within 2^-50 relative (or 4 steps of 2^-1074);
  refused (DPCOV_E_NON_FINITE, -5: 2 rho is not finite) only where 2 rho overflows.
The bottom of the range found sigma below its exact value at rho = 78 2^-1074 (the fma's residual
of the square root rounded to 0) and sigma = 2^-1074 for every rho above DBL_MAX / 2 (2 rho
overflowed to infinity). Ranges: rho and the sensitivity log-uniform over [2^-1074, DBL_MAX],
rho also at small multiples of 2^-1074 and around DBL_MAX / 2. 400 points by default (the default
suite), 20000 in the long suite.
"""
import math
import random
import subprocess
import sys

from mpmath import mp, mpf, sqrt

from receipts import Checker

mp.dps = 60

STEP = math.ldexp(1.0, -1074)
DBL_MAX = sys.float_info.max


def log_uniform(rng, lo_exp, hi_exp):
    return min(DBL_MAX, max(STEP, 2.0 ** rng.uniform(lo_exp, hi_exp)))


def main(program, points, seed):
    rng = random.Random(seed)
    cases = [(k * STEP, 1.4142135623730951) for k in (1, 2, 3, 78, 1000, 123456)]
    cases += [(DBL_MAX / 2, 1.0), (math.nextafter(DBL_MAX / 2, math.inf), 1.0), (DBL_MAX, 1.0),
              (1e308, 1.4142135623730951), (1e-300, DBL_MAX), (DBL_MAX, STEP)]
    for _ in range(points):
        kind = rng.randrange(3)
        rho = (rng.randint(1, 1 << 20) * STEP if kind == 0 else
               math.ldexp(rng.uniform(0.5, 1.0), rng.randint(1000, 1024)) if kind == 1 else
               log_uniform(rng, -1074, 1024))
        cases.append((rho, log_uniform(rng, -1074, 1024)))
    text = "".join(f"{rho!r} {sens!r}\n" for rho, sens in cases)
    out = subprocess.run([program], input=text, capture_output=True, text=True, check=True)
    lines = out.stdout.strip().split("\n")
    assert len(lines) == len(cases), (len(lines), len(cases))
    c = Checker("zcdp_sigma")
    for (rho, sens), line in zip(cases, lines):
        sigma_text, eps_text = line.split()
        what = f"rho={rho!r} sensitivity={sens!r}"
        exact = mpf(sens) / sqrt(2 * mpf(rho))
        if sigma_text.startswith("error"):
            c.ok(sigma_text == "error-12" and exact > DBL_MAX, "sigma refused " + what)
        else:
            sigma = mpf(float.fromhex(sigma_text))
            c.ok(sigma >= exact, f"sigma {sigma_text} below exact {mp.nstr(exact, 20)} " + what)
            slack = exact * mpf(2) ** -50 if exact >= sys.float_info.min else 4 * mpf(STEP)
            c.ok(sigma - exact <= slack, f"sigma {sigma_text} far above {mp.nstr(exact, 20)} " + what)
        exact = sqrt(2 * mpf(rho))
        if eps_text.startswith("error"):
            c.ok(eps_text == "error-5" and 2 * rho == math.inf, "epsilon refused " + what)
        else:
            eps = mpf(float.fromhex(eps_text))
            c.ok(eps <= exact, f"epsilon {eps_text} above exact {mp.nstr(exact, 20)} " + what)
            slack = exact * mpf(2) ** -50 if exact >= sys.float_info.min else 4 * mpf(STEP)
            c.ok(exact - eps <= slack, f"epsilon {eps_text} far below exact " + what)
    c.exit()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 400,
         int(sys.argv[3]) if len(sys.argv) > 3 else 1)
