"""Checks AdaSSP's constants (proofs/adassp.md, core/privacy/adassp_constants.hpp) against mpmath.

Usage: adassp.py <adassp_constants program>

At 200 random points (eps in [0.05, 16] log-uniform, delta in [1e-12, 1e-2], B_X, B_Y in
[1e-3, 1e3], d in 1..60, rho in [1e-4, 0.5], both neighbour relations), 40 more at small eps and
tiny delta (eps in [1e-12, 1e-3], delta in [1e-300, 1e-20], log-uniform) and their corners, the
library's constants
must be on the safe side of the exact values computed here with 50 digits, and close to them:
- sensitivities: B_X^2; B_X^2 or sqrt(2) B_X^2; B_X B_Y or 2 B_X B_Y (>= exact, <= 4 ulp above);
- joint sigma: the exact delta of the joint release (mu^2 = sum (Delta/sigma)^2, Balle-Wang Thm 8)
  is <= delta, and sigma is within 3e-9 (relative) above the smallest such sigma (found here by
  bisection; the library adds a margin of 1e-9 for its double-precision bisection);
- paper sigma, shift and eta: >= the exact formula, within 1e-14 relative;
- shift: P(N(0,1) > shift / sigma_l) <= rho / 2 and within 1e-9 of equality, at those points and
  at 3000 more values of rho over (0, 1) (log-uniform down to 1e-300, subnormals and edges added);
- eta: >= sigma_g sqrt((d + 1) ln(2d / rho)), within 1e-14 relative;
- the library's joint delta is >= the exact one and <= delta;
- with y'y released (four shares): its sensitivity B_Y^2, sigma_k = 2 Delta_k sigma_AG within 3e-9
  above, and the exact delta of the four-statistic release <= delta.
- without the lambda_min step (proofs/adassp.md, "Without the lambda_min step"): X'X and X'y at
  sigma_k = sqrt(2) Delta_k sigma_AG, and with y'y sqrt(3) Delta_k sigma_AG, each within 3e-9 above;
  the exact delta of each release <= delta, the library's within 1e-9 of it, and its zCDP rho on
  the safe side within 1e-14.
It also checks, by Monte Carlo, the premise of eta: P(lambda_min(E) < -eta) <= rho / 2 for the
symmetric noise E (diagonal N(0, s^2), off-diagonal N(0, s^2 / 2)), and prints the paper's true
privacy at a few settings (proofs/adassp.md, "The paper's constants").
"""
import random
import subprocess
import sys

import numpy as np
from mpmath import erfc, exp, log, mp, mpf, ncdf, sqrt

mp.dps = 50


def gaussian_delta(mu, eps):
    """Exact delta(eps) of N(0,1) against N(mu,1) (Balle & Wang 2018, Thm 8)."""
    mu, eps = mpf(mu), mpf(eps)
    return ncdf(mu / 2 - eps / mu) - exp(eps) * ncdf(-mu / 2 - eps / mu)


def smallest_unit_sigma(eps, delta):
    """Smallest sigma with delta(1/sigma) <= delta, by bisection to 1e-30."""
    lo, hi = mpf(0), mpf(1)
    while gaussian_delta(1 / hi, eps) > delta:
        lo, hi = hi, 2 * hi
    for _ in range(200):
        mid = (lo + hi) / 2
        if gaussian_delta(1 / mid, eps) <= delta:
            hi = mid
        else:
            lo = mid
    return hi


def normal_upper_quantile(q):
    """z with P(N(0,1) > z) = q."""
    lo, hi = mpf(0), mpf(1)
    while erfc(hi / sqrt(2)) / 2 > q:
        lo, hi = hi, 2 * hi
    for _ in range(200):
        mid = (lo + hi) / 2
        if erfc(mid / sqrt(2)) / 2 <= q:
            hi = mid
        else:
            lo = mid
    return hi


def check_close_above(name, got, exact, rel, where, failures):
    got = mpf(got)
    if got < exact or (got - exact) > rel * exact:
        failures.append(f"{name} at {where}: library {got} exact {exact}")


def check_shift_over_rho(program, rnd, failures, count=3000):
    """The shift alone over rho in its whole range (0, 1), subnormal rho and the edges included:
    P(N(0,1) > shift / sigma_l) <= rho / 2 exactly, and shift / sigma_l within 1e-9 (relative)
    or 1e-13 above the exact quantile. The shift depends on rho and sigma_l only, so the other
    parameters are fixed."""
    rhos = [10 ** rnd.uniform(-300, -1e-9) for _ in range(count)]
    rhos += [5e-324, 1e-310, 2.2250738585072014e-308, 0.5, 0.9999999999999999,
             1.2783027033531129e-08]
    text = "".join(f"1.0 1e-06 1.0 1.0 2 {r!r} 0\n" for r in rhos)
    out = subprocess.run([program], input=text, capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    assert len(lines) == len(rhos), "the program stopped early"
    for rho, line in zip(rhos, lines):
        v = line.split()
        ratio = mpf(float(v[10])) / mpf(float(v[3]))
        half = mpf(rho) / 2
        # Past a ratio of 1e6 the tail is below 10^-(10^11) (and mpmath's erfc overflows).
        if ratio > 1e6:
            failures.append(f"shift at rho={rho!r}: {ratio} noise sds, far above the quantile")
            continue
        if erfc(ratio / sqrt(2)) / 2 > half:
            failures.append(f"shift at rho={rho!r}: P(N > {ratio}) exceeds rho / 2")
        # Near rho = 1 the quantile is near 0, and the safety margin is absolute there.
        if erfc((ratio - max(ratio * mpf("1e-9"), mpf("1e-13"))) / sqrt(2)) / 2 <= half:
            failures.append(f"shift at rho={rho!r}: more than max(1e-9 relative, 1e-13) above "
                            "the exact quantile")
    print(f"shift: {len(rhos)} values of rho checked against mpmath")


def main():
    program = sys.argv[1]
    rnd = random.Random(20180706)
    points = []
    for _ in range(200):
        eps = 10 ** rnd.uniform(-1.3, 1.2)
        delta = 10 ** rnd.uniform(-12, -2)
        bx = 10 ** rnd.uniform(-3, 3)
        by = 10 ** rnd.uniform(-3, 3)
        d = rnd.randint(1, 60)
        rho = 10 ** rnd.uniform(-4, -0.3)
        points.append((eps, delta, bx, by, d, rho, rnd.randint(0, 1)))
    # The settings of dpcov's defaults and of the measurements in proofs/adassp.md.
    points += [(e, 1e-6, 1.0, 1.0, 10, 0.05, nb) for e in (0.5, 1.0, 2.0, 4.0) for nb in (0, 1)]
    # Small epsilon and tiny delta, where the two terms of delta cancel to a relative eps / (2 b^2)
    # (below 1e-16): 40 random points and the corners.
    for _ in range(40):
        points.append((10 ** rnd.uniform(-12, -3), 10 ** rnd.uniform(-300, -20), 1.0, 1.0, 3,
                       0.05, rnd.randint(0, 1)))
    points += [(e, dl, 2 ** 0.5, 1.0, 3, 0.05, 0) for e in (1e-12, 1e-9, 1e-6)
               for dl in (1e-30, 1e-100, 1e-300)]
    text = "".join(" ".join(repr(v) for v in p) + "\n" for p in points)
    out = subprocess.run([program], input=text, capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    assert len(lines) == len(points), "the program stopped early"
    failures = []
    ulp4 = mpf(2) ** -50
    for (eps, delta, bx, by, d, rho, nb), line in zip(points, lines):
        v = [mpf(float(x)) for x in line.split()]  # the doubles printed, exactly
        where = f"eps={eps} delta={delta} bx={bx} by={by} d={d} rho={rho} neighbour={nb}"
        eps_m, delta_m, bx_m, by_m, rho_m = (mpf(x) for x in (eps, delta, bx, by, rho))
        sens = [bx_m ** 2,
                bx_m ** 2 * (1 if nb == 1 else sqrt(2)),
                bx_m * by_m * (1 if nb == 1 else 2)]
        for k in range(3):
            check_close_above(f"sensitivity[{k}]", v[k], sens[k], ulp4, where, failures)
        unit = smallest_unit_sigma(eps_m, delta_m)
        for k in range(3):
            exact = sqrt(3) * sens[k] * unit
            check_close_above(f"joint sigma[{k}]", v[3 + k], exact, mpf("3e-9"), where, failures)
        mu2 = sum((sens[k] / v[3 + k]) ** 2 for k in range(3))
        true_delta = gaussian_delta(sqrt(mu2), eps_m)
        if true_delta > delta_m:
            failures.append(f"joint release not ({eps}, {delta})-DP at {where}: {true_delta}")
        # delta_exact is reported, not used to calibrate: accurate to 1e-9 relative.
        if abs(v[9] / true_delta - 1) > mpf("1e-9"):
            failures.append(f"joint delta at {where}: library {v[9]} exact {true_delta}")
        # The paper's sigma for the paper's (add/remove) sensitivities B^2, B^2, B_X B_Y.
        paper_factor = sqrt(log(6 / delta_m)) / (eps_m / 3)
        published = [bx_m ** 2, bx_m ** 2, bx_m * by_m]
        for k in range(3):
            check_close_above(f"paper sigma[{k}]", v[6 + k], paper_factor * published[k],
                              mpf("1e-14"), where, failures)
        z = normal_upper_quantile(rho_m / 2)
        check_close_above("shift", v[10], v[3] * z, mpf("1e-9"), where, failures)
        check_close_above("paper shift", v[11], log(6 / delta_m) * bx_m ** 2 / (eps_m / 3),
                          mpf("1e-14"), where, failures)
        check_close_above("eta", v[12], v[4] * sqrt((d + 1) * log(2 * d / rho_m)),
                          mpf("1e-14"), where, failures)
        # The release with y'y: four equal shares of mu^2.
        check_close_above("sensitivity[y'y]", v[14], by_m ** 2, ulp4, where, failures)
        sens4 = sens + [by_m ** 2]
        for k in range(4):
            check_close_above(f"joint4 sigma[{k}]", v[15 + k], 2 * sens4[k] * unit, mpf("3e-9"),
                              where, failures)
        delta4 = gaussian_delta(sqrt(sum((sens4[k] / v[15 + k]) ** 2 for k in range(4))), eps_m)
        if delta4 > delta_m:
            failures.append(f"release with y'y not ({eps}, {delta})-DP at {where}: {delta4}")
        if abs(v[19] / delta4 - 1) > mpf("1e-9"):
            failures.append(f"joint4 delta at {where}: library {v[19]} exact {delta4}")
        # zCDP (Bun-Steinke Prop. 1.6 on the whitened release): rho = mu^2 / 2 from the
        # library's own sigmas, on the safe side and within a few ulps.
        for index, count, sigmas in ((20, 3, v[3:6]), (21, 4, v[15:19])):
            rho_exact = sum((sens4[k] / sigmas[k]) ** 2 for k in range(count)) / 2
            check_close_above(f"zcdp rho ({count} statistics)", v[index], rho_exact,
                              mpf("1e-14"), where, failures)
        # Without the lambda_min step: the released statistics X'X, X'y[, y'y] share mu^2.
        released = sens4[1:]
        for first, count in ((22, 2), (26, 3)):
            sigmas = v[first:first + count]
            for k in range(count):
                check_close_above(f"joint sigma without lambda_min [{count}][{k}]", sigmas[k],
                                  sqrt(count) * released[k] * unit, mpf("3e-9"), where, failures)
            mu2 = sum((released[k] / sigmas[k]) ** 2 for k in range(count))
            exact_delta = gaussian_delta(sqrt(mu2), eps_m)
            if exact_delta > delta_m:
                failures.append(f"release without lambda_min ({count}) not ({eps}, {delta})-DP "
                                f"at {where}: {exact_delta}")
            if abs(v[first + count] / exact_delta - 1) > mpf("1e-9"):
                failures.append(f"delta without lambda_min ({count}) at {where}: library "
                                f"{v[first + count]} exact {exact_delta}")
            check_close_above(f"zcdp rho without lambda_min ({count})", v[first + count + 1],
                              mu2 / 2, mpf("1e-14"), where, failures)
        check_close_above("paper eta", v[13],
                          sqrt(d * log(6 / delta_m) * log(2 * mpf(d) ** 2 / rho_m)) * bx_m ** 2
                          / (eps_m / 3), mpf("1e-14"), where, failures)
    print(f"constants: {len(points)} points checked against mpmath")
    check_shift_over_rho(program, rnd, failures)

    # Premise of eta (Tropp 2012, Thm 4.1): lambda_min(E) >= -eta with probability >= 1 - rho/2.
    gen = np.random.default_rng(2018)
    for d, rho in ((2, 0.05), (10, 0.05), (10, 0.2), (30, 0.05)):
        trials = 10000 if d <= 10 else 2000
        eta = np.sqrt((d + 1) * np.log(2 * d / rho))
        misses = 0
        for _ in range(trials):
            z = gen.normal(size=(d, d))
            e = np.triu(z, 1) / np.sqrt(2)
            e = e + e.T + np.diag(np.diag(z))
            misses += np.linalg.eigvalsh(e)[0] < -eta
        # The bound is loose: the observed rate is 0 at these settings; any miss rate above
        # rho / 2 would be a finding.
        if misses / trials > rho / 2:
            failures.append(f"eta premise fails at d={d} rho={rho}: {misses}/{trials}")
        print(f"eta premise d={d} rho={rho}: {misses} of {trials} below -eta (allowed rate {rho / 2})")

    # The paper's constants under each relation: their exact delta at the requested epsilon.
    for eps in (0.5, 1, 2, 4, 8):
        for delta in (1e-5, 1e-6):
            share = (mpf(eps) / 3) ** 2 / log(6 / mpf(delta))
            add_remove = gaussian_delta(sqrt(3 * share), eps)
            replace = gaussian_delta(sqrt(7 * share), eps)
            print(f"paper constants eps={eps} delta={delta}: exact delta add/remove "
                  f"{mp.nstr(add_remove, 4)}, replace-one {mp.nstr(replace, 4)}")
    for eps in (0.5, 1, 2, 4):
        unit = smallest_unit_sigma(mpf(eps), mpf("1e-6"))
        print(f"pin: zCDP rho of a fit at (eps={eps}, 1e-6) = 1 / (2 sigma_AG^2) = "
              f"{mp.nstr(1 / (2 * unit ** 2), 17)}")
        print(f"pin: joint unit sigma sqrt(3) sigma_AG(eps={eps}, 1e-6) = "
              f"{mp.nstr(sqrt(3) * unit, 17)}; paper 3 sqrt(ln 6e6)/eps = "
              f"{mp.nstr(3 * sqrt(log(6e6)) / eps, 17)}; with y'y 2 sigma_AG = {mp.nstr(2 * unit, 17)}; "
              f"without lambda_min sqrt(2) sigma_AG = {mp.nstr(sqrt(2) * unit, 17)}")

    for f in failures[:20]:
        print("FAIL", f)
    print(f"{len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
