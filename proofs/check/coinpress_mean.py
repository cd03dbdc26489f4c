"""Checks the CoinPress mean constants (proofs/coinpress_mean.md) against mpmath at 50 digits, at
fixed and random parameter points.

Usage: coinpress_mean.py <coinpress_constants program> [POINTS SEED]
- gamma = sqrt(d + 2 sqrt(d ln(1/beta)) + 2 ln(1/beta)) (the covariance side's constant);
- the radius chain, recomputed here from the inputs alone: r_1 = r,
  R_i = min(sqrt(r_i^2 + 6 r_i s + s^2 gamma^2), r_i + s gamma),
  sigma_i = sqrt(2) R_i / (n sqrt(rho_i)), r_{i+1} = gamma sqrt(s^2 / n + sigma_i^2): the library's
  R_i and sigma_i within 1e-12 relative;
- privacy: each sigma_i not below (2 R_i / n) / sqrt(2 rho_i) for the library's own R_i (the radius
  the release projects onto) and rho_i, within 1e-15 relative; the shares (rho / (4 (t - 1)) each,
  3 rho / 4 last) rounded down and summing to at most rho; the receipt's epsilon not below the
  Canonne-Kamath-Steinke infimum and within 1e-9 of it; every value finite;
- the centring split: rho / 8 and 7 rho / 8, each not above its exact value, summing to at most rho;
- scales down to 1e-300 (s gamma from about 1e-140 to below 2^-960): the same checks, and a plan
  refused with DPCOV_E_INVALID_ARGUMENT only where an exact R_i is below 2^-960, naming the scale;
- refusals: out-of-range settings fail with a status, not DPCOV_OK.
"""
import math
import random
import sys

from mpmath import log, mp, mpf, sqrt

from coinpress import exact_epsilon
from receipts import Checker, plan as run

DENORM_MIN = math.ldexp(1.0, -1074)  # the smallest positive double
SMALLEST_ROW_BOUND = mpf(2) ** -960  # data::kSmallestRowBound

mp.dps = 50


def log_uniform(rng, lo, hi):
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))


def expected_shares(rho, t):
    rho = mpf(rho)
    return [rho] if t == 1 else [rho / (4 * (t - 1))] * (t - 1) + [3 * rho / 4]


def exact_radii(n, d, rho, r0, s, t, beta):
    """The exact R_i of the chain, from the inputs and the exact shares."""
    lb = log(1 / mpf(beta))
    gamma = sqrt(d + 2 * sqrt(d * lb) + 2 * lb)
    s_, n_, radius, radii = mpf(s), mpf(n), mpf(r0), []
    for share in expected_shares(rho, t):
        clip = min(sqrt(radius ** 2 + 6 * radius * s_ + (s_ * gamma) ** 2), radius + s_ * gamma)
        radii.append(clip)
        sigma = sqrt(2) * clip / (n_ * sqrt(share))
        radius = gamma * sqrt(s_ ** 2 / n_ + sigma ** 2)
    return radii


def main(program, points=200, seed=20261124):
    c = Checker("coinpress_mean")
    rng = random.Random(seed)
    cases = [(1000, 50, 0.5, 10 * math.sqrt(50), 1.0, 3, 0.01, 1e-6),
             (3000, 10, 0.5, 10 * math.sqrt(10), 1.0, 3, 0.01, 1e-6),
             (7000, 10, 0.5, 527.0, math.sqrt(527.0), 3, 0.01, 1e-6),
             (10, 1, 0.01, 0.0, 1.0, 1, 0.5, 1e-3)]
    for _ in range(points):
        cases.append((int(round(log_uniform(rng, 1, 1e9))), int(round(log_uniform(rng, 1, 46340))),
                      log_uniform(rng, 1e-6, 1e3), rng.choice([0.0, log_uniform(rng, 1e-6, 1e100)]),
                      log_uniform(rng, 1e-100, 1e100), rng.randint(1, 16),
                      log_uniform(rng, 1e-12, 0.9), log_uniform(rng, 1e-300, 0.5)))
    # Scales down to where scale gamma reaches 2^-960 and below: the squares of r and s gamma
    # underflowed for s gamma below about 1e-154 (R came out 0). A plan is refused only where an
    # exact R_i is below 2^-960, with a message naming the scale.
    cases += [(100, 3, 0.5, 0.0, s, 3, 0.01, 1e-6)
              for s in (1e-160, 1e-300, 3e-290, 2.4e-290, 2.2e-290, DENORM_MIN)]
    cases += [(100, 3, 0.5, 2e-289, 1e-300, 3, 0.01, 1e-6),
              (7, 40, 2.0, 1e-200, 1e-291, 16, 0.3, 1e-9)]
    for _ in range(max(points // 4, 20)):
        cases.append((int(round(log_uniform(rng, 1, 1e6))), int(round(log_uniform(rng, 1, 1000))),
                      log_uniform(rng, 1e-3, 10),
                      rng.choice([0.0, log_uniform(rng, 1e-320, 1e-140)]),
                      log_uniform(rng, 1e-300, 1e-140), rng.randint(1, 16),
                      log_uniform(rng, 1e-12, 0.9), log_uniform(rng, 1e-300, 0.5)))
    results = run(program, ["mean " + " ".join(repr(v) for v in case) for case in cases])
    checked = refused = 0
    for (n, d, rho, r0, s, t, beta, delta), got in zip(cases, results):
        what = f"mean plan n={n} d={d} rho={rho!r} r={r0!r} s={s!r} t={t} beta={beta!r}"
        if got["status"] == "DPCOV_E_INVALID_ARGUMENT":
            radii = exact_radii(n, d, rho, r0, s, t, beta)
            c.ok(min(radii) < SMALLEST_ROW_BOUND * (1 + mpf("1e-12")),
                 f"{what}: refused ({got.get('message', '')}) with every exact R_i >= 2^-960")
            c.ok("scale = " in got.get("message", "") and "2^-960" in got.get("message", ""),
                 f"{what}: the refusal names the scale and the range ({got.get('message', '')})")
            refused += 1
            continue
        if got["status"] != "DPCOV_OK":
            # Only a radius chain or a noise scale beyond the doubles may be refused here.
            c.ok(got["status"] in ("DPCOV_E_NUMERICAL", "DPCOV_E_NON_FINITE"),
                 f"{what}: refused with {got['status']} ({got.get('message', '')})")
            continue
        checked += 1
        values = ([got["tail_radius"], got["epsilon"]] + got["step_rho"] + got["step_clip_radius"]
                  + got["step_sigma"])
        c.ok(all(math.isfinite(v) for v in values) and got["epsilon"] >= 0, "finite " + what)
        lb = log(1 / mpf(beta))
        gamma = sqrt(d + 2 * sqrt(d * lb) + 2 * lb)
        c.close(got["tail_radius"], gamma, 1e-15, "gamma " + what)
        shares = got["step_rho"]
        c.ok(len(shares) == t, "number of shares " + what)
        c.ok(sum(mpf(x) for x in shares) <= mpf(rho), "shares sum to at most rho " + what)
        for i, (share, want) in enumerate(zip(shares, expected_shares(rho, t))):
            c.ok(mpf(share) <= want, f"share {i} rounded down " + what)
            c.close(share, want, 1e-15, f"share {i} " + what)
        s_, n_, radius = mpf(s), mpf(n), mpf(r0)
        for i, (share, clip, sigma) in enumerate(zip(shares, got["step_clip_radius"], got["step_sigma"])):
            exact_clip = min(sqrt(radius ** 2 + 6 * radius * s_ + (s_ * gamma) ** 2), radius + s_ * gamma)
            exact_sigma = sqrt(2) * exact_clip / (n_ * sqrt(mpf(shares[i])))
            c.close(clip, exact_clip, 1e-12, f"R_{i} " + what)
            c.close(sigma, exact_sigma, 1e-12, f"sigma_{i} chain " + what)
            # Privacy: against the radius actually used and the share actually spent.
            safe = (2 * mpf(clip) / n_) / sqrt(2 * mpf(share))
            c.not_below(sigma, safe, f"sigma_{i} " + what)
            c.close(sigma, safe, 1e-15, f"sigma_{i} " + what)
            radius = gamma * sqrt(s_ ** 2 / n_ + exact_sigma ** 2)
        exact = exact_epsilon(rho, delta)
        c.not_below(got["epsilon"], max(exact, 0), "receipt epsilon " + what)
        if exact > 0:
            c.close(got["epsilon"], exact, 1e-9, "receipt epsilon " + what)
    print(f"coinpress_mean: {checked} of {len(cases)} plans checked, {refused} refused as below "
          "2^-960")
    c.ok(refused >= 3, "the refusals below 2^-960 are exercised")

    tiny = [k * DENORM_MIN for k in (1, 7, 8, 16, 17)]
    rhos = ([0.5, 0.1, 1e-300, 1.7e308] + tiny
            + [log_uniform(rng, 1e-300, 1e300) for _ in range(points)])
    for rho, got in zip(rhos, run(program, [f"split {r!r}" for r in rhos])):
        what = f"centring split rho={rho!r}"
        # Up to 8 smallest subnormals, rho / 8 is at most one of them and rounding it down (one
        # step, below the normal range) gives 0: no budget to give, refused. From 16 on, both
        # shares are positive; in between, either answer is safe.
        if rho <= 8 * DENORM_MIN:
            c.status(got, "DPCOV_E_NUMERICAL", what + " (a share rounds down to 0)")
            continue
        if rho < 16 * DENORM_MIN and got["status"] == "DPCOV_E_NUMERICAL":
            continue
        c.status(got, "DPCOV_OK", what)
        m, v = mpf(got["rho_mean"]), mpf(got["rho_covariance"])
        c.ok(m + v <= mpf(rho), what + ": shares sum to at most rho")
        c.ok(m <= mpf(rho) / 8 and v <= 7 * mpf(rho) / 8, what + ": shares rounded down")
        if rho > 1e-300:
            c.close(m, mpf(rho) / 8, 1e-15, what + " mean")
            c.close(v, 7 * mpf(rho) / 8, 1e-15, what + " covariance")

    bad = ["split 0", "split -1", "split nan", "split inf",
           "mean 0 10 0.5 10 1 3 0.01 1e-6", "mean 10 0 0.5 10 1 3 0.01 1e-6",
           "mean 10 10 0 10 1 3 0.01 1e-6", "mean 10 10 0.5 -1 1 3 0.01 1e-6",
           "mean 10 10 0.5 10 0 3 0.01 1e-6", "mean 10 10 0.5 10 -1 3 0.01 1e-6",
           "mean 10 10 0.5 10 1 0 0.01 1e-6", "mean 10 10 0.5 10 1 17 0.01 1e-6",
           "mean 10 10 0.5 10 1 3 1 1e-6", "mean 10 10 0.5 10 1 3 0 1e-6",
           "mean 10 10 0.5 10 1 3 0.01 1", "mean 10 10 0.5 10 1 3 0.01 0",
           "mean 10 10 0.5 nan 1 3 0.01 1e-6", "mean 10 10 0.5 inf 1 3 0.01 1e-6",
           "mean 10 10 0.5 1.797e308 1e305 3 0.01 1e-6", "mean 10 10 0.5 1 1e308 3 0.01 1e-6"]
    for request, r in zip(bad, run(program, bad)):
        c.ok(r["status"] != "DPCOV_OK", "refused: " + request)

    # A radius above DBL_MAX / 2 whose sensitivity 2 R / n is finite: the plan used to double R
    # first and refuse with an infinite sensitivity.
    # r = 1e308 and s = 1e300 over three steps were refused because r^2 or s^2 overflowed (the
    # radii are now computed scaled by a power of two).
    far = [(10, 1, 1e4, 1e308, 1.0, 1, 0.5, 1e-6), (3, 2, 1e4, 7e307, 1.0, 1, 0.5, 1e-6),
           (200, 3, 0.5, 1e308, 1.0, 3, 0.01, 1e-6), (200, 3, 0.5, 1.0, 1e300, 3, 0.01, 1e-6)]
    for case, got in zip(far, run(program, ["mean " + " ".join(repr(v) for v in f) for f in far])):
        n, rho = case[0], case[2]
        what = f"mean plan at the top of the range {case!r}"
        c.status(got, "DPCOV_OK", what)
        if got["status"] == "DPCOV_OK":
            c.not_below(got["step_sigma"][0], 2 * mpf(got["step_clip_radius"][0]) / n
                        / sqrt(2 * mpf(got["step_rho"][0])), what)
    c.exit()


if __name__ == "__main__":
    if len(sys.argv) == 4:
        main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
    else:
        main(sys.argv[1])
