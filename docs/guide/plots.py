#!/usr/bin/env python3
"""The guide's figures, through the Python binding: run by scripts/guide-plots.

  covariance_error.png  normalised Frobenius error of every covariance mechanism against epsilon on
                        Wine, diabetes (embedded), digits and breast_cancer (scikit-learn), in the
                        style of Amin et al. (NeurIPS 2019) Fig. 1
  regression.png        coefficient error and 95% interval coverage against n on a Gaussian linear
                        model (d = 10, epsilon = 1): AdaSSP, Analyze Gauss with noise-aware
                        (bootstrap), guaranteed and plug-in intervals, in the style of Sheffet;
                        the default regression's robust intervals and the homoscedastic ones,
                        and the share of fits with an interval
  audit_table.md        the privacy auditor on every mechanism with an exact output density, each on
                        its adversarial neighbouring pair, including one known not to be private
  figures.json          every plotted number, with the settings

Usage: plots.py OUTPUT_DIR [--quick] [--regression | --covariance]   (--quick: fewer repeats,
for a smoke run; --regression: regression.png alone, --covariance: covariance_error.png alone,
its numbers replaced in figures.json)
Every run is seeded (experiments only: a seeded release is not private if the seed is known).
"""
import csv
import json
import os
import sys
import warnings

import numpy as np

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import dpcov  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
EPSILONS = [0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0]
DELTA = 1e-6
# Mechanisms of the covariance figure: (label, mechanism id, delta or 0 for pure epsilon).
COVARIANCE_MECHANISMS = [
    ("Analyze Gauss", "analyze_gauss", DELTA),
    ("additive Wishart", "wishart_additive", DELTA),
    ("symmetric Laplace", "laplace_sym", 0.0),
    ("IEV", "iev", 0.0),
    ("Kapralov-Talwar", "kt_rank1", 0.0),
    # zCDP mechanisms on the rows themselves, at the rho whose (epsilon, delta) conversion is the
    # point's (dpcov.zcdp_rho)
    ("Dong-Liang-Yi Separate", "dly:separate", DELTA),
    ("Dong-Liang-Yi Adaptive", "dly:adaptive", DELTA),
]
WINE_RANGES = [(11.0, 14.8), (0.74, 5.80), (1.36, 3.23), (10.6, 30.0), (70.0, 162.0),
               (0.98, 3.88), (0.34, 5.08), (0.13, 0.66), (0.41, 3.58), (1.3, 13.0),
               (0.48, 1.71), (1.27, 4.00), (278.0, 1680.0)]


def scaled_rows(x, lower, upper):
    """Columns mapped to [-1, 1] by public ranges, rows divided by sqrt(d): every norm <= 1."""
    x = np.clip((2.0 * (x - lower) / (upper - lower)) - 1.0, -1.0, 1.0)
    return x / np.sqrt(x.shape[1])


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], np.array(rows[1:], dtype=np.float64)


def datasets():
    """(name, rows of norm <= 1). Ranges are public: published (Wine), round numbers from the
    study (diabetes), the pixel range 0..16 (digits); breast_cancer has no published ranges, so its
    columns are scaled by their observed maxima, which a deployment must not do (the figure only
    compares mechanisms on the same input)."""
    out = []
    _, wine = read_csv(os.path.join(ROOT, "data", "wine.csv"))
    lo, hi = np.array(WINE_RANGES).T
    out.append(("Wine (n=178, d=13)", scaled_rows(wine, lo, hi)))
    _, diabetes = read_csv(os.path.join(ROOT, "data", "diabetes.csv"))
    with open(os.path.join(ROOT, "data", "diabetes_bounds.csv"), newline="") as f:
        bounds = np.array([r[1:] for r in list(csv.reader(f))[1:]], dtype=np.float64)
    out.append(("diabetes (n=442, d=11)", scaled_rows(diabetes, bounds[:, 0], bounds[:, 1])))
    from sklearn.datasets import load_breast_cancer, load_digits
    digits = load_digits().data
    out.append(("digits (n=1797, d=64)", scaled_rows(digits, 0.0, 16.0)))
    cancer = load_breast_cancer().data
    out.append(("breast_cancer (n=569, d=30)",
                scaled_rows(cancer, np.zeros(cancer.shape[1]), cancer.max(axis=0))))
    return out


def covariance_errors(rows, repeats, rng):
    """Mean and standard deviation of ||C_hat - C||_F / ||C||_F, C = X'X / n (n public,
    replace-one), every release read as its estimate of X'X (dpcov.gram_estimate: the additive
    Wishart's noise mean removed) and projected onto the PSD cone (post-processing, as Amin et
    al.)."""
    n = rows.shape[0]
    gram = rows.T @ rows
    exact = gram / n
    result = {}
    for label, mech, delta in COVARIANCE_MECHANISMS:
        means, stds = [], []
        for eps in EPSILONS:
            errors = []
            for _ in range(repeats):
                try:
                    if mech.startswith("dly:"):
                        c = dpcov.dly_release(rows, rng, variant=mech[4:],
                                              rho=dpcov.zcdp_rho(eps, delta), radius=1.0,
                                              delta=delta).covariance
                        c = dpcov.psd_project(c)
                    else:
                        rel = dpcov.release(mech, gram, n, 1.0, eps, delta, rng)
                        estimate = dpcov.gram_estimate(rel.matrix, rel.receipt)[0]
                        c = dpcov.psd_project(estimate) / n
                except dpcov.DpcovError as e:
                    errors = [float("nan")]
                    warnings.warn("%s at epsilon %g: %s" % (mech, eps, e))
                    break
                errors.append(np.linalg.norm(c - exact) / np.linalg.norm(exact))
            means.append(float(np.mean(errors)))
            stds.append(float(np.std(errors)))
        result[label] = {"mean": means, "std": stds}
    return result


def plot_covariance(results, path):
    fig, axes = plt.subplots(2, 2, figsize=(11, 8.5), sharex=True)
    for ax, (name, per_mech) in zip(axes.flat, results.items()):
        for label, stats in per_mech.items():
            ax.errorbar(EPSILONS, stats["mean"], yerr=stats["std"], marker="o", ms=3,
                        capsize=2, label=label)
        ax.axhline(1.0, color="grey", lw=0.8, ls="--")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(name)
        ax.set_xlabel("epsilon")
        ax.set_ylabel("||C_hat - C||_F / ||C||_F")
    axes.flat[0].legend(fontsize=8)
    fig.suptitle("Normalised Frobenius error of the second moment (rows of norm <= 1, "
                 "delta = 1e-6 where used; dashed: releasing 0)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def linear_model(n, rng_np, d=10, noise=0.1):
    """Rows (x, y) with ||x|| <= 1 and |y| <= 1: x uniform on the ball's cube scaled by 1/sqrt(d),
    y = x' beta + N(0, noise^2) clipped, beta fixed."""
    beta = np.linspace(-1.0, 1.0, d) * 0.8
    x = rng_np.uniform(-1.0, 1.0, size=(n, d)) / np.sqrt(d)
    y = np.clip(x @ beta + noise * rng_np.standard_normal(n), -1.0, 1.0)
    return np.column_stack([x, y]) / np.sqrt(2.0), beta


def regression_runs(sizes, trials, rng):
    d = 10
    features, label = list(range(d)), d
    eps = 1.0
    names = ["AdaSSP", "Analyze Gauss, bootstrap", "Analyze Gauss, guaranteed",
             "Analyze Gauss, plug-in (release as exact data)", ROBUST, HOMOSCEDASTIC]
    error = {k: [] for k in names[:4]}  # the default regressions' error is AdaSSP's
    coverage = {k: [] for k in names[1:]}
    width = {k: [] for k in names[1:]}
    refused = {k: [] for k in names[1:]}
    rng_np = np.random.default_rng(20261124)
    for n in sizes:
        err = {k: [] for k in names}
        cov = {k: [] for k in names[1:]}
        wid = {k: [] for k in names[1:]}
        for _ in range(trials):
            rows, beta = linear_model(n, rng_np, d)
            # rows carry (x, y) / sqrt(2): the model's coefficients are unchanged by the scaling
            gram = rows.T @ rows
            fit = dpcov.adassp_fit(gram, label, features, 1.0 / np.sqrt(2.0), 1.0 / np.sqrt(2.0),
                                   eps, DELTA, rng)
            err["AdaSSP"].append(np.linalg.norm(fit.coefficients - beta))
            rel = dpcov.release("analyze_gauss", gram, n, 1.0, eps, DELTA, rng)
            intervals = {}
            try:
                b = dpcov.ols_bootstrap_intervals(rel.matrix, rel.receipt, label, features, rng,
                                                  num_bootstrap=499)
                intervals["Analyze Gauss, bootstrap"] = (b.coefficients, b.ci_lower, b.ci_upper)
            except dpcov.DpcovError:
                intervals["Analyze Gauss, bootstrap"] = None
            try:
                g = dpcov.ols_analyze_gauss_intervals(rel.matrix, rel.receipt.sigma, n, label,
                                                      features)
                intervals["Analyze Gauss, guaranteed"] = (g.coefficients, g.ci_lower, g.ci_upper)
            except dpcov.DpcovError:
                intervals["Analyze Gauss, guaranteed"] = None
            try:
                p = dpcov.regression_fit(dpcov.psd_project(rel.matrix), n, label, features,
                                         ridge=1e-9)
                intervals[names[3]] = (p.coefficients, p.ci_lower, p.ci_upper)
            except dpcov.DpcovError:
                intervals[names[3]] = None
            intervals.update(default_regressions(rows, eps, int(rng_np.integers(2**31))))
            for k, v in intervals.items():
                if v is None:  # refused: the noise swamps the data (counted apart)
                    cov[k].append(np.nan)
                    wid[k].append(np.nan)
                    continue
                coef, lo, hi = v
                err[k].append(np.linalg.norm(coef - beta))
                # A NaN interval (no conclusion) is not printed: coverage and width are those of
                # the printed ones; a fit with none counts as a fit without an interval.
                shown = np.isfinite(lo) & np.isfinite(hi)
                cov[k].append(float(np.mean(((lo <= beta) & (beta <= hi))[shown]))
                              if shown.any() else np.nan)
                wid[k].append(float(np.mean((hi - lo)[shown])) if shown.any() else np.nan)
        for k in error:
            error[k].append(float(np.median(err[k])) if err[k] else float("nan"))
        for k in names[1:]:
            given = [c for c in cov[k] if np.isfinite(c)]
            coverage[k].append(float(np.mean(given)) if given else float("nan"))
            finite = [w for w in wid[k] if np.isfinite(w)]
            width[k].append(float(np.median(finite)) if finite else float("nan"))
            refused[k].append(1.0 - len(given) / trials)
    return {"n": sizes, "epsilon": eps, "delta": DELTA, "trials": trials, "error": error,
            "coverage": coverage, "width": width, "refused": refused}


ROBUST = "AdaSSP default: robust (sandwich)"
HOMOSCEDASTIC = "AdaSSP, homoscedastic bootstrap"


def default_regressions(rows, eps, seed):
    """The default regression (PrivateLinearRegression: AdaSSP, robust intervals) and its
    homoscedastic variant on the same rows, as (coefficients, lower, upper), NaN where an
    interval is not printed."""
    out = {}
    x, y = rows[:, :-1], rows[:, -1]
    half = 1.0 / np.sqrt(2.0)
    for name, errors in ((ROBUST, "robust"), (HOMOSCEDASTIC, "homoscedastic")):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            reg = dpcov.PrivateLinearRegression(eps, DELTA, bound=half, label_bound=half,
                                                fit_intercept=False, errors=errors,
                                                n_bootstrap=499, random_state=seed).fit(x, y)
        out[name] = (reg.coef_, reg.conf_int_[:, 0], reg.conf_int_[:, 1])
    return out


REGRESSION_COLORS = {"AdaSSP": "C0", "Analyze Gauss, bootstrap": "C1",
                     "Analyze Gauss, guaranteed": "C2",
                     "Analyze Gauss, plug-in (release as exact data)": "C3",
                     ROBUST: "C4", HOMOSCEDASTIC: "C5"}


def plot_regression(r, path):
    fig, (a1, a2, a3, a4) = plt.subplots(1, 4, figsize=(18, 4.2))
    for k, v in r["error"].items():
        a1.plot(r["n"], v, marker="o", label=k, color=REGRESSION_COLORS[k])
    a1.set(xscale="log", yscale="log", xlabel="n", ylabel="median ||beta_hat - beta||",
           title="coefficient error")
    a1.legend(fontsize=7)
    for k, v in r["coverage"].items():
        a2.plot(r["n"], v, marker="o", label=k, color=REGRESSION_COLORS[k])
    a2.axhspan(0.93, 0.97, color="green", alpha=0.15)
    a2.axhline(0.95, color="green", lw=0.8)
    a2.set(xscale="log", ylim=(0, 1.02), xlabel="n", ylabel="fraction of coefficients covered",
           title="coverage of the 95% intervals (when given)")
    for k, v in r["width"].items():
        a3.plot(r["n"], v, marker="o", label=k, color=REGRESSION_COLORS[k])
    a3.set(xscale="log", yscale="log", xlabel="n", ylabel="median width",
           title="interval width (when given)")
    for k, v in r["refused"].items():
        a4.plot(r["n"], [1.0 - x for x in v], marker="o", label=k, color=REGRESSION_COLORS[k])
    a4.set(xscale="log", ylim=(-0.02, 1.02), xlabel="n", ylabel="fraction of trials",
           title="share of fits with an interval")
    a4.legend(fontsize=7)
    fig.suptitle("Linear model, d = 10, epsilon = 1, delta = 1e-6, %d trials per n" % r["trials"])
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


# (mechanism, neighbour chosen to maximise the privacy loss, dataset kind, mechanism options)
AUDITS = [
    ("analyze_gauss", "max_l2_change", "random_rows", {}),
    ("laplace_sym", "max_l1_change", "random_rows", {}),
    ("wishart_additive", "least_eigenvector", "random_rows", {}),
    ("inverse_gauss", "least_eigenvector", "sphere_rows", {}),
    ("jl_ridge", "least_eigenvector", "random_rows", {"projection_rows": 200}),
    ("jl_ridge_sigma_min", "least_eigenvector", "sphere_rows", {"projection_rows": 200}),
    ("inverse_wishart", "least_eigenvector", "random_rows", {"posterior_dof": 200}),
    ("inverse_wishart_sigma_min", "least_eigenvector", "sphere_rows", {"posterior_dof": 200}),
    ("ols_jl", "least_eigenvector", "sphere_rows", {"projection_rows": 200}),
    ("wishart_jiang", "least_eigenvector", "random_rows", {"audit_only_not_private": True}),
]
PURE = {"laplace_sym"}


def audit_table(trials, epsilon=0.5, dim=3, n=100):
    """Markdown: one audit per mechanism at its claimed (epsilon, delta) (dpcov.audit_run)."""
    lines = ["| mechanism | claim | neighbour / data | draws | max privacy loss | "
             "P(loss > eps) upper | delta(eps) upper | verdict |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    rows = []
    for mech, neighbour, data, options in AUDITS:
        delta = 0.0 if mech in PURE else DELTA
        r = dpcov.audit_run(mech, dim, n, 1.0, epsilon, delta, options, trials=trials,
                            neighbour_kind=neighbour, dataset=data, seed=2026)
        v = r._values
        rows.append({"mechanism": mech, "epsilon": epsilon, "delta": delta,
                     "samples": v["samples"], "max_loss": v["max_loss"],
                     "exceed_upper": v["exceed_upper"], "delta_upper": v["delta_upper"],
                     "violation": bool(r.violation)})
        lines.append("| `%s` | (%g, %g) | %s / %s | %d | %.3g | %.3g | %.3g | %s |" % (
            mech, epsilon, delta, neighbour, data, v["samples"], v["max_loss"], v["exceed_upper"],
            v["delta_upper"], "**violation**" if r.violation else "no violation found"))
    head = ("Privacy audit, d = %d, n = %d, B = 1, up to %d draws per direction, seed 2026 "
            "(scripts/guide-plots). An audit can only find violations: \"no violation found\" is "
            "not a proof. `wishart_jiang` is known not to be private (proofs/wishart_jiang.md) "
            "and is run with its audit-only switch; the auditor must catch it.\n\n"
            % (dim, n, trials))
    return head + "\n".join(lines) + "\n", rows


def regression_only(outdir, sizes, trials, rng):
    """Redraws regression.png alone and replaces the regression numbers of figures.json."""
    reg = regression_runs(sizes, trials, rng)
    plot_regression(reg, os.path.join(outdir, "regression.png"))
    path = os.path.join(outdir, "figures.json")
    figures = {}
    if os.path.exists(path):
        with open(path) as f:
            figures = json.load(f)
    figures["regression"] = reg
    with open(path, "w") as f:
        json.dump(figures, f, indent=1)


def covariance_only(outdir, cov, repeats):
    """The covariance figure's numbers into figures.json, the regression's and the audit's kept
    (the covariance draws come first from the generator, so they are those of a whole run)."""
    path = os.path.join(outdir, "figures.json")
    with open(path) as f:
        figures = json.load(f)
    figures.update({"epsilons": EPSILONS, "covariance": cov, "covariance_repeats": repeats})
    with open(path, "w") as f:
        json.dump(figures, f, indent=1)


def main():
    outdir = sys.argv[1]
    quick = "--quick" in sys.argv[2:]
    os.makedirs(outdir, exist_ok=True)
    rng = dpcov.Rng(20261124, 1)
    repeats = 3 if quick else 20
    sizes = [1000, 10000] if quick else [1000, 3000, 10000, 30000, 100000]
    if "--regression" in sys.argv[2:]:
        return regression_only(outdir, sizes, 4 if quick else 100, rng)
    cov = {name: covariance_errors(rows, repeats, rng) for name, rows in datasets()}
    plot_covariance(cov, os.path.join(outdir, "covariance_error.png"))
    if "--covariance" in sys.argv[2:]:
        return covariance_only(outdir, cov, repeats)
    reg = regression_runs(sizes, 4 if quick else 100, rng)
    plot_regression(reg, os.path.join(outdir, "regression.png"))
    table, audits = audit_table(2000 if quick else 20000)
    with open(os.path.join(outdir, "audit_table.md"), "w") as f:
        f.write(table)
    with open(os.path.join(outdir, "figures.json"), "w") as f:
        json.dump({"epsilons": EPSILONS, "covariance": cov, "covariance_repeats": repeats,
                   "regression": reg, "audit": audits}, f, indent=1)


if __name__ == "__main__":
    main()
