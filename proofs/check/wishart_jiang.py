"""Checks the Jiang et al. Wishart constants and the counterexample of proofs/wishart_jiang.md.

Usage: wishart_jiang.py <plan_receipts program>
- the plan refuses without the audit unlock (DPCOV_E_NOT_PRIVATE) and marks not_dp with it;
- scale = 3 B^2 / (2 eps) on G (3 / (2 n eps) on S = G / n: 1.5e-4 at n = 1e4, eps = 1), dof = d+1;
- the support-miss probability: for v of norm B, P[v^T W^{-1} v > 1] with W ~ W_d(d+1, c I) is
  P[chi2_2 < B^2 / c] (the ratio (v^T C^{-1} v) / (v^T W^{-1} v) ~ chi2_{k-d+1}), computed here
  with the regularised incomplete gamma function and compared with 1 - exp(-eps/3).
"""
import sys

from mpmath import exp, gammainc, mpf

from receipts import Checker, plan


def main(program):
    c = Checker("wishart_jiang")
    r = plan(program, ["wishart_jiang 10 10000 1 1 0"])[0]
    c.status(r, "DPCOV_E_NOT_PRIVATE", "refused without the unlock")
    cases, requests = [], []
    for d in (1, 2, 10, 100):
        for bound in ("1", "3"):
            for eps in ("0.5", "1", "2"):
                cases.append((d, bound, eps))
                requests.append(f"wishart_jiang {d} 10000 {bound} {eps} 0 audit=1")
    for (d, bound, eps), r in zip(cases, plan(program, requests)):
        what = f"d={d} B={bound} eps={eps}"
        c.status(r, "DPCOV_OK", what)
        c.ok(r["not_dp"] == 1, "not_dp " + what)
        c.ok(r["dof"] == d + 1, "dof " + what)
        scale = 3 * mpf(r["bound"]) ** 2 / (2 * mpf(eps))
        c.close(r["scale"], scale, 2.3e-16, "scale " + what)
        # Support miss: chi2 with k - d + 1 = 2 degrees of freedom below B^2 / c = 2 eps / 3.
        k_minus_d_plus_1 = r["dof"] - d + 1
        miss = gammainc(mpf(k_minus_d_plus_1) / 2, 0, mpf(r["bound"]) ** 2 / scale / 2,
                        regularized=True)
        c.close(miss, 1 - exp(-mpf(eps) / 3), 1e-14, "support miss " + what)
    worked = plan(program, ["wishart_jiang 10 10000 1 1 0 audit=1",
                            "wishart_jiang 10 10000 1 0.5 0 audit=1"])
    c.close(worked[0]["scale"] / 10000, "1.5e-4", 1e-15, "published 3/(2 n eps) at eps = 1")
    c.close(worked[1]["scale"] / 10000, "3e-4", 1e-15, "published 3/(2 n eps) at eps = 0.5")
    print(f"support miss 1 - exp(-eps/3): eps=1 {float(1 - exp(-mpf(1) / 3)):.6f}, "
          f"eps=0.5 {float(1 - exp(-mpf('0.5') / 3)):.6f}")
    c.exit()


if __name__ == "__main__":
    main(sys.argv[1])
