"""Checks the constants of Sheffet's private OLS, Alg. 1 (proofs/ols_ptr.md).

Usage: ols_ptr.py <plan_receipts program>
- w^2 = (4 B^2/eps)(sqrt(2 r ln(8/delta)) + 2 ln(8/delta)) = the JL threshold at (eps/2, delta/2);
- worked values of constants.md section 6 (eps = 1, delta = 1e-6, r = 100): w^2 = 352.689763,
  b = 4, shift = 55.262042;
- the test's false-pass probability P[Z > shift] = delta/2 and the exact delta of the projection
  at the threshold are far below the budget's halves;
- no block is appended (appended_w = 0); refusals for eps/2 > 1 and r < 1;
- the exact replace-one delta of the projection after a pass (quadrature, jl_common.py);
- the exact coverage rate of the true beta (proofs/ols_ptr.md) and the value the statistical test
  pins, against a Monte Carlo of its chi-square representation.
"""
import sys

import numpy
from mpmath import betainc, exp, findroot, inf, log, loggamma, mpf, quad, sqrt, workdps

from jl_common import exact_delta, replace_one_delta, threshold_w2
from receipts import Checker, plan


def two_sided_t(x, k):
    """P(|T_k| <= x)."""
    return betainc(mpf(1) / 2, mpf(k) / 2, 0, x * x / (k + x * x), regularized=True)


def t_quantile(level, k):
    return findroot(lambda x: two_sided_t(x, k) - level, 2)


def coverage_rate(n, p, r, level):
    """Exact coverage of the true beta_j by beta~_j +- c se~_j, c = t_{(1+level)/2}(r - p)."""
    with workdps(30):
        k, a, b = r - p, mpf(r - p + 1), mpf(n - p)
        c = t_quantile(level, k)

        def f_density(x):
            return exp(loggamma((a + b) / 2) - loggamma(a / 2) - loggamma(b / 2) + (a / 2) * log(a / b) +
                       (a / 2 - 1) * log(x) - ((a + b) / 2) * log(1 + a * x / b))

        return quad(lambda x: f_density(x) * two_sided_t(c / sqrt(1 + a / b * x), k), [0, 1, 3, inf])


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
    # Replace-one, exactly: after a pass, lambda_min(A^T A) > w^2 on the good event, so the Gram
    # matrix of the other rows has lambda_min >= w^2 - B^2 and every whitened row norm^2 is
    # <= B^2 / (w^2 - B^2). The exact delta of the projection at (eps/2) is far below delta/2.
    for r, value in ((50, "9.5835e-44"), (100, "3.3092e-44"), (5000, "2.7288e-36")):
        w2 = 4 * (sqrt(2 * r * log(8 / mpf("1e-6"))) + 2 * log(8 / mpf("1e-6")))
        exact = replace_one_delta(mpf(1) / 2, 1 / (w2 - 1), r)
        c.ok(abs(exact / mpf(value) - 1) < mpf("1e-4"), f"replace-one delta r={r}: {exact} vs {value}")
        c.ok(exact < mpf("1e-6") / 2 * mpf("1e-20"), f"replace-one delta r={r} far below delta/2")
    # Coverage of the model's true beta by the nominal interval (proofs/ols_ptr.md): the exact
    # rate q(n, p, r) = E[P(|T_{r-p}| <= c / sqrt(1 + Q))], Q = ((r-p+1)/(n-p)) F_{r-p+1, n-p},
    # against a Monte Carlo of its chi-square representation, and the value pinned in
    # tests/statistical/ols_model_coverage_test.cpp.
    q = coverage_rate(80000, 9, 20, mpf("0.95"))
    c.ok(abs(q - mpf("0.9499855806")) < mpf("1e-10"), f"rate q(80000, 9, 20) = {q}")
    for n, p, r, value in ((10000, 9, 40, "0.9496549"), (100000, 9, 2000, "0.9477109"),
                           (100000, 9, 40000, "0.9023804")):
        q = coverage_rate(n, p, r, mpf("0.95"))
        c.ok(abs(q - mpf(value)) < mpf("1e-7"), f"rate q({n}, {p}, {r}) = {q} vs {value}")
    rng = numpy.random.default_rng(5)
    n, p, r, draws = 2000, 9, 400, 400000
    crit = float(t_quantile(mpf("0.95"), r - p))
    k, e_, z = rng.chisquare(r - p + 1, draws), rng.chisquare(n - p, draws), rng.standard_normal(draws)
    u = rng.chisquare(r - p, draws)
    mc = numpy.mean(numpy.abs(z) * numpy.sqrt(1 + k / e_) <= crit * numpy.sqrt(u / (r - p)))
    q = coverage_rate(n, p, r, mpf("0.95"))
    c.ok(abs(mc - float(q)) < 5 * float(sqrt(q * (1 - q) / draws)), f"rate q(2000, 9, 400) = {q} vs MC {mc}")
    for req, status in (("ols_jl 11 100 1 2.0000000000000004 1e-6 r=10", "DPCOV_E_PRECONDITION"),
                        ("ols_jl 11 100 1 1 0.7357588823428847 r=10", "DPCOV_E_PRECONDITION"),
                        ("ols_jl 11 100 1 1 1e-6", "DPCOV_E_DIMENSION")):
        c.status(plan(program, [req])[0], status, req)
    c.exit()


if __name__ == "__main__":
    main(sys.argv[1])
