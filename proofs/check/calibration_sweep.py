"""Calibration sweep (proofs/analyze_gauss.md, "Certification"): every constant calculator that
turns (epsilon, delta, B, d) into a noise scale, at random log-uniform points over the whole
documented range, compared with mpmath at 50 digits. Each returned constant must be on the safe
side of the exact requirement (not below it by even one ulp) or the plan must refuse with a status
other than DPCOV_OK; an OK with a zero, NaN or infinite constant is a failure.

Usage: calibration_sweep.py <plan_receipts program> <points> <seed>

Ranges: epsilon in [1e-6, 100], delta in [1e-300, 0.5], B in [1e-150, 1e150], d in [1, 46340]
(the largest d with d^2 a BLAS integer), all log-uniform; neighbour relation at random.
Calculators (the list of proofs/analyze_gauss.md, "Certification"):
- analytic Gaussian sigma (Balle-Wang 2018 Thm 8): exact delta(sigma) <= delta;
- classical Gaussian sigma (Dwork-Roth Thm A.1, eps < 1): sigma >= Delta sqrt(2 ln(1.25/delta))/eps;
- Gram sensitivity: sqrt(2) B^2 (replace-one), B^2 (add/remove);
- symmetric Laplace scale (upper-triangle L1): (d+1) B^2/eps (replace), (d+1) B^2/(2 eps).
"""
import math
import random
import sys

from mpmath import exp, log, mp, mpf, ncdf, sqrt

from receipts import Checker, plan

mp.dps = 50


def delta_of(sigma, eps, sens):
    sigma, eps, sens = mpf(sigma), mpf(eps), mpf(sens)
    a, b = sens / (2 * sigma), eps * sigma / sens
    return ncdf(a - b) - exp(eps) * ncdf(-a - b)


def log_uniform(rng, lo, hi):
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))


def finite_positive(r, key):
    return isinstance(r[key], (int, float)) and math.isfinite(r[key]) and r[key] > 0


def main(program, points, seed):
    rng = random.Random(seed)
    c = Checker("calibration_sweep")
    cases, requests = [], []
    for _ in range(points):
        eps = log_uniform(rng, 1e-6, 100)
        delta = log_uniform(rng, 1e-300, 0.5)
        bound = log_uniform(rng, 1e-150, 1e150)
        d = int(round(log_uniform(rng, 1, 46340)))
        neighbour = rng.choice(("replace", "add_remove"))
        for mech, option in (("analyze_gauss", "calibration=analytic"),
                             ("analyze_gauss", "calibration=classical"),
                             ("laplace_sym", "")):
            cases.append((mech, option, d, bound, eps, delta, neighbour))
            requests.append(f"{mech} {d} 1000 {bound!r} {eps!r} {delta!r} "
                            f"neighbour={neighbour} {option}".strip())
    refused = {}
    for (mech, option, d, bound, eps, delta, neighbour), r in zip(cases, plan(program, requests)):
        what = f"{mech} {option} d={d} B={bound!r} eps={eps!r} delta={delta!r} {neighbour}"
        if r["status"] != "DPCOV_OK":
            refused[(mech, option, r["status"])] = refused.get((mech, option, r["status"]), 0) + 1
            continue
        b2 = mpf(r["bound"]) ** 2
        if mech == "analyze_gauss":
            sens = b2 * (sqrt(2) if neighbour == "replace" else 1)
            c.ok(finite_positive(r, "sensitivity") and finite_positive(r, "sigma"),
                 "finite positive constants " + what)
            if not finite_positive(r, "sigma"):
                continue
            c.not_below(r["sensitivity"], sens, "sensitivity " + what)
            if option == "calibration=analytic":
                c.ok(delta_of(r["sigma"], mpf(eps), sens) <= mpf(delta),
                     f"exact delta(sigma) <= delta {what}: sigma {r['sigma']!r}")
            else:
                c.not_below(r["sigma"], sens * sqrt(2 * log(mpf("1.25") / mpf(delta))) / mpf(eps),
                            "classical sigma " + what)
        else:
            sens = (d + 1) * b2 / (1 if neighbour == "replace" else 2)
            c.ok(finite_positive(r, "scale"), "finite positive scale " + what)
            if finite_positive(r, "scale"):
                c.not_below(r["scale"], sens / mpf(eps), "Laplace scale " + what)
    for key, count in sorted(refused.items()):
        print(f"refused (not OK): {key[0]} {key[1]} {key[2]}: {count} of {points}")
    c.exit()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
