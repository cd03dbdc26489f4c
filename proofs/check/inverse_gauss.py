"""Checks the Gaussian-noise-on-the-inverse constants (proofs/inverse_gauss.md).

Usage: inverse_gauss.py <plan_receipts program>
- Delta = c B^2 / theta^4 (domain) or c B^2 / (theta^2 (theta^2 - B^2)) (input), c = sqrt 2
  (replace-one) or 1 (add/remove), not below the exact value;
- sigma: the exact root of Balle-Wang's delta(sigma) = delta for that Delta;
- refusals: no bound, theta^2 <= B^2 with the input scope; the constants.md worked value.
"""
import sys

from mpmath import mpf, sqrt

from analyze_gauss import delta_of, exact_sigma
from receipts import Checker, plan


def main(program):
    c = Checker("inverse_gauss")
    cases, requests = [], []
    for bound in ("1", "0.5"):
        for theta2 in ("2", "1e3", "1e6"):
            for scope in ("domain", "input"):
                for neighbour in ("replace", "add_remove"):
                    for eps in ("0.5", "1", "4"):
                        cases.append((bound, theta2, scope, neighbour, eps))
                        requests.append(f"inverse_gauss 10 10000 {bound} {eps} 1e-6 "
                                        f"lambda_min_bound={theta2} scope={scope} "
                                        f"neighbour={neighbour}")
    for (bound, theta2, scope, neighbour, eps), r in zip(cases, plan(program, requests)):
        what = f"B={bound} theta2={theta2} {scope} {neighbour} eps={eps}"
        c.status(r, "DPCOV_OK", what)
        b2, t2 = mpf(r["bound"]) ** 2, mpf(theta2)
        factor = sqrt(2) if neighbour == "replace" else mpf(1)
        sens = factor * b2 / (t2 * t2 if scope == "domain" else t2 * (t2 - b2))
        c.close(r["sensitivity"], sens, 1e-15, "sensitivity " + what)
        c.not_below(r["sensitivity"], sens, "sensitivity " + what)
        c.ok(delta_of(r["sigma"], eps, r["sensitivity"]) <= mpf("1e-6"), "delta(sigma) " + what)
        c.close(r["sigma"], exact_sigma(eps, mpf("1e-6"), sens), 1e-11, "sigma " + what)
    refused = plan(program, ["inverse_gauss 10 100 1 1 1e-6",
                             "inverse_gauss 10 100 1 1 1e-6 lambda_min_bound=1 scope=input",
                             "inverse_gauss 10 100 2 1 1e-6 lambda_min_bound=3 scope=input"])
    for r in refused:
        c.status(r, "DPCOV_E_PRECONDITION", "refused")
    worked = plan(program, ["inverse_gauss 10 10000 1 1 1e-6 lambda_min_bound=1e3"])[0]
    c.close(worked["sensitivity"], "1.414214e-6", 1e-6, "worked Delta")
    c.close(worked["sigma"], "5.974598e-6", 1e-6, "worked sigma")
    c.exit()


if __name__ == "__main__":
    main(sys.argv[1])
