"""Checks the constants and the counterexample of proofs/glasso_output.md (Wang, Huai, Xu 2018,
Alg. 1, output perturbation around the graphical lasso).

Usage: glasso_output.py <plan_receipts program>
- refused without the audit unlock (DPCOV_E_NOT_PRIVATE), under add/remove, for rho <= 0 and n < 1;
  without rho (dpcov_mechanism_plan) it is refused too;
- scale c = d^{5/2} B^2 / (n eps rho^2), never below the exact value, dof = d + 1, not_dp = 1;
  the worked values of constants.md section 7 (3.16228 at rho = 0.1, 0.126491 at rho = 0.5);
- c equals sqrt(d) * (d/rho)^2 * (2 B^2/n) / (2 eps), the reconstruction of the proof (section 2);
- the support miss of the counterexample: P[c chi2_2 < a] with a = B^2 / (rho (n rho + B^2)),
  by the regularised incomplete gamma function, equals 1 - exp(-eps n rho / (2 d^{5/2} (n rho + B^2))).
"""
import sys

from mpmath import exp, gammainc, mpf, sqrt

from receipts import Checker, plan


def main(program):
    c = Checker("glasso_output")
    refusals = plan(program, [
        "glasso_output_wishart 10 10000 1 1 0 rho=0.1",
        "glasso_output_wishart 10 10000 1 1 0 audit=1 neighbour=add_remove rho=0.1",
        "glasso_output_wishart 10 10000 1 1 0 audit=1 rho=-0.1",
        "glasso_output_wishart 10 0 1 1 0 audit=1 rho=0.1",
        "glasso_output_wishart 10 10000 1 1 0 audit=1",
    ])
    for r, expected, what in zip(refusals, ["DPCOV_E_NOT_PRIVATE", "DPCOV_E_INVALID_ARGUMENT",
                                            "DPCOV_E_INVALID_ARGUMENT", "DPCOV_E_DIMENSION",
                                            "DPCOV_E_INVALID_ARGUMENT"],
                                 ["no unlock", "add/remove", "rho < 0", "n = 0", "no rho"]):
        c.status(r, expected, what)

    cases, requests = [], []
    for d in (1, 3, 10, 50):
        for n in (1, 178, 10000):
            for bound in ("1", "2.5"):
                for eps in ("0.5", "1", "1.5"):
                    for rho in ("0.01", "0.1", "0.5"):
                        cases.append((d, n, bound, eps, rho))
                        requests.append(
                            f"glasso_output_wishart {d} {n} {bound} {eps} 0 audit=1 rho={rho}")
    for (d, n, bound, eps, rho), r in zip(cases, plan(program, requests)):
        what = f"d={d} n={n} B={bound} eps={eps} rho={rho}"
        c.status(r, "DPCOV_OK", what)
        c.ok(r["not_dp"] == 1 and r["delta"] == 0, "not_dp, delta 0 " + what)
        c.ok(r["dof"] == d + 1, "dof " + what)
        c.ok(r["glasso_rho"] == float(rho), "receipt records rho " + what)
        b, e, p = mpf(r["bound"]), mpf(r["epsilon"]), mpf(rho)
        exact = mpf(d) ** mpf("2.5") * b ** 2 / (n * e * p ** 2)
        # Six operations, each rounded up by at most one ulp.
        c.close(r["scale"], exact, 1.5e-15, "scale " + what)
        c.not_below(r["scale"], exact, "scale rounded up " + what)
        # Reconstruction: trace-norm sensitivity sqrt(d) * beta^2 * (2 B^2 / n), over 2 eps.
        beta = mpf(d) / p
        c.close(r["scale"], sqrt(d) * beta ** 2 * (2 * b ** 2 / n) / (2 * e), 1.5e-15,
                "reconstruction " + what)
        # Counterexample: Theta_D - Theta_D' = a e1 e1^T; support miss P[c chi2_2 < a].
        a = b ** 2 / (p * (n * p + b ** 2))
        miss = gammainc(mpf(r["dof"] - d + 1) / 2, 0, a / mpf(r["scale"]) / 2, regularized=True)
        closed = 1 - exp(-e * n * p / (2 * mpf(d) ** mpf("2.5") * (n * p + b ** 2)))
        c.close(miss, closed, 1e-12, "support miss " + what)
        c.ok(miss > 0, "support miss positive " + what)

    worked = plan(program, ["glasso_output_wishart 10 10000 1 1 0 audit=1 rho=0.1",
                            "glasso_output_wishart 10 10000 1 1 0 audit=1 rho=0.5",
                            "glasso_output_wishart 1 1 1 1 0 audit=1 rho=1"])
    c.close(worked[0]["scale"], "3.16227766016837933", 1e-15, "worked rho = 0.1")
    c.close(worked[1]["scale"], "0.126491106406735173", 1e-15, "worked rho = 0.5")
    c.ok(round(worked[0]["scale"], 5) == 3.16228, "spec value 3.16228")
    c.ok(round(worked[1]["scale"], 6) == 0.126491, "spec value 0.126491")
    one = 1 - exp(-mpf(1) / 4)
    # d = n = rho = B = 1: a = 1/2, c = 1, so P[chi2_2 < 1/2] = 1 - e^{-1/4}.
    c.close(gammainc(1, 0, mpf("0.5") / worked[2]["scale"] / 2, regularized=True), one, 1e-15,
            "d = n = rho = 1 pair")
    ten = 1 - exp(-mpf(10000) * mpf("0.1") / (2 * mpf(10) ** mpf("2.5") * (1000 + 1)))
    print(f"support miss: d=n=rho=eps=1 {float(one):.6f}; d=10 n=1e4 rho=0.1 eps=1 "
          f"{float(ten):.6e}; n -> inf, d=1, eps=1 {float(1 - exp(-mpf(1) / 2)):.6f}")
    c.exit()


if __name__ == "__main__":
    main(sys.argv[1])
