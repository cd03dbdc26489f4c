"""Calculators sweep: the constants outside dpcov_mechanism_plan() (constants_sweep.py and
calibration_sweep.py cover the plan's) at random log-uniform points over the whole range, against
the exact requirement computed by mpmath at 50 digits from the doubles the library received. Each
constant must be on the safe side (a noise scale, sensitivity, shift or epsilon not below its
exact value, a budget part not above it; not by even one ulp) and finite, or the calculator must
refuse.

Usage: calculators_sweep.py COINPRESS_CONSTANTS DLY_CONSTANTS ADASSP_CONSTANTS
                            PRIVATE_BOUND_VALUES POINTS SEED
(the tests/proofs programs; proofs/check/{coinpress,dong_liang_yi,adassp,private_bound}.py
describe their input and output).

Ranges: epsilon in [1e-6, 100], delta in [1e-300, 0.5], zCDP rho in [1e-12, 1e4], B, B_X, B_Y and
the DLY radius in [1e-150, 1e150], n in [1, 1e12], d in [1, 46340], beta and AdaSSP's rho in
[1e-12, 0.5], CoinPress K in [1, 1e12] and t in 1..16, all log-uniform. Calculators:
- zCDP to (epsilon, delta) (dpcov_zcdp_epsilon, Canonne-Kamath-Steinke 2020 Prop. 12): epsilon >=
  the infimum over alpha (minimised here) and >= 0 (the infimum is negative for a small rho at a
  large delta: (0, delta)-DP); dpcov_zcdp_rho: the exact epsilon of the returned rho
  <= the target (coinpress.md);
- CoinPress plans: shares sum to <= rho, each step's sigma >= gamma^2 / (n sqrt(rho_i)) for the
  gamma the release clips to (gamma itself is a utility constant), receipt epsilon >= exact
  (coinpress.md);
- Dong-Liang-Yi plans: Adaptive's trace, radius and release shares (rho / 128, rho / 32 and the
  rest; the paper's variant rho / 8, rho / 8) sum to <= rho, trace sigma >= r^2 / (n sqrt(2
  rho_trace)) (sensitivity r^2 / n), Adaptive's second-look histogram sigma >= sqrt(2) /
  sqrt(2 (rho_radius - rho / 512)) (sensitivity sqrt(2); the first look has rho / 512), the paper's SVT epsilon <= sqrt(2 rho_radius); Gauss's and Separate's
  rho_covariance <= rho; receipt epsilon >= exact and >= 0 (dong_liang_yi.md);
- AdaSSP: sensitivities >= B_X^2, c B_X^2, c' B_X B_Y, B_Y^2; the exact delta of the joint release
  (three or four statistics, Balle-Wang Thm 8) <= delta; the paper's sigma, shift and eta >= their
  formulas; the shift has P(N(0,1) > shift / s_l) <= rho / 2; eta >= s_g sqrt((d+1) ln(2d/rho))
  (adassp.md);
- the private bound's exponent factor <= eps / 2 (private_bound.md).
"""
import math
import random
import subprocess
import sys

from mpmath import erfc, log, mpf, sqrt

from calibration_sweep import delta_of, log_uniform
from coinpress import exact_epsilon
from receipts import Checker, plan as run


def finite(x):
    return isinstance(x, (int, float)) and math.isfinite(x)


def zcdp(c, program, rng, points):
    """dpcov_zcdp_epsilon and dpcov_zcdp_rho."""
    to_eps = [(log_uniform(rng, 1e-12, 1e4), log_uniform(rng, 1e-300, 0.5)) for _ in range(points)]
    to_rho = [(log_uniform(rng, 1e-6, 100), log_uniform(rng, 1e-300, 0.5)) for _ in range(points)]
    results = run(program, [f"epsilon {r!r} {d!r}" for r, d in to_eps] +
                  [f"rho {e!r} {d!r}" for e, d in to_rho])
    refused = 0
    for (rho, delta), r in zip(to_eps, results[:points]):
        what = f"zcdp_epsilon rho={rho!r} delta={delta!r}"
        if r["status"] != "DPCOV_OK":
            refused += 1
            continue
        c.ok(finite(r["value"]) and r["value"] >= 0, "finite, >= 0 " + what)
        c.not_below(r["value"], exact_epsilon(rho, delta), what)
    for (eps, delta), r in zip(to_rho, results[points:]):
        what = f"zcdp_rho eps={eps!r} delta={delta!r}"
        if r["status"] != "DPCOV_OK":
            refused += 1
            continue
        c.ok(finite(r["value"]) and r["value"] > 0, "finite " + what)
        c.ok(exact_epsilon(r["value"], delta) <= mpf(eps), what + ": exact epsilon above target")
    print(f"zcdp: {2 * points - refused} of {2 * points} conversions checked, {refused} refused")


def coinpress(c, program, rng, points):
    plans = []
    for _ in range(points):
        plans.append((int(round(log_uniform(rng, 1, 1e12))), int(round(log_uniform(rng, 1, 46340))),
                      log_uniform(rng, 1e-12, 1e4), log_uniform(rng, 1, 1e12), rng.randint(1, 16),
                      log_uniform(rng, 1e-12, 0.5), log_uniform(rng, 1e-300, 0.5)))
    results = run(program, ["plan " + " ".join(repr(v) for v in p) for p in plans])
    checked = 0
    for (n, d, rho, k, t, beta, delta), r in zip(plans, results):
        if r["status"] != "DPCOV_OK":
            continue
        checked += 1
        what = f"coinpress plan n={n} d={d} rho={rho!r} K={k!r} t={t} beta={beta!r} delta={delta!r}"
        values = [r["clip_radius"], r["eta"], r["epsilon"]] + r["step_rho"] + r["step_sigma"]
        c.ok(all(finite(v) for v in values) and r["epsilon"] >= 0, "finite, epsilon >= 0 " + what)
        c.ok(sum(mpf(x) for x in r["step_rho"]) <= mpf(rho), "shares sum to at most rho " + what)
        # gamma is the radius the release clips to (a utility constant, rounded to nearest): the
        # privacy requirement is each sigma against this gamma.
        gamma = mpf(r["clip_radius"])
        for i, (share, sigma) in enumerate(zip(r["step_rho"], r["step_sigma"])):
            c.ok(share > 0, f"share {i} > 0 " + what)
            if share > 0:
                c.not_below(sigma, gamma ** 2 / (n * sqrt(mpf(share))), f"sigma {i} " + what)
        c.not_below(r["epsilon"], exact_epsilon(rho, delta), "epsilon " + what)
    print(f"coinpress: {checked} of {points} plans checked, {points - checked} refused")


def dly(c, program, rng, points):
    cases = []
    for _ in range(points):
        cases.append((rng.randint(0, 3), int(round(log_uniform(rng, 1, 1e12))),
                      int(round(log_uniform(rng, 1, 46340))), log_uniform(rng, 1e-12, 1e4),
                      log_uniform(rng, 1e-150, 1e150), log_uniform(rng, 1e-12, 0.5),
                      log_uniform(rng, 1e-300, 0.5)))
    results = run(program, [" ".join(repr(v) for v in case) for case in cases])
    checked = 0
    for (variant, n, d, rho, radius, beta, delta), got in zip(cases, results):
        if got["status"] != "DPCOV_OK":
            continue
        checked += 1
        what = f"dly variant={variant} n={n} d={d} rho={rho!r} r={radius!r} delta={delta!r}"
        rho_m = mpf(rho)
        c.ok(all(finite(got[k]) for k in ("epsilon", "rho_covariance", "trace_sigma",
                                           "svt_epsilon", "histogram_sigma"))
             and got["epsilon"] >= 0,
             "finite, epsilon >= 0 " + what)
        c.ok(mpf(got["rho_covariance"]) > 0, "rho_covariance > 0 " + what)
        if variant in (2, 3):
            # Adaptive (2): rho / 128 for the trace, rho / 32 for the radius's histogram; the
            # paper's (3): rho / 8 each, the radius by the sparse vector; the rest for the release.
            trace, radius = (mpf(1) / 128, mpf(1) / 32) if variant == 2 else (mpf(1) / 8, mpf(1) / 8)
            c.ok(trace * rho_m + radius * rho_m + mpf(got["rho_covariance"]) <= rho_m,
                 "budget " + what)
            c.not_below(got["trace_sigma"], mpf(got["radius"]) ** 2 / (n * sqrt(2 * trace * rho_m)),
                        "trace sigma " + what)
            if variant == 3:
                c.ok(mpf(got["svt_epsilon"]) <= sqrt(2 * radius * rho_m), "svt epsilon " + what)
            else:
                # The radius's histogram in two looks, rho / 512 and 15 rho / 512.
                c.not_below(got["histogram_sigma"], sqrt(2) / sqrt(2 * (radius - mpf(1) / 512) * rho_m),
                            "histogram sigma " + what)
        else:
            c.ok(mpf(got["rho_covariance"]) <= rho_m, "budget " + what)
        c.not_below(got["epsilon"], exact_epsilon(rho, delta), "epsilon " + what)
    print(f"dong_liang_yi: {checked} of {points} plans checked, {points - checked} refused")


def adassp(c, program, rng, points):
    cases = []
    for _ in range(points):
        cases.append((log_uniform(rng, 1e-6, 100), log_uniform(rng, 1e-300, 0.5),
                      log_uniform(rng, 1e-150, 1e150), log_uniform(rng, 1e-150, 1e150),
                      int(round(log_uniform(rng, 1, 46340))), log_uniform(rng, 1e-12, 0.5),
                      rng.randint(0, 1)))
    text = "".join(" ".join(repr(v) for v in p) + "\n" for p in cases)
    out = subprocess.run([program], input=text, capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    assert len(lines) == len(cases), "the program stopped early"
    checked = 0
    for (eps, delta, bx, by, d, rho, nb), line in zip(cases, lines):
        v = [float(x) for x in line.split()]
        # A non-finite or zero constant is refused by dpcov_adassp_fit (DPCOV_E_NON_FINITE or
        # DPCOV_E_NUMERICAL); only the finite ones would be used.
        if not all(finite(x) and x > 0 for x in v[:9] + v[10:19]):
            continue
        checked += 1
        v = [mpf(x) for x in v]
        what = f"adassp eps={eps!r} delta={delta!r} bx={bx!r} by={by!r} d={d} rho={rho!r} nb={nb}"
        e, dl, x, y, r = (mpf(t) for t in (eps, delta, bx, by, rho))
        sens = [x ** 2, x ** 2 * (1 if nb == 1 else sqrt(2)), x * y * (1 if nb == 1 else 2)]
        for k in range(3):
            c.not_below(v[k], sens[k], f"sensitivity {k} " + what)
        mu = sqrt(sum((sens[k] / v[3 + k]) ** 2 for k in range(3)))
        c.ok(delta_of(1 / mu, e, 1) <= dl, "joint delta <= delta " + what)
        paper_factor = sqrt(log(6 / dl)) / (e / 3)
        for k, published in enumerate((x ** 2, x ** 2, x * y)):
            c.not_below(v[6 + k], paper_factor * published, f"paper sigma {k} " + what)
        c.ok(erfc(v[10] / v[3] / sqrt(2)) / 2 <= r / 2, "shift quantile " + what)
        c.not_below(v[11], log(6 / dl) * x ** 2 / (e / 3), "paper shift " + what)
        c.not_below(v[12], v[4] * sqrt((d + 1) * log(2 * d / r)), "eta " + what)
        c.not_below(v[13], sqrt(d * log(6 / dl) * log(2 * mpf(d) ** 2 / r)) * x ** 2 / (e / 3),
                    "paper eta " + what)
        c.not_below(v[14], y ** 2, "sensitivity y'y " + what)
        sens4 = sens + [y ** 2]
        mu4 = sqrt(sum((sens4[k] / v[15 + k]) ** 2 for k in range(4)))
        c.ok(delta_of(1 / mu4, e, 1) <= dl, "joint delta with y'y <= delta " + what)
    print(f"adassp: {checked} of {points} points checked, {points - checked} with a non-finite "
          f"constant (refused by the fit)")


def private_bound(c, program, rng, points):
    epsilons = [log_uniform(rng, 1e-6, 100) for _ in range(points)]
    # The largest epsilon accepted is DPCOV_MAX_EPSILON = 2^40 (docs/epsilon-cap.md).
    epsilons += [1e-310, 5e-310, 3e-323, 2.2250738585072014e-308, 2.0 ** 40]
    text = "".join(f"{e!r} 0 1 1\n" for e in epsilons)
    out = subprocess.run([program], input=text, capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    assert len(lines) == len(epsilons), "the program stopped early"
    for eps, line in zip(epsilons, lines):
        factor = float.fromhex(line.split()[0])
        c.ok(mpf(factor) <= mpf(eps) / 2, f"private bound factor eps={eps!r}: {factor!r}")
    print(f"private_bound: {len(epsilons)} exponent factors checked")


def main(coinpress_program, dly_program, adassp_program, private_bound_program, points, seed):
    rng = random.Random(seed)
    c = Checker("calculators_sweep")
    zcdp(c, coinpress_program, rng, points)
    coinpress(c, coinpress_program, rng, points)
    dly(c, dly_program, rng, points)
    adassp(c, adassp_program, rng, points)
    private_bound(c, private_bound_program, rng, points)
    c.exit()


if __name__ == "__main__":
    main(*sys.argv[1:5], int(sys.argv[5]), int(sys.argv[6]))
