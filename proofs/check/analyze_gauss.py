"""Checks the Analyze Gauss constants (proofs/analyze_gauss.md) against mpmath at 50 digits.

Usage: analyze_gauss.py <plan_receipts program>
- sensitivity: sqrt(2) B^2 (replace-one), B^2 (add/remove), never below the exact value;
- analytic sigma: the exact root of Balle-Wang's delta(sigma) = delta, found here by bisection in
  mpmath; the library's sigma must satisfy delta(sigma) <= delta exactly and lie within 1e-11 of
  the root;
- bounds from 1 down to 2^-960 (the smallest accepted): B^2 is subnormal below B = 2^-511 and
  below 2^-537 rounds up to the smallest subnormal, so there the sensitivity is within three
  subnormal steps of the exact value (one for the square, sqrt 2 of it and one for the product by
  sqrt 2), never below it; sigma is within one step of the exact root at the receipt's
  sensitivity, not below it, and delta(sigma) <= delta holds exactly;
- classical sigma: Delta sqrt(2 ln(1.25/delta)) / eps, not below it, refused for eps >= 1;
- the constants.md table.
"""
import math
import random
import sys

from mpmath import exp, log, mpf, ncdf, sqrt

from receipts import Checker, plan

DENORM_MIN = math.ldexp(1.0, -1074)  # the smallest positive double


def delta_of(sigma, eps, sens):
    sigma, eps, sens = mpf(sigma), mpf(eps), mpf(sens)
    a, b = sens / (2 * sigma), eps * sigma / sens
    return ncdf(a - b) - exp(eps) * ncdf(-a - b)


def exact_sigma(eps, delta, sens):
    lo, hi = mpf(0), mpf(sens)
    while delta_of(hi, eps, sens) > delta:
        lo, hi = hi, 2 * hi
    for _ in range(200):
        mid = (lo + hi) / 2
        if delta_of(mid, eps, sens) <= delta:
            hi = mid
        else:
            lo = mid
    return hi


def main(program):
    c = Checker("analyze_gauss")
    cases, requests = [], []
    for d in (10, 100):
        for bound in ("1", "2.5"):
            for eps in ("0.1", "0.5", "1", "2", "8"):
                for delta in ("1e-10", "1e-6", "1e-3"):
                    for neighbour in ("replace", "add_remove"):
                        cases.append((d, bound, eps, delta, neighbour))
                        requests.append(f"analyze_gauss {d} 10000 {bound} {eps} {delta} "
                                        f"neighbour={neighbour}")
    for (d, bound, eps, delta, neighbour), r in zip(cases, plan(program, requests)):
        what = f"d={d} B={bound} eps={eps} delta={delta} {neighbour}"
        c.status(r, "DPCOV_OK", what)
        b2 = mpf(r["bound"]) ** 2
        sens = b2 * (sqrt(2) if neighbour == "replace" else 1)
        c.close(r["sensitivity"], sens, 5e-16, "sensitivity " + what)
        c.not_below(r["sensitivity"], sens, "sensitivity " + what)
        c.ok(delta_of(r["sigma"], eps, r["sensitivity"]) <= mpf(delta),
             "delta(sigma) <= delta " + what)
        c.close(r["sigma"], exact_sigma(eps, mpf(delta), sens), 1e-11, "sigma " + what)

    # Bounds down to 2^-960: powers of two, random mantissas, the edges of the subnormal squares.
    rng = random.Random(20261124)
    bounds = [math.ldexp(1.0, -k) for k in range(0, 961, 40)] + [math.ldexp(1.0, -960)]
    bounds += [math.ldexp(rng.uniform(1, 2), -rng.randint(480, 959)) for _ in range(24)]
    bounds += [math.nextafter(math.ldexp(1.0, -537), 1), math.ldexp(1.0, -511),
               math.nextafter(math.ldexp(1.0, -960), 1)]
    cases = [(b, rng.choice(["0.1", "1", "8"]), rng.choice(["1e-10", "1e-6", "1e-3"]),
              rng.choice(["replace", "add_remove"])) for b in bounds]
    got = plan(program, [f"analyze_gauss 4 100 {b!r} {e} {dl} neighbour={nb}"
                         for b, e, dl, nb in cases])
    for (bound, eps, delta, neighbour), r in zip(cases, got):
        what = f"B={bound!r} eps={eps} delta={delta} {neighbour}"
        c.status(r, "DPCOV_OK", what)
        if r["status"] != "DPCOV_OK":
            continue
        sens = mpf(bound) ** 2 * (sqrt(2) if neighbour == "replace" else 1)
        c.not_below(r["sensitivity"], sens, "sensitivity " + what)
        c.ok(mpf(r["sensitivity"]) <= max(sens * (1 + mpf("5e-16")), sens + 3 * DENORM_MIN),
             "sensitivity within three subnormal steps " + what)
        c.ok(delta_of(r["sigma"], eps, r["sensitivity"]) <= mpf(delta),
             "delta(sigma) <= delta " + what)
        root = exact_sigma(eps, mpf(delta), r["sensitivity"])
        c.not_below(r["sigma"], root, "sigma " + what)
        c.ok(mpf(r["sigma"]) - root <= root * mpf("1e-11") + DENORM_MIN,
             f"sigma {r['sigma']!r} within 1e-11 or one subnormal step of {root} " + what)

    requests, cases = [], []
    for eps in ("0.1", "0.5", "0.999"):
        for delta in ("1e-10", "1e-6", "1e-3"):
            for neighbour in ("replace", "add_remove"):
                cases.append((eps, delta, neighbour))
                requests.append(f"analyze_gauss 10 10000 1 {eps} {delta} neighbour={neighbour} "
                                "calibration=classical")
    for (eps, delta, neighbour), r in zip(cases, plan(program, requests)):
        what = f"classical eps={eps} delta={delta} {neighbour}"
        sens = sqrt(2) if neighbour == "replace" else mpf(1)
        exact = sens * sqrt(2 * log(mpf("1.25") / mpf(delta))) / mpf(eps)
        c.close(r["sigma"], exact, 1e-15, what)
        c.not_below(r["sigma"], exact, what)
    for eps in ("1", "3"):
        r = plan(program, [f"analyze_gauss 10 10000 1 {eps} 1e-6 calibration=classical"])[0]
        c.status(r, "DPCOV_E_PRECONDITION", f"classical refused at eps={eps}")

    # constants.md section 2.
    table = [("1", "1e-6", "add_remove", 4.224679), ("1", "1e-6", "replace", 5.974598),
             ("0.5", "1e-5", "add_remove", 7.031827), ("0.5", "1e-6", "add_remove", 8.057618),
             ("0.5", "1e-6", "replace", 11.395193), ("1", "1e-5", "replace", 5.275910)]
    got = plan(program, [f"analyze_gauss 10 10000 1 {e} {dl} neighbour={nb}"
                         for e, dl, nb, _ in table])
    for (e, dl, nb, value), r in zip(table, got):
        c.close(r["sigma"], value, 1e-6, f"table eps={e} delta={dl} {nb}")
    c.exit()


if __name__ == "__main__":
    main(sys.argv[1])
