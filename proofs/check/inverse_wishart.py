"""Checks the inverse-Wishart posterior constants (proofs/inverse_wishart.md).

Usage: inverse_wishart.py <plan_receipts program>
- Alg. 4: dof = m, threshold_w2 = the JL w^2 with r replaced by m; refusals m < d, eps > 1,
  delta >= 1/e;
- Alg. 5: the (eps/2, delta/2) split and the Laplace test constants;
- the exact delta of the posterior (the JL family with the directions swapped: the same maximum
  over both directions, section 5.5) is far below delta at the worked values.
"""
import sys

from mpmath import log, mpf, sqrt

from jl_common import exact_delta, threshold_w2
from receipts import Checker, plan


def main(program):
    c = Checker("inverse_wishart")
    cases, requests = [], []
    for d in (1, 10, 50):
        for eps in ("0.1", "0.5", "1"):
            for delta in ("1e-9", "1e-6", "1e-2"):
                for m in (d, d + 5, 1000):
                    cases.append((d, eps, delta, m))
                    requests.append(f"inverse_wishart {d} 500 2 {eps} {delta} m={m}")
                    requests.append(f"inverse_wishart_sigma_min {d} 500 2 {eps} {delta} m={m}")
    receipts = plan(program, requests)
    for i, (d, eps, delta, m) in enumerate(cases):
        four, five = receipts[2 * i], receipts[2 * i + 1]
        what = f"d={d} eps={eps} delta={delta} m={m}"
        c.status(four, "DPCOV_OK", "alg4 " + what)
        c.status(five, "DPCOV_OK", "alg5 " + what)
        if four["status"] != "DPCOV_OK" or five["status"] != "DPCOV_OK":
            continue
        b, e_, d_ = mpf(four["bound"]), mpf(four["epsilon"]), mpf(four["delta"])
        w2 = threshold_w2(b, e_, d_, m)
        c.ok(four["dof"] == m and five["dof"] == m, "dof " + what)
        c.close(four["threshold_w2"], w2, 1e-15, "alg4 w2 " + what)
        c.not_below(four["threshold_w2"], w2, "alg4 w2 " + what)
        c.not_below(four["appended_w"], sqrt(w2), "alg4 w " + what)
        w2h = threshold_w2(b, e_ / 2, d_ / 2, m)
        c.close(five["threshold_w2"], w2h, 1e-15, "alg5 w2 " + what)
        c.not_below(five["threshold_w2"], w2h, "alg5 w2 " + what)
        c.close(five["test_scale"], 4 * b ** 2 / e_, 1e-15, "alg5 b " + what)
        c.close(five["test_shift"], 4 * b ** 2 / e_ * log(1 / d_), 1e-15, "alg5 shift " + what)
    bad = [("inverse_wishart 10 100 1 0.5 1e-6 m=9", "DPCOV_E_PRECONDITION"),
           ("inverse_wishart 10 100 1 1.5 1e-6 m=20", "DPCOV_E_PRECONDITION"),
           ("inverse_wishart 10 100 1 0.5 0.5 m=20", "DPCOV_E_PRECONDITION"),
           ("inverse_wishart 10 100 1 0.5 1e-6 m=20 r=5", "DPCOV_E_INVALID_ARGUMENT"),
           ("jl_ridge 10 100 1 0.5 1e-6 r=5 m=20", "DPCOV_E_INVALID_ARGUMENT")]
    for rec, (req, status) in zip(plan(program, [b for b, _ in bad]), bad):
        c.status(rec, status, req)
    for m, value in ((10, "95.6805"), (100, "171.0862"), (1000, "409.5398")):
        rec = plan(program, [f"inverse_wishart 10 10000 1 1 1e-6 m={m}"])[0]
        c.ok(abs(mpf(rec["threshold_w2"]) - mpf(value)) <= mpf("5e-5"), f"worked m={m}")
        exact = exact_delta(1, 1 / threshold_w2(1, 1, mpf("1e-6"), m), m)
        c.ok(exact < mpf("1e-30"), f"exact delta m={m}: {exact}")
    c.exit()


if __name__ == "__main__":
    main(sys.argv[1])
