"""The guide's diabetes regression figure (docs/guide/diabetes_regression.png), drawn from a run
of bench/diabetes_intervals.py: test R^2 against epsilon, the share of fits with an interval, and
every printed interval of the default regression (a fit whose interval is NaN drawn as such).

Usage (from the repository root):
    /usr/bin/python3 bench/diabetes_figure.py RUN.json OUTPUT.png
where RUN.json is what `bench/diabetes_intervals.py --json RUN.json` wrote.
"""

from __future__ import annotations

import json
import sys

import numpy as np

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLORS = {"python": "C0", "cli": "C1", "python, intervals=False": "C2"}
LABELS = {"python": "PrivateLinearRegression(bounds=...)",
          "cli": "dpcov regress --bounds",
          "python, intervals=False": "the same, intervals=False"}


def _at(fits, eps):
    return [f for f in fits if f["epsilon"] == eps]


def _r2_panel(ax, result):
    eps = np.asarray(result["epsilons"])
    for k, (surface, fits) in enumerate(result["fits"].items()):
        q = np.array([np.percentile([f["test_r2"] for f in _at(fits, e)], [25, 50, 75])
                      for e in eps])
        x = eps * (1 + 0.04 * (k - 1))
        ax.errorbar(x, q[:, 1], yerr=[q[:, 1] - q[:, 0], q[:, 2] - q[:, 1]], marker="o", ms=4,
                    capsize=2, color=COLORS[surface], label=LABELS[surface])
    q = np.percentile(result["ols_test_r2"], [25, 50, 75])
    ax.axhspan(q[0], q[2], color="grey", alpha=0.2)
    ax.axhline(q[1], color="grey", lw=1, label="OLS (not private)")
    ax.axhline(0, color="black", lw=0.6, ls=":")
    ax.set(xscale="log", xticks=eps, xticklabels=[f"{e:g}" for e in eps], xlabel="epsilon",
           ylabel="test R^2 (median, quartiles)", title="prediction on the 89 held-out rows")
    ax.minorticks_off()
    ax.legend(fontsize=7, loc="lower right")


def _share_panel(ax, result):
    eps = np.asarray(result["epsilons"])
    for surface, fits in result["fits"].items():
        if "False" in surface:
            continue
        fit_share, slope_share = [], []
        for e in eps:
            ci = [np.asarray(f["conf_int"], dtype=float) for f in _at(fits, e)]
            ok = [np.all(np.isfinite(c), axis=1) for c in ci]
            fit_share.append(np.mean([o.any() for o in ok]))
            slope_share.append(np.mean([o[1:].mean() for o in ok]))
        ax.plot(eps, fit_share, marker="o", color=COLORS[surface],
                label=LABELS[surface] + ": fits with an interval")
        ax.plot(eps, slope_share, marker="s", ls="--", color=COLORS[surface],
                label=LABELS[surface] + ": slopes printed")
    ax.set(xscale="log", xticks=eps, xticklabels=[f"{e:g}" for e in eps], ylim=(-0.03, 1.03),
           xlabel="epsilon", ylabel="share", title="share of fits with an interval")
    ax.minorticks_off()
    ax.legend(fontsize=7, loc="upper left")


def _interval_panel(ax, result, surface="python"):
    """Every printed interval of the slopes, on the scale of the columns' ranges (coefficient x
    half-range of x_j / half-range of y), against OLS's full-data coefficient; a NaN interval is
    an x on the 'nan' line below the axis's range."""
    names = result["names"][:-1]
    half = (np.asarray(result["upper"]) - np.asarray(result["lower"])) / 2
    scale = half[:-1] / half[-1]
    target = np.asarray(result["target"])[1:] * scale
    eps = result["epsilons"]
    fits = result["fits"][surface]
    finite = [np.asarray(f["conf_int"], dtype=float)[1:] * scale[:, None] for f in fits]
    points = [np.asarray(f["params"], dtype=float)[1:] * scale for f in fits]
    values = np.concatenate([c[np.all(np.isfinite(c), axis=1)].ravel() for c in finite]
                            + points + [target])
    top, bottom = values.max(), values.min()
    pad = 0.1 * (top - bottom)
    nan_line = bottom - 2 * pad
    for j, name in enumerate(names):
        ax.plot([j - 0.45, j + 0.45], [target[j]] * 2, color="black", lw=1.5,
                label="OLS, all 442 rows" if j == 0 else None)
        for k, e in enumerate(eps):
            at = [(c[j], q[j]) for c, q, f in zip(finite, points, fits) if f["epsilon"] == e]
            xs = j - 0.36 + 0.24 * k + np.linspace(-0.09, 0.09, len(at))
            for x, ((lo, hi), coef) in zip(xs, at):
                ax.plot(x, coef, marker=".", ms=3, color=f"C{k + 3}")
                if np.isfinite(lo) and np.isfinite(hi):
                    ax.plot([x, x], [lo, hi], color=f"C{k + 3}", lw=0.8)
                else:
                    ax.plot(x, nan_line, marker="x", ms=2.5, color=f"C{k + 3}")
    for k, e in enumerate(eps):
        shown = sum(np.all(np.isfinite(c), axis=1).sum()
                    for c, f in zip(finite, fits) if f["epsilon"] == e)
        total = sum(f["epsilon"] == e for f in fits) * len(names)
        ax.plot([], [], color=f"C{k + 3}", marker=".",
                label=f"epsilon {e:g}: {shown} of {total} intervals printed")
    ax.axhline(nan_line + pad, color="grey", lw=0.6, ls="--")
    ticks = [t for t in ax.get_yticks() if nan_line + pad < t <= top + pad]
    ax.set(xticks=range(len(names)), xticklabels=names, xlim=(-0.6, len(names) - 0.4),
           ylim=(nan_line - pad, top + 4 * pad), yticks=ticks + [nan_line],
           yticklabels=[f"{t:g}" for t in ticks] + ["nan"],
           ylabel="slope x half-range(x) / half-range(y)",
           title=f"{LABELS[surface]}, {result['splits']} splits per epsilon: point estimates "
                 "(dots), printed 95% intervals (bars), no interval (x on the nan line)")
    ax.legend(fontsize=7, loc="upper right", ncol=3)


def draw(result, path):
    fig = plt.figure(figsize=(15, 8.4))
    grid = fig.add_gridspec(2, 2, height_ratios=[1, 1.1])
    _r2_panel(fig.add_subplot(grid[0, 0]), result)
    _share_panel(fig.add_subplot(grid[0, 1]), result)
    _interval_panel(fig.add_subplot(grid[1, :]), result)
    fig.suptitle("Diabetes (n = 442; 353 training rows per split), the default regression with "
                 "the public per-column ranges, delta = 1e-6")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv) -> int:
    with open(argv[0]) as f:
        draw(json.load(f), argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
