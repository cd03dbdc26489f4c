"""Checks the additive Wishart constants (proofs/wishart_additive.md).

Usage: wishart_additive.py <plan_receipts program>
- k = ceil(d + 14 ln(4/delta) / eps^2) computed exactly in mpmath, scale = B^2;
- refusals: eps >= 1, delta >= 1/e (the theorem's preconditions);
- the exact add/remove delta of the mechanism at (d = 10, eps -> 1, delta = 1e-6, k = 223), from the
  privacy-loss distribution of constants.md section 5.4, is far below delta.
"""
import sys

from mpmath import ceil, e, exp, gamma, inf, log, log1p, mpf, quad

from receipts import Checker, plan


def exact_k(d, eps, delta):
    return ceil(d + 14 * log(4 / mpf(delta)) / mpf(eps) ** 2)


def chi2_pdf(x, k):
    k = mpf(k)
    return x ** (k / 2 - 1) * exp(-x / 2) / (2 ** (k / 2) * gamma(k / 2))


def add_remove_delta(d, k, eps):
    """max over the two directions of E[(1 - e^{eps - L})_+], X ~ chi2_{k-d+1} (section 5.4)."""
    m, eps = k - d - 1, mpf(eps)
    nu = k - d + 1

    def present(x):  # L = -(m/2) ln(1 + 1/X) + 1/2 <= 1/2 < eps for eps >= 1/2
        loss = -(mpf(m) / 2) * log1p(1 / x) + mpf(1) / 2
        return max(0, 1 - exp(eps - loss)) * chi2_pdf(x, nu)

    def absent(x):  # L' = -(m/2) ln(1 - 1/X) - 1/2, infinite for X <= 1
        loss = -(mpf(m) / 2) * log1p(-1 / x) - mpf(1) / 2
        return max(0, 1 - exp(eps - loss)) * chi2_pdf(x, nu)

    mass_below_one = quad(lambda x: chi2_pdf(x, nu), [0, 1])
    # L' > eps only for X close to 1 from above: integrate where it matters.
    upper = 1 / (1 - exp(-2 * (eps + mpf(1) / 2) / m))
    tail = quad(absent, [1, (1 + upper) / 2, upper])
    return max(quad(present, [mpf(1) / 1000, 1, 10, inf]), mass_below_one + tail)


def main(program):
    c = Checker("wishart_additive")
    cases, requests = [], []
    for d in (1, 10, 100, 1000):
        for bound in ("1", "0.3", "4"):
            for eps in ("0.05", "0.5", "0.9", "0.9999999999999999"):
                for delta in ("1e-12", "1e-6", "1e-3", "0.3678794411714423"):
                    cases.append((d, bound, eps, delta))
                    requests.append(f"wishart_additive {d} 1000 {bound} {eps} {delta}")
    for (d, bound, eps, delta), r in zip(cases, plan(program, requests)):
        what = f"d={d} B={bound} eps={eps} delta={delta}"
        c.status(r, "DPCOV_OK", what)
        c.ok(mpf(r["dof"]) == exact_k(d, mpf(eps), mpf(delta)), f"k {what}: {r['dof']}")
        c.close(r["scale"], mpf(r["bound"]) ** 2, 2.3e-16, "scale " + what)
        c.not_below(r["scale"], mpf(r["bound"]) ** 2, "scale " + what)
    for eps, delta in (("1", "1e-6"), ("1.5", "1e-6"), ("0.5", "0.36787944117144233"),
                       ("0.5", "0.5")):
        r = plan(program, [f"wishart_additive 10 100 1 {eps} {delta}"])[0]
        c.status(r, "DPCOV_E_PRECONDITION", f"refused at eps={eps} delta={delta}")
    c.ok(mpf("0.36787944117144233") > 1 / e and mpf("0.3678794411714423") < 1 / e,
         "the doubles around 1/e")

    table = plan(program, ["wishart_additive 10 10000 1 0.5 1e-6",
                           "wishart_additive 10 10000 1 0.9999999999999999 1e-6",
                           "wishart_additive 10 10000 1 0.9999999999999999 1e-3"])
    for r, k in zip(table, (862, 223, 127)):
        c.ok(r["dof"] == k, f"table k = {k}: {r['dof']}")
    # The exact add/remove delta at the table's points (constants.md section 5.4 gives 2.5e-26,
    # 4.7e-53 and 3.9e-15 there; this integral of its own formula gives 8.5e-24, 2.3e-40 and
    # 2.1e-14, also found with scipy: all far below delta, which is what matters).
    for d, k, eps, delta, expected in ((10, 223, 1, "1e-6", "8.526e-24"),
                                       (10, 862, "0.5", "1e-6", "2.327e-40"),
                                       (10, 127, 1, "1e-3", "2.068e-14")):
        exact_delta = add_remove_delta(d, k, mpf(eps))
        print(f"exact add/remove delta at d={d}, eps={eps}, k={k}: {float(exact_delta):.4e}")
        c.ok(exact_delta < mpf(delta), f"exact delta below the target at k={k}")
        c.close(exact_delta, expected, 1e-3, f"exact delta at k={k}")
    c.exit()


if __name__ == "__main__":
    main(sys.argv[1])
