"""Checks dpcov_zcdp_epsilon and dpcov_zcdp_rho (proofs/coinpress.md, "zCDP to (epsilon, delta)")
over the whole range of the doubles against an mpmath reference at 60 digits that does not
search a grid: the Canonne-Kamath-Steinke bound at alpha = 1 + m,
    f(m) = rho + m rho + (ln(1/delta) - m ln(1 + 1/m) - ln(1 + m)) / m,
has derivative (rho m^2 + ln(1 + m) - ln(1/delta)) / m^2, whose numerator increases in m, so its
infimum is f at the one root m* of that numerator, found here by bisection on ln m over
[-2000, 2000] (coinpress.py's reference minimises on a grid over ln m in [-30, 70], which the
library's grid shared: both missed the minimiser for rho below about 1e-58, and the library then
returned Bun-Steinke's bound, 42% above the infimum at rho = delta = 1e-300).

Usage: zcdp_extremes.py <coinpress_constants program> [POINTS SEED]
- epsilon: never below max(0, infimum); within 1e-9 relative of it (where the infimum is not
  positive, the library returns 0, the (0, delta)-DP guarantee);
- rho: finite, > 0, its exact epsilon at most the target, and within 1e-9 relative of the largest
  such rho (found by bisection on the reference; where the target is below every positive
  epsilon, that is the largest rho whose infimum is <= 0); DPCOV_E_NUMERICAL where even the
  smallest double's epsilon is above the target.
Below 2^-1022 "within 1e-9 relative" is "within two steps of 2^-1074", the subnormals' precision.
Ranges: rho and epsilon log-uniform in [denorm_min, 1e300], delta log-uniform in [denorm_min, 0.5]
or 1 - 10^-u for u in [1, 15], and fixed points at the ends. 40 points by default (the default
suite), 2000 in the long suite. A target epsilon above DPCOV_MAX_EPSILON = 2^40 must be refused
(DPCOV_E_INVALID_ARGUMENT, docs/epsilon-cap.md).
"""
import math
import random
import sys

from mpmath import exp, log, log1p, mp, mpf

from receipts import Checker, plan as run

mp.dps = 60

DENORM_MIN = math.ldexp(1.0, -1074)
# DPCOV_MAX_EPSILON (dpcov/common.h): zcdp_rho refuses a larger target epsilon.
MAX_EPSILON = 2.0 ** 40


def near(c, value, exact, what):
    """value within 1e-9 relative of exact, or within two steps of the subnormal grid (2^-1074
    apart), which is all the precision a result below 2^-1022 has (a rho of 2.35e-321 is 476
    steps: one step is a relative 2e-3)."""
    exact = mpf(exact)
    error = abs(mpf(value) - exact)
    c.ok(error <= max(mpf(1e-9) * abs(exact), 2 * mpf(DENORM_MIN)),
         f"{what}: library {value!r}, exact {mp.nstr(exact, 20)}, error {mp.nstr(error, 3)} "
         f"above 1e-9 relative and two subnormal steps")


def infimum(rho, delta):
    """max(0, inf over m > 0 of f(m)), at the root of rho m^2 + ln(1 + m) = ln(1/delta)."""
    rho, delta = mpf(rho), mpf(delta)
    big_l = -log(delta)
    lo, hi = mpf(-2000), mpf(2000)
    for _ in range(240):
        mid = (lo + hi) / 2
        if rho * exp(2 * mid) + log1p(exp(mid)) > big_l:
            hi = mid
        else:
            lo = mid
    m = exp((lo + hi) / 2)
    value = rho + m * rho + (big_l - m * log1p(1 / m) - log1p(m)) / m
    return max(mpf(0), value)


def largest_rho(epsilon, delta):
    """The largest rho with infimum(rho, delta) <= epsilon, by bisection on ln rho (the infimum
    increases in rho)."""
    lo, hi = log(mpf(DENORM_MIN)), log(mpf(2) ** 1024)
    for _ in range(80):
        mid = (lo + hi) / 2
        if infimum(exp(mid), delta) <= epsilon:
            lo = mid
        else:
            hi = mid
    return exp(lo)


def log_uniform(rng, lo, hi):
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))


def random_delta(rng):
    if rng.random() < 0.2:
        return 1.0 - 10 ** -rng.uniform(1, 15)
    return log_uniform(rng, DENORM_MIN, 0.5)


def main(program, points=40, seed=20261124):
    c = Checker("zcdp_extremes")
    rng = random.Random(seed)
    ends = [DENORM_MIN, 1e-300, 1e-100, 1e-58, 1.0, 1e29, 1e300]
    deltas = [DENORM_MIN, 1e-300, 1e-6, 0.5, 0.9999999999999999]
    to_eps = [(r, d) for r in ends for d in deltas]
    to_eps += [(log_uniform(rng, DENORM_MIN, 1e300), random_delta(rng)) for _ in range(points)]
    results = run(program, [f"epsilon {r!r} {d!r}" for r, d in to_eps])
    for (rho, delta), got in zip(to_eps, results):
        what = f"zcdp_epsilon rho={rho!r} delta={delta!r}"
        c.status(got, "DPCOV_OK", what)
        if got["status"] != "DPCOV_OK":
            continue
        exact = infimum(rho, delta)
        c.not_below(got["value"], exact, what)
        if exact > 0:
            near(c, got["value"], exact, what)
        else:
            c.ok(got["value"] == 0, f"{what}: {got['value']!r} where the infimum is <= 0")

    targets = [(1e-300, 1e-6), (1e-6, 0.9999999999999999), (DENORM_MIN, 0.5), (1e300, 1e-6),
               (1.7976931348623157e308, 1e-6), (1e-30, 1e-300)]
    targets += [(log_uniform(rng, DENORM_MIN, 1e300), random_delta(rng))
                for _ in range(max(points // 4, 1))]
    results = run(program, [f"rho {e!r} {d!r}" for e, d in targets])
    for (eps, delta), got in zip(targets, results):
        what = f"zcdp_rho eps={eps!r} delta={delta!r}"
        if eps > MAX_EPSILON:
            # docs/epsilon-cap.md: refused as an argument, before any constant is computed.
            c.status(got, "DPCOV_E_INVALID_ARGUMENT", what)
            continue
        if infimum(DENORM_MIN, delta) > mpf(eps):
            # Even the smallest double is over the target: no rho may be returned.
            c.status(got, "DPCOV_E_NUMERICAL", what)
            continue
        c.status(got, "DPCOV_OK", what)
        if got["status"] != "DPCOV_OK":
            continue
        value = got["value"]
        c.ok(math.isfinite(value) and value > 0, f"{what}: {value!r} finite and > 0")
        c.ok(infimum(value, delta) <= mpf(eps), f"{what}: exact epsilon of {value!r} above target")
        near(c, value, largest_rho(mpf(eps), delta), what)
    c.exit()


if __name__ == "__main__":
    if len(sys.argv) > 2:
        main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
    else:
        main(sys.argv[1])
