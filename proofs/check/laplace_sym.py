"""Checks the symmetric Laplace constants (proofs/laplace_sym.md).

Usage: laplace_sym.py <plan_receipts program>
- scale = (d+1) B^2 / eps (replace-one), (d+1) B^2 / (2 eps) (add/remove), 2 d B^2 / eps
  (published), exact to the last bit and never below the exact rational value;
- the sensitivity argument: the upper-triangle L1 norm of v v^T is at most (d+1)/2 with equality
  at v = (1, ..., 1)/sqrt(d) (exact, mpmath); a local search over unit pairs (v, w) stays below
  the replace bound d + 1 and above the add/remove value, and never reaches the published 2d.
"""
import random
import sys

from mpmath import mpf, sqrt

from receipts import Checker, plan


def upper_l1(v, w):
    d = len(v)
    return sum(abs(v[i] * v[j] - w[i] * w[j]) for j in range(d) for i in range(j + 1))


def unit(x):
    n = sum(t * t for t in x) ** 0.5
    return [t / n for t in x]


def search_replace_maximum(d, rng, restarts=30, steps=3000):
    """A crude hill climb for max upper_l1(v, w) over unit v, w (a lower bound on the maximum)."""
    best = 0.0
    for _ in range(restarts):
        v = unit([rng.gauss(0, 1) for _ in range(d)])
        w = unit([rng.gauss(0, 1) for _ in range(d)])
        value, step = upper_l1(v, w), 0.3
        for _ in range(steps):
            v2 = unit([t + step * rng.gauss(0, 1) for t in v])
            w2 = unit([t + step * rng.gauss(0, 1) for t in w])
            value2 = upper_l1(v2, w2)
            if value2 > value:
                v, w, value = v2, w2, value2
            else:
                step *= 0.999
        best = max(best, value)
    return best


def main(program):
    c = Checker("laplace_sym")
    cases, requests = [], []
    for d in (1, 2, 10, 100, 1000):
        for bound in ("1", "0.3", "7"):
            for eps in ("0.1", "0.7", "1", "3"):
                for option in ("neighbour=replace", "neighbour=add_remove",
                               "calibration=published"):
                    cases.append((d, bound, eps, option))
                    requests.append(f"laplace_sym {d} 100 {bound} {eps} 0 {option}")
    for (d, bound, eps, option), r in zip(cases, plan(program, requests)):
        what = f"d={d} B={bound} eps={eps} {option}"
        c.status(r, "DPCOV_OK", what)
        b2 = mpf(r["bound"]) ** 2
        if option == "neighbour=replace":
            sens = (d + 1) * b2
        elif option == "neighbour=add_remove":
            sens = (d + 1) * b2 / 2
        else:
            sens = 2 * d * b2
        c.close(r["sensitivity"], sens, 2.3e-16, "sensitivity " + what)
        c.not_below(r["sensitivity"], sens, "sensitivity " + what)
        c.close(r["scale"], sens / mpf(eps), 4.5e-16, "scale " + what)
        c.not_below(r["scale"], sens / mpf(eps), "scale " + what)
        c.ok(r["delta"] == 0.0 and r["sigma"] == 0.0 and r["dof"] == 0.0, "pure " + what)

    table = plan(program, ["laplace_sym 10 10000 1 1 0 neighbour=add_remove",
                           "laplace_sym 10 10000 1 1 0", "laplace_sym 10 10000 1 1 0 "
                           "calibration=published"])
    c.ok(table[0]["scale"] == 5.5, "table: add/remove b = 5.5")
    c.ok(table[1]["scale"] == 11.0, "table: replace b = 11")
    c.close(table[2]["scale"] / 10000, "0.002", 1e-15, "table: Jiang 2d/(n eps) = 0.002")

    for d in (2, 3, 5, 10):
        flat = [1 / sqrt(d)] * d
        exact = sum(abs(flat[i] * flat[j]) for j in range(d) for i in range(j + 1))
        c.close(exact, mpf(d + 1) / 2, 1e-40, f"add/remove maximiser attains (d+1)/2, d={d}")
    rng = random.Random(20261122)
    for d in (2, 3, 5):
        found = search_replace_maximum(d, rng)
        print(f"replace-one: largest upper-triangle L1 found at d={d}: {found:.4f} "
              f"(bound d+1 = {d + 1}, published 2d = {2 * d})")
        c.ok((d + 1) / 2 <= found <= d + 1, f"search stays within [(d+1)/2, d+1] at d={d}")
    c.exit()


if __name__ == "__main__":
    main(sys.argv[1])
