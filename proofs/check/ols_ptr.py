"""Checks the constants of Sheffet's private OLS, Alg. 1 (proofs/ols_ptr.md).

Usage: ols_ptr.py <plan_receipts program>
- w^2 = (4 B^2/eps)(sqrt(2 r ln(8/delta)) + 2 ln(8/delta)) = the JL threshold at (eps/2, delta/2);
- worked values of constants.md section 6 (eps = 1, delta = 1e-6, r = 100): w^2 = 352.689763,
  b = 4, shift = 55.262042;
- the test's false-pass probability P[Z > shift] = delta/2 and the exact delta of the projection
  at the threshold are far below the budget's halves;
- no block is appended (appended_w = 0); refusals for eps/2 > 1 and r < 1.
"""
import sys

from mpmath import exp, log, mpf, sqrt

from jl_common import exact_delta, threshold_w2
from receipts import Checker, plan


def main(program):
    c = Checker("ols_ptr")
    cases, requests = [], []
    for bound in ("1", "0.25"):
        for eps in ("0.1", "1", "2"):
            for delta in ("1e-9", "1e-6", "1e-2"):
                for r in (2, 50, 100, 5000):
                    cases.append((bound, eps, delta, r))
                    requests.append(f"ols_jl 11 1000 {bound} {eps} {delta} r={r}")
    for (bound, eps, delta, r), rec in zip(cases, plan(program, requests)):
        what = f"B={bound} eps={eps} delta={delta} r={r}"
        c.status(rec, "DPCOV_OK", what)
        if rec["status"] != "DPCOV_OK":
            continue
        b, e_, d_ = mpf(rec["bound"]), mpf(rec["epsilon"]), mpf(rec["delta"])
        big_l = log(8 / d_)
        w2 = 4 * b ** 2 / e_ * (sqrt(2 * r * big_l) + 2 * big_l)
        c.close(w2, threshold_w2(b, e_ / 2, d_ / 2, r), mpf("1e-30"), "two forms " + what)
        c.close(rec["threshold_w2"], w2, 1e-15, "w2 " + what)
        c.not_below(rec["threshold_w2"], w2, "w2 " + what)
        c.ok(rec["appended_w"] == 0, "no block " + what)
        c.close(rec["test_scale"], 4 * b ** 2 / e_, 1e-15, "b " + what)
        c.close(rec["test_shift"], 4 * b ** 2 / e_ * log(1 / d_), 1e-15, "shift " + what)
        c.ok(exp(-mpf(rec["test_shift"]) / mpf(rec["test_scale"])) / 2 <= d_ / 2, "tail " + what)
        c.ok(exact_delta(e_ / 2, b ** 2 / w2, r) < d_ / 2 * mpf("1e-10"), "exact delta " + what)
    rec = plan(program, ["ols_jl 11 10000 1 1 1e-6 r=100"])[0]
    c.ok(abs(mpf(rec["threshold_w2"]) - mpf("352.689763")) <= mpf("5e-7"), "worked w2")
    c.ok(mpf(rec["test_scale"]) == 4, "worked b")
    c.ok(abs(mpf(rec["test_shift"]) - mpf("55.262042")) <= mpf("5e-7"), "worked shift")
    for req, status in (("ols_jl 11 100 1 2.0000000000000004 1e-6 r=10", "DPCOV_E_PRECONDITION"),
                        ("ols_jl 11 100 1 1 0.7357588823428847 r=10", "DPCOV_E_PRECONDITION"),
                        ("ols_jl 11 100 1 1 1e-6", "DPCOV_E_DIMENSION")):
        c.status(plan(program, [req])[0], status, req)
    c.exit()


if __name__ == "__main__":
    main(sys.argv[1])
