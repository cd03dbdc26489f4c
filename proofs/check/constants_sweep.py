"""Constants sweep: every other calculator of dpcov_mechanism_plan() (calibration_sweep.py covers
the Gaussian and Laplace calibrations) at random log-uniform points over the whole documented
range, against the exact requirement computed by mpmath at 50 digits from the doubles the library
received. Each constant must be on the safe side (a noise scale, dof, threshold, sensitivity or
shift not below its exact value, a budget part not above it; not by even one ulp), finite and
> 0, or the plan must refuse with a status other than DPCOV_OK.

Usage: constants_sweep.py <plan_receipts program> <points> <seed>

Ranges: epsilon in [1e-6, 100], delta in [1e-300, 0.5], B in [1e-150, 1e150], d in [1, 46340],
projection rows r and posterior dof m in [d, 1e9] (m >= d), lambda_min bound theta^2 in
[B^2 / 1e3, B^2 * 1e6], all log-uniform. Calculators (the derivations in proofs/):
- additive Wishart dof k = ceil(d + 14 ln(4/delta) / eps^2) exactly, scale >= B^2
  (wishart_additive.md);
- JL ridge (Alg. 1/2) and inverse-Wishart posterior (Alg. 4/5): the threshold w^2 of Sheffet's
  Thm 3.1 (jl_common.threshold_w2) and w >= sqrt(w^2); the sigma_min test's (eps/2, delta/2)
  split, Laplace scale b >= 4 B^2 / eps and shift >= b ln(1/delta) (jl_ridge.md,
  inverse_wishart.md);
- IEV and KT rank-1: sensitivity >= 2 B^2 (replace-one) or B^2, eigenvalue budget
  eps0 <= eps / 2, Laplace scale >= sensitivity / eps0 (iev.md, kt_rank1.md);
- Gaussian noise on the inverse: sensitivity >= c B^2 / theta^4 (domain) or
  c B^2 / (theta^2 (theta^2 - B^2)) (input), c = sqrt 2 or 1, and exact delta(sigma) <= delta
  (inverse_gauss.md);
- Jiang et al.'s Wishart (audit only): scale >= 3 B^2 / (2 eps), dof = d + 1 (wishart_jiang.md);
- Wang-Huai-Xu graphical-lasso output (audit only), n in [1, 1e9] and the penalty rho in
  [1e-6, 1e3]: scale >= d^{5/2} B^2 / (n eps rho^2), dof = d + 1 (glasso_output.md);
- exact numerics (dpcov_exact_plan): the discrete Gaussian's s2 is at least the smallest integer
  whose continuous comparison (variance s2 - 4, discrete_gaussian_smoothing.md) meets (eps, delta)
  by Balle-Wang's exact delta, Delta^2 = 2 r2^2 or r2^2, m = d (d + 1) / 2; the discrete
  Laplace's t >= Delta_1 / eps, Delta_1 = (d + 1) r2 or (d + 1) r2 / 2 (exact_additive.md).
"""
import math
import random
import sys

from mpmath import ceil, log, mpf, sqrt

from calibration_sweep import delta_of, finite_positive, log_uniform
from discrete_gaussian_smoothing import smallest_s2
from jl_common import threshold_w2
from receipts import Checker, plan


def gaussian_delta(sigma, eps, sens):
    """Balle-Wang's exact delta(sigma); where b - a > 1e5 it is below ncdf(-1e5) < 1e-10^9, far
    below any double delta, and 0 stands for it (mpmath's erfc overflows there)."""
    a, b = mpf(sens) / (2 * mpf(sigma)), mpf(eps) * mpf(sigma) / mpf(sens)
    return mpf(0) if b - a > 100000 else delta_of(sigma, eps, sens)


def draw(rng):
    eps = log_uniform(rng, 1e-6, 100)
    delta = log_uniform(rng, 1e-300, 0.5)
    bound = log_uniform(rng, 1e-150, 1e150)
    d = int(round(log_uniform(rng, 1, 46340)))
    return eps, delta, bound, d


def requests_at(rng, eps, delta, bound, d):
    """(label, request) pairs for one random parameter point."""
    neighbour = rng.choice(("replace", "add_remove"))
    r = int(round(log_uniform(rng, 1, 1e9)))
    m = int(round(log_uniform(rng, d, max(d, 1e9))))
    theta2 = bound * bound * log_uniform(rng, 1e-3, 1e6)
    scope = rng.choice(("domain", "input"))
    n = int(round(log_uniform(rng, 1, 1e9)))
    glasso_rho = log_uniform(rng, 1e-6, 1e3)
    base = f"{d} 1000 {bound!r} {eps!r} {delta!r}"
    return [
        ("wishart_additive", f"wishart_additive {base}"),
        ("jl_ridge", f"jl_ridge {base} r={r}"),
        ("jl_ridge_sigma_min", f"jl_ridge_sigma_min {base} r={r}"),
        ("inverse_wishart", f"inverse_wishart {base} m={m}"),
        ("inverse_wishart_sigma_min", f"inverse_wishart_sigma_min {base} m={m}"),
        ("iev", f"iev {d} 1000 {bound!r} {eps!r} 0 neighbour={neighbour}"),
        ("kt_rank1", f"kt_rank1 {d} 1000 {bound!r} {eps!r} 0 neighbour={neighbour}"),
        ("inverse_gauss", f"inverse_gauss {base} lambda_min_bound={theta2!r} scope={scope} "
                          f"neighbour={neighbour}"),
        ("wishart_jiang", f"wishart_jiang {d} 1000 {bound!r} {eps!r} 0 audit=1"),
        ("glasso_output", f"glasso_output_wishart {d} {n} {bound!r} {eps!r} 0 audit=1 "
                          f"rho={glasso_rho!r}"),
        ("exact_gauss", f"analyze_gauss {base} exact=1 neighbour={neighbour}"),
        ("exact_laplace", f"laplace_sym {d} 1000 {bound!r} {eps!r} 0 exact=1 neighbour={neighbour}"),
    ]


def option(request, key):
    for token in request.split():
        if token.startswith(key + "="):
            return token.split("=", 1)[1]
    return None


def check(c, label, request, r):
    what = f"{label}: {request}"
    b, e_, d_ = mpf(r["bound"]), mpf(r["epsilon"]), mpf(r["delta"])
    d = r["dim"]
    if label == "wishart_additive":
        # Computed with upward rounding before the ceiling: never below the exact k, above it by
        # the few half-ulps of the rounding at most (k + 1 or k + 2 past 2^51).
        exact_k = ceil(d + 14 * log(4 / d_) / e_ ** 2)
        c.not_below(r["dof"], exact_k, "dof " + what)
        c.ok(mpf(r["dof"]) <= exact_k * (1 + mpf(2) ** -50) + 1, f"dof close {what}: {r['dof']!r}")
        c.not_below(r["scale"], b ** 2, "scale " + what)
    elif label in ("jl_ridge", "inverse_wishart"):
        rows = int(option(request, "r" if label == "jl_ridge" else "m"))
        w2 = threshold_w2(b, e_, d_, rows)
        c.ok(finite_positive(r, "threshold_w2"), "finite w2 " + what)
        c.not_below(r["threshold_w2"], w2, "w2 " + what)
        c.not_below(r["appended_w"], sqrt(w2), "w " + what)
    elif label in ("jl_ridge_sigma_min", "inverse_wishart_sigma_min"):
        rows = int(option(request, "r" if label == "jl_ridge_sigma_min" else "m"))
        c.ok(mpf(r["test_epsilon"]) <= e_ / 2 and mpf(r["test_delta"]) <= d_ / 2,
             "split " + what)
        c.not_below(r["threshold_w2"], threshold_w2(b, mpf(r["test_epsilon"]),
                                                    mpf(r["test_delta"]), rows), "w2 " + what)
        scale = 4 * b ** 2 / e_
        c.not_below(r["test_scale"], scale, "test scale " + what)
        c.not_below(r["test_shift"], mpf(r["test_scale"]) * log(1 / (2 * mpf(r["test_delta"]))),
                    "test shift " + what)
    elif label in ("iev", "kt_rank1"):
        sens = (2 if option(request, "neighbour") == "replace" else 1) * b ** 2
        c.not_below(r["sensitivity"], sens, "sensitivity " + what)
        c.ok(mpf(r["epsilon_eigenvalues"]) <= e_ / 2, "eps0 <= eps/2 " + what)
        c.ok(finite_positive(r, "scale"), "finite scale " + what)
        c.not_below(r["scale"], mpf(r["sensitivity"]) / mpf(r["epsilon_eigenvalues"]),
                    "scale " + what)
    elif label == "inverse_gauss":
        t2 = mpf(r["lambda_min_bound"])
        factor = sqrt(2) if option(request, "neighbour") == "replace" else mpf(1)
        domain = option(request, "scope") == "domain"
        sens = factor * b ** 2 / (t2 * t2 if domain else t2 * (t2 - b ** 2))
        c.not_below(r["sensitivity"], sens, "sensitivity " + what)
        c.ok(finite_positive(r, "sigma") and gaussian_delta(r["sigma"], e_, sens) <= d_,
             f"exact delta(sigma) <= delta {what}: sigma {r['sigma']!r}")
    elif label == "wishart_jiang":
        c.ok(r["dof"] == d + 1 and finite_positive(r, "scale"), "dof, finite scale " + what)
        c.not_below(r["scale"], 3 * b ** 2 / (2 * e_), "scale " + what)
    elif label == "glasso_output":
        n, rho = int(request.split()[2]), mpf(float(option(request, "rho")))
        c.ok(r["dof"] == d + 1 and finite_positive(r, "scale"), "dof, finite scale " + what)
        c.ok(r["glasso_rho"] == float(rho), "rho recorded " + what)
        c.not_below(r["scale"], mpf(d) ** mpf("2.5") * b ** 2 / (n * e_ * rho ** 2),
                    "scale " + what)
    elif label in ("exact_gauss", "exact_laplace"):
        # Integer grid: rows rounded to squared norm <= r2; upper-triangle sensitivity of z z'.
        r2, k = r["norm2_bound"], r["bits"]
        h = math.isqrt(d - 1) // 2 + 1  # ceil(sqrt(d) / 2), exactly
        c.ok(r2 == (2 ** k + h + 1) ** 2, "r2 = (2^k + ceil(sqrt(d)/2) + 1)^2 " + what)
        replace = option(request, "neighbour") == "replace"
        if label == "exact_gauss":
            sens2 = (2 if replace else 1) * mpf(r2) ** 2
            least = smallest_s2(sens2, mpf(e_), mpf(d_), d * (d + 1) // 2)
            c.ok(r["noise_law"] == 1 and r["noise_parameter"] >= least,
                 f"s2 >= the smallest the smoothing argument allows ({least}) {what}: "
                 f"s2 {r['noise_parameter']}")
        else:
            sens1 = mpf((d + 1) * r2) / (1 if replace else 2)
            c.ok(r["noise_law"] == 2 and sens1 / r["noise_parameter"] <= e_,
                 f"Delta_1 / t <= eps {what}: t {r['noise_parameter']}")


def main(program, points, seed):
    rng = random.Random(seed)
    c = Checker("constants_sweep")
    labelled = []
    for _ in range(points):
        labelled += requests_at(rng, *draw(rng))
    receipts = plan(program, [request for _, request in labelled])
    refused, checked = {}, {}
    for (label, request), r in zip(labelled, receipts):
        if r["status"] != "DPCOV_OK":
            refused[(label, r["status"])] = refused.get((label, r["status"]), 0) + 1
            continue
        checked[label] = checked.get(label, 0) + 1
        check(c, label, request, r)
    for label, count in sorted(checked.items()):
        print(f"checked: {label}: {count} of {points}")
    for (label, status), count in sorted(refused.items()):
        print(f"refused (not OK): {label} {status}: {count} of {points}")
    c.exit()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
