"""Checks the Kapralov-Talwar baseline's constants (proofs/kt_rank1.md): the receipts of
dpcov_mechanism_plan() for kt_rank1 carry exactly IEV's constants (same checks as proofs/check/iev.py)
and name their own proof; the adaptive split and the sensitivities are shared with IEV and checked
there. The score change of step i is theta^T (G' - G) theta as for IEV, because the subtracted
rank-one terms are released values (checked here on random transcripts with mpmath).

Usage: kt_rank1.py <plan_receipts program> <iev_split program>
"""
import random
import sys

from mpmath import mpf, sqrt

from iev import check_defaults, check_receipts, explicit
from receipts import Checker, plan


def check_same_constants_as_iev(c, program):
    lines = ["10 1000 1 1 0", "7 50 0.5 0.3 0 split=adaptive", "3 10 2 4 0 neighbour=add_remove",
             "5 10 1 1 0 calibration=bingham_sensitivity rank=2"]
    iev = plan(program, ["iev " + explicit(x) for x in lines])
    kt = plan(program, ["kt_rank1 " + explicit(x) for x in lines])
    for a, b, line in zip(iev, kt, lines):
        for key in a:
            if key not in ("mechanism", "theorem"):
                c.ok(a[key] == b[key], f"{line}: {key} iev {a[key]!r} == kt_rank1 {b[key]!r}")


def check_score_change_ignores_released_terms(c):
    rng = random.Random(8)
    for _ in range(50):
        d = rng.randint(1, 5)
        v = [mpf(rng.gauss(0, 1)) for _ in range(d)]
        w = [mpf(rng.gauss(0, 1)) for _ in range(d)]
        nv, nw = sqrt(sum(x * x for x in v)), sqrt(sum(x * x for x in w))
        v, w = [x / nv for x in v], [x / nw for x in w]
        theta = [mpf(rng.gauss(0, 1)) for _ in range(d)]
        nt = sqrt(sum(x * x for x in theta))
        theta = [x / nt for x in theta]
        released = [(mpf(rng.gauss(0, 10)), [mpf(rng.gauss(0, 1)) for _ in range(d)]) for _ in range(3)]

        def score(extra):
            total = sum((sum(theta[i] * x[i] for i in range(d))) ** 2 for x in extra)
            for lam, u in released:
                total -= lam * sum(theta[i] * u[i] for i in range(d)) ** 2
            return total

        change = score([w]) - score([v])
        c.ok(abs(change) <= 1 + mpf("1e-40"), "KT score change within B^2 for any released terms")


def main(program, split_program):
    c = Checker("kt_rank1")
    check_receipts(c, program, "kt_rank1")
    check_same_constants_as_iev(c, program)
    check_defaults(c, program)
    check_score_change_ignores_released_terms(c)
    c.exit()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
