"""Checks the JL ridge constants (proofs/jl_ridge.md).

Usage: jl_ridge.py <plan_receipts program>
- Alg. 1: threshold_w2 = w^2 of Thm 3.1 / B.1 (mpmath), never below it and within 1e-15;
  appended_w >= sqrt(w^2); the worked values of constants.md section 5.1 to 6 digits;
- Alg. 2: the split (eps/2, delta/2), threshold at (eps/2, delta/2), b = 4 B^2 / eps and the shift
  b ln(1/delta) (P[Lap(b) > shift] = delta/2);
- refusals: eps > 1, delta >= 1/e, r < 1;
- the exact add/remove delta of the threshold at eps = 1 is far below delta for r in [1, 1e5]
  (the reason dpcov admits eps = 1), and so is the exact replace-one delta (quadrature, worked
  values for r in [2, 1e4]); on a grid of replace-one pairs none exceeds the orthogonal worst case.
"""
import sys

from mpmath import exp, log, mpf, pi, sqrt

from jl_common import exact_delta, replace_delta, replace_one_delta, threshold_w2
from receipts import Checker, plan

WORKED = [("1", "1e-6", 10, "95.6805"), ("1", "1e-6", 100, "171.0862"),
          ("1", "1e-6", 1000, "409.5398"), ("0.5", "1e-6", 100, "342.1723"),
          ("1", "1e-3", 100, "114.6332")]


def main(program):
    c = Checker("jl_ridge")
    cases, requests = [], []
    for bound in ("1", "0.3", "4"):
        for eps in ("0.05", "0.5", "1"):
            for delta in ("1e-12", "1e-6", "1e-3", "0.36787944117144"):
                for r in (1, 10, 100, 1000, 100000):
                    cases.append((bound, eps, delta, r))
                    requests.append(f"jl_ridge 10 1000 {bound} {eps} {delta} r={r}")
                    requests.append(f"jl_ridge_sigma_min 10 1000 {bound} {eps} {delta} r={r}")
    receipts = plan(program, requests)
    for i, (bound, eps, delta, r) in enumerate(cases):
        one, two = receipts[2 * i], receipts[2 * i + 1]
        what = f"B={bound} eps={eps} delta={delta} r={r}"
        c.status(one, "DPCOV_OK", "alg1 " + what)
        c.status(two, "DPCOV_OK", "alg2 " + what)
        if one["status"] != "DPCOV_OK" or two["status"] != "DPCOV_OK":
            continue
        b, e_, d_ = mpf(one["bound"]), mpf(one["epsilon"]), mpf(one["delta"])
        w2 = threshold_w2(b, e_, d_, r)
        c.close(one["threshold_w2"], w2, 1e-15, "alg1 w2 " + what)
        c.not_below(one["threshold_w2"], w2, "alg1 w2 " + what)
        c.not_below(one["appended_w"], sqrt(w2), "alg1 w " + what)
        c.ok(one["projection_rows"] == r, "alg1 r " + what)
        w2h = threshold_w2(b, e_ / 2, d_ / 2, r)
        c.close(two["threshold_w2"], w2h, 1e-15, "alg2 w2 " + what)
        c.not_below(two["threshold_w2"], w2h, "alg2 w2 " + what)
        c.ok(mpf(two["test_epsilon"]) == e_ / 2 and mpf(two["test_delta"]) == d_ / 2,
             "alg2 split " + what)
        scale = 4 * b ** 2 / e_
        c.close(two["test_scale"], scale, 1e-15, "alg2 b " + what)
        c.not_below(two["test_scale"], scale, "alg2 b " + what)
        c.not_below(two["test_shift"], scale * log(1 / d_), "alg2 shift " + what)
        c.close(two["test_shift"], scale * log(1 / d_), 1e-15, "alg2 shift " + what)
        tail = exp(-mpf(two["test_shift"]) / mpf(two["test_scale"])) / 2
        c.ok(tail <= d_ / 2, f"alg2 P[Z > shift] = {tail} <= delta/2 " + what)
    worked = plan(program, [f"jl_ridge 10 10000 1 {e} {d} r={r}" for e, d, r, _ in WORKED])
    for (eps, delta, r, value), rec in zip(WORKED, worked):
        c.ok(abs(mpf(rec["threshold_w2"]) - mpf(value)) <= mpf("5e-5"),
             f"worked w2 eps={eps} delta={delta} r={r}: {rec['threshold_w2']} vs {value}")
    bad = ["jl_ridge 10 100 1 1.0000000000000002 1e-6 r=10", "jl_ridge 10 100 1 0.5 0.3678794411714424 r=10",
           "jl_ridge_sigma_min 10 100 1 2.0000000000000004 1e-6 r=10"]
    for rec, req in zip(plan(program, bad), bad):
        c.status(rec, "DPCOV_E_PRECONDITION", req)
    for rec, req in zip(plan(program, ["jl_ridge 10 100 1 0.5 1e-6", "jl_ridge 10 100 1 0.5 1e-6 r=-3"]),
                        ["no r", "r=-3"]):
        c.status(rec, "DPCOV_E_DIMENSION", req)
    for r in (1, 2, 10, 100, 1000, 10000, 100000):
        for delta in ("1e-6", "1e-3"):
            w2 = threshold_w2(1, 1, mpf(delta), r)
            exact = exact_delta(1, 1 / w2, r)
            c.ok(exact < mpf("1e-20"), f"exact delta at eps=1 r={r} delta={delta}: {exact}")
    # Replace-one (the relation dpcov claims): the exact delta of the threshold, by quadrature.
    # Worked values of proofs/jl_ridge.md (eps = 1, delta = 1e-6), to 4 digits.
    for r, value in ((2, "4.2817e-36"), (10, "3.8961e-39"), (100, "2.6913e-42"),
                     (1000, "3.4258e-38"), (10000, "2.4152e-33")):
        exact = replace_one_delta(1, 1 / threshold_w2(1, 1, mpf("1e-6"), r), r)
        c.ok(abs(exact / mpf(value) - 1) < mpf("1e-4"), f"replace-one delta r={r}: {exact} vs {value}")
        c.ok(exact < mpf("1e-6") * mpf("1e-20"), f"replace-one delta r={r} far below delta")
    # The supremum over replace-one pairs is at orthogonal rows of the largest whitened norm: no
    # pair on a grid of norms (a, b) and angles theta exceeds it (r = 10; the same holds at r = 100).
    for r in (10,):
        s = 1 / threshold_w2(1, 1, mpf("1e-6"), r)
        top = replace_one_delta(1, s, r)
        for fa, fb in ((1, 1), (1, mpf(1) / 2), (1, 0), (mpf(3) / 4, mpf(3) / 4)):
            for theta in (mpf("0.8"), mpf("1.2"), mpf("1.45"), pi / 2 - mpf("0.01")):
                other = replace_delta(1, fa * s, fb * s, theta, r)
                c.ok(other <= top * (1 + mpf("1e-10")),
                     f"replace-one grid r={r} a={fa}s b={fb}s theta={theta}: {other} <= {top}")
    c.exit()


if __name__ == "__main__":
    main(sys.argv[1])
