"""The default regression on the diabetes data, in its own units: test R^2 against OLS, the share
of fits that print an interval, and the coverage of OLS's full-data coefficients by the printed
95% intervals.

Usage (from the repository root, after building):
    DPCOV_LIBRARY=build/capi/libdpcov.so PYTHONPATH=bindings/python:bench \\
        /usr/bin/python3 bench/diabetes_intervals.py [--splits 20] [--cli build/cli/dpcov]
        [--json FILE] [--figure FILE.png] [--from-json FILE]

data/diabetes.csv (442 rows, ten regressors and the label progression) with the public ranges of
data/diabetes_bounds.csv. Split r (r = 0..SPLITS-1) permutes the rows with seed r: 353 training
rows, 89 test rows. On each split and at epsilon in {0.5, 1, 2, 4} (delta 1e-6, the default):
- python: dpcov.PrivateLinearRegression(epsilon, bounds=(lower, upper), random_state=1000 + r)
  with every other argument at its default (AdaSSP, robust errors, small_n="posterior");
- cli: `dpcov regress TRAIN.csv --label progression --epsilon E --bounds
  data/diabetes_bounds.csv --noise-seed 1000 + r --seed 1000 + r` with its defaults (skipped
  without --cli);
- python, intervals=False: the point estimate alone (its R^2 as the reference).
Reported per surface and epsilon: test R^2 (median and quartiles over splits) and OLS's on the
same splits; the share of fits that print at least one interval; the share of the ten slopes
printed (the intercept's interval is NaN with bounds: it is not a map of the slopes' intervals);
the coverage of the printed intervals of OLS's coefficients on all 442 rows (in the data's
units); the median width of the printed intervals on the scale of the columns' ranges (width x
half-range of x_j / half-range of y: comparable across coefficients); what the fits spent (y'y
released, the meat released) and the method that answered. The target is the full-data fit: the
rows are a sample of a population whose coefficients are unknown, and the training rows are 80%
of them, so the coverage is that of a nearby target.

--json writes every fit (coefficients, intervals, flags, test R^2); --figure draws the guide's
diabetes figure from the same run (bench/diabetes_figure.py); --from-json FILE tabulates (and
with --figure draws) a run written by --json without fitting again.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np

import dpcov

EPSILONS = (0.5, 1.0, 2.0, 4.0)
TRAIN = 353
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
BOUNDS = os.path.join(ROOT, "data", "diabetes_bounds.csv")


def load():
    """(names, X, y, lower, upper): the raw rows and the public ranges, the label last."""
    with open(os.path.join(ROOT, "data", "diabetes.csv")) as f:
        names = f.readline().strip().split(",")
    data = np.genfromtxt(os.path.join(ROOT, "data", "diabetes.csv"), delimiter=",",
                         skip_header=1)
    ranges = np.genfromtxt(BOUNDS, delimiter=",", names=True, dtype=None, encoding="utf-8")
    by_name = {str(r[0]): (float(r[1]), float(r[2])) for r in ranges}
    lower = np.array([by_name[n][0] for n in names])
    upper = np.array([by_name[n][1] for n in names])
    return names, data[:, :-1], data[:, -1], lower, upper


def ols(X, y):
    return np.linalg.lstsq(np.column_stack([np.ones(len(y)), X]), y, rcond=None)[0]


def r2(params, X, y):
    residual = y - params[0] - X @ params[1:]
    return float(1.0 - residual @ residual / np.sum((y - y.mean()) ** 2))


def splits(count, n):
    return [np.random.default_rng(r).permutation(n) for r in range(count)]


def python_fit(eps, seed, X, y, lower, upper, **options):
    """One fit of PrivateLinearRegression with the public ranges: its record."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        reg = dpcov.PrivateLinearRegression(eps, bounds=(lower, upper), random_state=seed,
                                            **options).fit(X, y)
    return {"params": reg.params_.tolist(), "conf_int": reg.conf_int_.tolist(),
            "errors": reg.errors_, "method": reg.interval_method_,
            "inference": reg.inference_,
            "label_square": bool(reg.receipt_.label_square_released),
            "meat": getattr(reg, "meat_", None) is not None,
            "warnings": [str(w.message) for w in caught
                         if not issubclass(w.category, dpcov.SeededNoiseWarning)]}


def cli_fit(dpcov_cli, eps, seed, path):
    """One fit of `dpcov regress --bounds` on the training rows in `path`: its record."""
    run = subprocess.run(
        [dpcov_cli, "regress", path, "--label", "progression", "--epsilon", f"{eps:g}",
         "--bounds", BOUNDS, "--noise-seed", str(seed), "--seed", str(seed), "--json",
         "--quiet"], capture_output=True, text=True, check=True,
        env=dict(os.environ, OPENBLAS_NUM_THREADS="1"))
    out = json.loads(run.stdout)
    rows = out["coefficients"]
    aware = [row.get("noise_aware", {}) for row in rows]
    ci = [[np.nan if a.get("ci_lower") is None else a["ci_lower"],
           np.nan if a.get("ci_upper") is None else a["ci_upper"]] for a in aware]
    noise = out.get("noise_aware", {})
    return {"params": [row["coef"] for row in rows], "conf_int": ci,
            "errors": noise.get("errors"), "method": noise.get("method", noise.get("refused")),
            "inference": noise.get("assumes", noise.get("refused")),
            "label_square": "sigma_label_square" in out["receipt"],
            "meat": "sandwich" in out,
            "warnings": [line for line in run.stderr.splitlines() if "--noise-seed" not in line]}


def run(count, dpcov_cli):
    """Every fit of every surface, split and epsilon, with the CPU seconds of each surface."""
    names, X, y, lower, upper = load()
    target = ols(X, y)
    orders = splits(count, len(y))
    fits = {"python": [], "python, intervals=False": []}
    cpu = {k: 0.0 for k in fits}
    if dpcov_cli:
        fits["cli"] = []
        cpu["cli"] = 0.0
    ols_r2 = []
    with tempfile.TemporaryDirectory(prefix="diabetes-") as tmp:
        for r, order in enumerate(orders):
            train, test = order[:TRAIN], order[TRAIN:]
            ols_r2.append(r2(ols(X[train], y[train]), X[test], y[test]))
            path = os.path.join(tmp, f"train{r}.csv")
            np.savetxt(path, np.column_stack([X[train], y[train]]), delimiter=",",
                       header=",".join(names), comments="", fmt="%.17g")
            for eps in EPSILONS:
                for surface in fits:
                    start = time.process_time()
                    children = resource.getrusage(resource.RUSAGE_CHILDREN)
                    if surface == "cli":
                        fit = cli_fit(dpcov_cli, eps, 1000 + r, path)
                    else:
                        fit = python_fit(eps, 1000 + r, X[train], y[train], lower, upper,
                                         **({"intervals": False} if "False" in surface else {}))
                    after = resource.getrusage(resource.RUSAGE_CHILDREN)
                    cpu[surface] += (time.process_time() - start + after.ru_utime
                                     - children.ru_utime + after.ru_stime - children.ru_stime)
                    fit.update(split=r, epsilon=eps,
                               test_r2=r2(np.asarray(fit["params"]), X[test], y[test]))
                    fits[surface].append(fit)
    return {"names": names, "lower": lower.tolist(), "upper": upper.tolist(),
            "target": target.tolist(), "full_r2": r2(target, X, y), "ols_test_r2": ols_r2,
            "splits": count, "epsilons": list(EPSILONS), "fits": fits, "cpu_seconds": cpu}


def quartiles(values):
    q1, q2, q3 = np.percentile(values, [25, 50, 75])
    return f"{q2:.3f} [{q1:.3f}, {q3:.3f}]"


def cell(result, fits):
    """The row's figures for one surface at one epsilon."""
    target = np.asarray(result["target"])
    half = (np.asarray(result["upper"]) - np.asarray(result["lower"])) / 2
    scale = np.concatenate(([np.nan], half[:-1] / half[-1]))  # data units -> range units
    printed = slopes = covered = fits_printed = 0
    widths = []
    for fit in fits:
        ci = np.asarray(fit["conf_int"], dtype=float)
        ok = np.all(np.isfinite(ci), axis=1)
        fits_printed += bool(ok.any())
        printed += int(ok.sum())
        slopes += int(ok[1:].sum())
        covered += int(np.sum(ok & (ci[:, 0] <= target) & (target <= ci[:, 1])))
        widths.extend(((ci[ok, 1] - ci[ok, 0]) * scale[ok]).tolist())
    n = len(fits)
    return {"fits_printed": fits_printed / n, "slopes_printed": slopes / (n * (len(target) - 1)),
            "printed": printed, "covered": covered,
            "coverage": covered / printed if printed else float("nan"),
            "width": float(np.median(widths)) if widths else float("nan"),
            "label_square": sum(f["label_square"] for f in fits) / n,
            "meat": sum(f["meat"] for f in fits) / n,
            "methods": sorted({str(f["method"]).split(" from ")[0].split(":")[0]
                               for f in fits})}


def table(result, commit):
    """The markdown table of the run."""
    lines = ["| surface | epsilon | test R^2, median [quartiles] | OLS test R^2 (same splits) "
             "| fits with an interval | slopes printed | coverage of OLS (full data) "
             "| median width (range units) | y'y released | meat released | answered by |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    ols_cell = quartiles(result["ols_test_r2"])
    for surface, fits in result["fits"].items():
        for eps in result["epsilons"]:
            at = [f for f in fits if f["epsilon"] == eps]
            c = cell(result, at)
            point = "False" in surface
            coverage = "-" if not c["printed"] else \
                f"{c['coverage']:.3f} ({c['covered']} of {c['printed']})"
            width = "-" if not c["printed"] else f"{c['width']:.3g}"
            lines.append(
                f"| {surface} | {eps:g} | {quartiles([f['test_r2'] for f in at])} | {ols_cell} "
                f"| {'-' if point else format(c['fits_printed'], '.2f')} "
                f"| {'-' if point else format(c['slopes_printed'], '.2f')} "
                f"| {'-' if point else coverage} | {'-' if point else width} "
                f"| {c['label_square']:.2f} | {c['meat']:.2f} "
                f"| {'-' if point else ', '.join(c['methods'])} |")
    cpu = ", ".join(f"{k} {v:.0f} s" for k, v in result["cpu_seconds"].items())
    head = (f"Commit {commit}; {result['splits']} splits; CPU seconds: {cpu}. Non-private OLS: "
            f"R^2 on all 442 rows {result['full_r2']:.3f}.\n\n")
    return head + "\n".join(lines) + "\n"


def per_coefficient(result, surface="python"):
    """Per coefficient of one surface, in the data's units: OLS's full-data value and, at each
    epsilon, the intervals printed, how many cover it and their median width."""
    target = np.asarray(result["target"])
    names = ["(intercept)"] + result["names"][:-1]
    lines = ["| coefficient | OLS, all rows | " + " | ".join(
        f"epsilon {e:g}: printed, covering, median width" for e in result["epsilons"]) + " |",
        "| --- | --- |" + " --- |" * len(result["epsilons"])]
    for j, name in enumerate(names):
        row = [name, f"{target[j]:.4g}"]
        for eps in result["epsilons"]:
            ci = np.array([f["conf_int"][j] for f in result["fits"][surface]
                           if f["epsilon"] == eps], dtype=float)
            ok = np.all(np.isfinite(ci), axis=1)
            hits = int(np.sum(ok & (ci[:, 0] <= target[j]) & (target[j] <= ci[:, 1])))
            width = f"{np.median(ci[ok, 1] - ci[ok, 0]):.3g}" if ok.any() else "-"
            row.append(f"{int(ok.sum())}, {hits}, {width}")
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n"


def commit_id():
    try:
        return subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty",
                               "--abbrev=7"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--splits", type=int, default=20)
    parser.add_argument("--cli", default=None, help="the dpcov executable (none: no CLI rows)")
    parser.add_argument("--json", default=None, help="write every fit here")
    parser.add_argument("--figure", default=None, help="draw the guide's figure here")
    parser.add_argument("--from-json", default=None,
                        help="tabulate (and draw) a run that --json wrote, fitting nothing")
    args = parser.parse_args(argv)
    if args.from_json:
        with open(args.from_json) as f:
            result = json.load(f)
    else:
        result = run(args.splits, args.cli)
        result["commit"] = commit_id()
    print(table(result, result["commit"]), end="")
    print("\nPer coefficient (python), in the data's units:\n")
    print(per_coefficient(result), end="")
    if args.json and not args.from_json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    if args.figure:
        from diabetes_figure import draw
        draw(result, args.figure)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
