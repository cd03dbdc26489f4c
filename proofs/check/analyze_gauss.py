"""Checks the Analyze Gauss constants (proofs/analyze_gauss.md) against mpmath at 50 digits.

Usage: analyze_gauss.py <plan_receipts program>
- sensitivity: sqrt(2) B^2 (replace-one), B^2 (add/remove), never below the exact value;
- analytic sigma: the exact root of Balle-Wang's delta(sigma) = delta, found here by bisection in
  mpmath; the library's sigma must satisfy delta(sigma) <= delta exactly and lie within 1e-11 of
  the root;
- bounds from 1 down to 2^-960 (the smallest row bound accepted): from B = 2^-500 on, the same
  checks (sensitivity never below the exact value, delta(sigma) <= delta exactly, sigma within
  1e-11 of the exact root and not below it); below, refused with DPCOV_E_INVALID_ARGUMENT naming
  2^-500 (proofs/analyze_gauss.md, "Small bounds");
- classical sigma: Delta sqrt(2 ln(1.25/delta)) / eps, not below it, refused for eps >= 1;
- the constants.md table.
"""
import math
import random
import sys

from mpmath import exp, log, mpf, ncdf, sqrt

from receipts import Checker, plan


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

    # Bounds down to 2^-960: powers of two, random mantissas, both sides of 2^-500 (refused
    # below it) and of 2^-511 (B^2 subnormal below it).
    rng = random.Random(20261124)
    bounds = [math.ldexp(1.0, -k) for k in range(0, 961, 40)] + [math.ldexp(1.0, -960)]
    bounds += [math.ldexp(rng.uniform(1, 2), -rng.randint(400, 959)) for _ in range(24)]
    for edge in (-500, -511, -537):
        bounds += [math.nextafter(math.ldexp(1.0, edge), 0), math.ldexp(1.0, edge),
                   math.nextafter(math.ldexp(1.0, edge), 1)]
    cases = [(b, rng.choice(["0.1", "1", "8"]), rng.choice(["1e-10", "1e-6", "1e-3"]),
              rng.choice(["replace", "add_remove"])) for b in bounds]
    got = plan(program, [f"analyze_gauss 4 100 {b!r} {e} {dl} neighbour={nb}"
                         for b, e, dl, nb in cases])
    released = 0
    for (bound, eps, delta, neighbour), r in zip(cases, got):
        what = f"B={bound!r} eps={eps} delta={delta} {neighbour}"
        if bound < math.ldexp(1.0, -500):
            c.status(r, "DPCOV_E_INVALID_ARGUMENT", what)
            c.ok("2^-500" in r.get("message", ""), "the refusal names 2^-500 " + what)
            continue
        c.status(r, "DPCOV_OK", what)
        if r["status"] != "DPCOV_OK":
            continue
        released += 1
        sens = mpf(bound) ** 2 * (sqrt(2) if neighbour == "replace" else 1)
        c.not_below(r["sensitivity"], sens, "sensitivity " + what)
        c.close(r["sensitivity"], sens, 5e-16, "sensitivity " + what)
        c.ok(delta_of(r["sigma"], eps, r["sensitivity"]) <= mpf(delta),
             "delta(sigma) <= delta " + what)
        root = exact_sigma(eps, mpf(delta), r["sensitivity"])
        c.not_below(r["sigma"], root, "sigma " + what)
        c.close(r["sigma"], root, 1e-11, "sigma " + what)
    c.ok(released >= 15, f"{released} small bounds released")

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
