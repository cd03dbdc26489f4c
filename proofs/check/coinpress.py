"""Checks the CoinPress constants and the zCDP conversion (proofs/coinpress.md) against mpmath at
50 digits, at fixed and random parameter points.

Usage: coinpress.py <coinpress_constants program>
- zcdp epsilon: the infimum over alpha > 1 of Canonne-Kamath-Steinke's bound, minimised here in
  mpmath; the library's epsilon must not be below it and lie within 1e-9 relative of it, and not
  above Bun-Steinke's rho + 2 sqrt(rho ln(1/delta));
- zcdp rho: the library's rho must meet epsilon exactly (its exact epsilon <= the target) and lie
  within 1e-9 relative of the exact inverse;
- CoinPress: gamma = sqrt(d + 2 sqrt(d ln(1/beta)) + 2 ln(1/beta)), eta = sqrt(d/n) + d/(2n), the
  split (1/(4(t-1)), ..., 3/4; the shares sum to at most rho), and each step's sigma not below
  gamma^2 / (n sqrt(rho_i)) for the library's own gamma and rho_i, within 1e-15 relative.
"""
import random
import sys

from mpmath import exp, log, log1p, mp, mpf, sqrt

from receipts import Checker, plan as run

mp.dps = 50


def cks(rho, delta, m):
    """The bound at alpha = 1 + m."""
    return rho + m * rho + (log(1 / delta) - m * log1p(1 / m) - log1p(m)) / m


def exact_epsilon(rho, delta):
    rho, delta = mpf(rho), mpf(delta)
    grid = [mpf(-30) + k for k in range(101)]
    u = min(grid, key=lambda v: cks(rho, delta, exp(v)))
    lo, hi = u - 1, u + 1
    g = (sqrt(5) - 1) / 2
    for _ in range(130):
        a, b = hi - g * (hi - lo), lo + g * (hi - lo)
        if cks(rho, delta, exp(a)) < cks(rho, delta, exp(b)):
            hi = b
        else:
            lo = a
    return cks(rho, delta, exp((lo + hi) / 2))


def exact_rho(eps, delta):
    lo, hi = mpf(0), mpf(eps)
    while exact_epsilon(hi, delta) <= eps:
        lo, hi = hi, 2 * hi
    for _ in range(50):
        mid = (lo + hi) / 2
        if exact_epsilon(mid, delta) <= eps:
            lo = mid
        else:
            hi = mid
    return lo


def main(program):
    c = Checker("coinpress")
    rng = random.Random(20261123)
    pairs = [(0.5, 1e-6), (0.1, 1e-6), (1.0, 1e-10), (0.005, 1e-5), (10.0, 1e-3)]
    pairs += [(10 ** rng.uniform(-4, 1.5), 10 ** rng.uniform(-12, -1)) for _ in range(40)]
    results = run(program, [f"epsilon {r!r} {d!r}" for r, d in pairs])
    for (rho, delta), r in zip(pairs, results):
        what = f"zcdp_epsilon rho={rho!r} delta={delta!r}"
        c.status(r, "DPCOV_OK", what)
        exact = exact_epsilon(rho, delta)
        c.not_below(r["value"], exact, what)
        c.close(r["value"], exact, 1e-9, what)
        bun_steinke = mpf(rho) + 2 * sqrt(mpf(rho) * log(1 / mpf(delta)))
        c.ok(mpf(r["value"]) <= bun_steinke, what + " <= Bun-Steinke")

    targets = [(1.0, 1e-6), (0.5, 1e-6), (4.0, 1e-6)]
    targets += [(10 ** rng.uniform(-1.5, 1), 10 ** rng.uniform(-10, -2)) for _ in range(7)]
    results = run(program, [f"rho {e!r} {d!r}" for e, d in targets])
    for (eps, delta), r in zip(targets, results):
        what = f"zcdp_rho eps={eps!r} delta={delta!r}"
        c.status(r, "DPCOV_OK", what)
        c.ok(exact_epsilon(r["value"], delta) <= mpf(eps), what + ": meets epsilon")
        c.close(r["value"], exact_rho(mpf(eps), mpf(delta)), 1e-9, what)

    plans = [(3000, 10, 0.5, 31.622776601683793, 3, 0.1, 1e-6),
             (80000, 100, 0.5, 100.0, 3, 0.1, 1e-6), (7000, 10, 0.5, 527.0, 3, 0.1, 1e-6)]
    for _ in range(40):
        plans.append((rng.randint(1, 10 ** 6), rng.randint(1, 500), 10 ** rng.uniform(-3, 1),
                      10 ** rng.uniform(0, 4), rng.randint(1, 16), rng.uniform(0.001, 0.9),
                      10 ** rng.uniform(-10, -2)))
    results = run(program, ["plan " + " ".join(repr(v) for v in p) for p in plans])
    for (n, d, rho, k, t, beta, delta), r in zip(plans, results):
        what = f"plan n={n} d={d} rho={rho!r} t={t} beta={beta!r}"
        c.status(r, "DPCOV_OK", what)
        lb = log(1 / mpf(beta))
        c.close(r["clip_radius"], sqrt(d + 2 * sqrt(d * lb) + 2 * lb), 1e-15, "gamma " + what)
        c.close(r["eta"], sqrt(mpf(d) / n) + mpf(d) / (2 * n), 1e-15, "eta " + what)
        shares = [mpf(x) for x in r["step_rho"]]
        c.ok(len(shares) == t, "number of shares " + what)
        c.ok(sum(shares) <= mpf(rho), "shares sum to at most rho " + what)
        expected = [mpf(rho)] if t == 1 else [mpf(rho) / (4 * (t - 1))] * (t - 1) + [3 * mpf(rho) / 4]
        for i, (got, want) in enumerate(zip(shares, expected)):
            c.ok(got <= want, f"share {i} rounded down " + what)
            c.close(got, want, 1e-15, f"share {i} " + what)
        gamma = mpf(r["clip_radius"])
        for i, (share, sigma) in enumerate(zip(r["step_rho"], r["step_sigma"])):
            exact = gamma ** 2 / (n * sqrt(mpf(share)))
            c.not_below(sigma, exact, f"sigma {i} " + what)
            c.close(sigma, exact, 1e-15, f"sigma {i} " + what)
        exact = exact_epsilon(rho, delta)
        c.not_below(r["epsilon"], exact, "receipt epsilon " + what)
        c.close(r["epsilon"], exact, 1e-9, "receipt epsilon " + what)

    bad = ["plan 0 10 0.5 10 3 0.1 1e-6", "plan 10 0 0.5 10 3 0.1 1e-6",
           "plan 10 10 0 10 3 0.1 1e-6", "plan 10 10 0.5 0.5 3 0.1 1e-6",
           "plan 10 10 0.5 10 0 0.1 1e-6", "plan 10 10 0.5 10 17 0.1 1e-6",
           "plan 10 10 0.5 10 3 1 1e-6", "plan 10 10 0.5 10 3 0.1 1",
           "epsilon 0 1e-6", "epsilon 1 0", "rho -1 1e-6", "rho 1 1"]
    for request, r in zip(bad, run(program, bad)):
        c.ok(r["status"] != "DPCOV_OK", "refused: " + request)
    c.exit()


if __name__ == "__main__":
    main(sys.argv[1])
