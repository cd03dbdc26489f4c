"""Checks the constants of the guaranteed OLS intervals from an Analyze Gauss release
(proofs/ols_analyze_gauss.md) and the library's implementation of them.

Usage: ols_analyze_gauss.py <ols_gauss_bound program>
- nu = (1 - level) / 2 and eta = sigma sqrt(2 F^{-1}_{chi2_{k(k+1)/2}}(1 - nu)), the chi-square
  quantile by root-finding on mpmath's regularised incomplete gamma (40 digits), against the
  library within 1e-12 relative on a grid of sigma, k and level;
- the bound's premise, ||E||_2^2 <= ||E||_F^2 <= 2 sum_{i<=j} E_ij^2, on 2000 random symmetric
  matrices, and P(||E||_2 > eta) <= nu by Monte Carlo (20000 draws at k = 4, level 0.95: the
  observed rate must be below nu; it is far below, the bound being loose by about 2 in norm).
"""
import random
import subprocess
import sys

import numpy as np
from mpmath import gammainc, mp, mpf, sqrt, findroot

mp.dps = 40


def chi_square_quantile(p, dof):
    dof = mpf(dof)
    return findroot(lambda x: gammainc(dof / 2, 0, x / 2, regularized=True) - p,
                    dof + 2 * sqrt(2 * dof))


def eta(sigma, k, nu):
    return mpf(sigma) * sqrt(2 * chi_square_quantile(1 - mpf(nu), k * (k + 1) // 2))


def main():
    program = sys.argv[1]
    cases = [(s, k, lv) for s in (1e-3, 0.5, 1.0, 5.297, 40.0) for k in (1, 2, 4, 11, 31)
             for lv in (0.9, 0.95, 0.99)]
    text = "".join(f"{s!r} {k} {lv!r}\n" for s, k, lv in cases)
    out = subprocess.run([program], input=text, capture_output=True, text=True, check=True).stdout
    failures = 0
    for (s, k, lv), line in zip(cases, out.splitlines()):
        nu_lib, eta_lib = (mpf(x) for x in line.split())
        nu = (1 - mpf(lv)) / 2
        expected = eta(s, k, nu)
        if abs(nu_lib - nu) > mpf("1e-15") or abs(eta_lib / expected - 1) > mpf("1e-12"):
            failures += 1
            print(f"MISMATCH sigma={s} k={k} level={lv}: nu {nu_lib} vs {nu}, eta {eta_lib} vs {expected}")
    print(f"eta: {len(cases)} cases checked against mpmath")
    print(f"pins: eta(1, 4, 0.025) = {mp.nstr(eta(1, 4, '0.025'), 20)}, "
          f"eta(5, 11, 0.025) = {mp.nstr(eta(5, 11, '0.025'), 20)}, "
          f"eta(0.5, 2, 0.005) = {mp.nstr(eta('0.5', 2, '0.005'), 20)}")

    rng = np.random.default_rng(20171)
    for _ in range(2000):
        k = int(rng.integers(1, 12))
        upper = np.triu(rng.normal(size=(k, k)))
        e = upper + np.triu(upper, 1).T
        spectral = np.max(np.abs(np.linalg.eigvalsh(e)))
        if spectral ** 2 > 2 * np.sum(upper ** 2) * (1 + 1e-12):
            failures += 1
            print(f"PREMISE FAILS at k={k}")
    k, nu = 4, 0.025
    bound = float(eta(1, k, nu))
    draws = 20000
    exceed = 0
    for _ in range(draws):
        upper = np.triu(rng.normal(size=(k, k)))
        e = upper + np.triu(upper, 1).T
        exceed += np.max(np.abs(np.linalg.eigvalsh(e))) > bound
    print(f"Monte Carlo: P(||E||_2 > eta) = {exceed}/{draws} at k = {k}, nu = {nu}")
    # Binomial(20000, 0.025) has mean 500; any rate above nu would show hundreds of exceedances.
    if exceed >= 400:
        failures += 1
        print("Monte Carlo exceedance rate is not below nu")
    if failures:
        print(f"{failures} failures")
        sys.exit(1)
    print("all checks passed")


if __name__ == "__main__":
    main()
