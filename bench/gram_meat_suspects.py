"""Which of the two suspects makes the Gram mechanisms' robust intervals under-cover at large n:
the meat's own privacy noise (not redrawn in the bootstrap) or the residuals clipped at
R = 2 label_bound (proofs/sandwich.md, "Residual clipping").

Usage (from the repository root, after building):
    DPCOV_LIBRARY=build/capi/libdpcov.so PYTHONPATH=bindings/python:bench /usr/bin/python3 \\
        bench/gram_meat_suspects.py [--fits 100] [--model hetero] [--n 50000] [--d 3] [--eps 4]

Runs the cell of bench/interval_coverage.py (same data, seeds and target) with
PrivateLinearRegression(mechanism="analyze_gauss") three times: as released; with the meat
replaced by the exact meat of the same rows at the same beta0 (its noise removed, clipping at R
kept); and exact with R = 100 label_bound (no residual clipped); then non-private OLS with HC0
intervals on the same datasets. With --redraw: the kernel's intervals, a numpy emulation of its
bootstrap worlds (checked against them), and the emulation with the meat's noise redrawn in
every world, the candidate fix. The release of the meat is still
drawn in every variant, so the fit's noise and the bootstrap's seed are the same across them.
Also prints the share of residuals clipped at R. A measurement on simulated data only: the exact
meat is not private.
"""

from __future__ import annotations

import argparse
import math
import sys
import warnings

import numpy as np

import dpcov
import dpcov.learn as learn
from dpcov.adassp import sandwich_rows
from dpcov.gram import bound_rows

import interval_coverage as ic

ORIGINAL = learn.release_meat
TALLIES: list = []


class KeptTally(ic.Tally):
    """interval_coverage's tally, kept for its per-coefficient coverage."""

    def __init__(self, target):
        super().__init__(target)
        TALLIES.append(self)


def exact_meat(residual_factor, clipped):
    """release_meat drawing the release as usual, then returning the exact meat at R =
    residual_factor label_bound (counting the residuals clipped at the budget's R)."""
    def release(rows, bounding, beta0, bound_x, budget, neighbour, rng):
        _, receipt = ORIGINAL(rows, bounding, beta0, bound_x, budget, neighbour, rng)
        bounded, _ = bound_rows(rows, **bounding)
        r = bounded[:, -1] - bounded[:, :-1] @ beta0
        clipped.append(float(np.mean(np.abs(r) > budget.residual_bound)))
        big = residual_factor * bounding["label_bound"]
        u = sandwich_rows(bounded, beta0, bound_x, big if residual_factor else
                          budget.residual_bound)
        return u.T @ u, receipt
    return release


def nonprivate_hc0(model, n, d, fits, target, c_y) -> np.ndarray:
    """Per-coefficient coverage of non-private OLS with HC0 sandwich intervals (1.96 standard
    errors) on the cell's datasets: what is left to the model, the target and the sandwich."""
    hits = np.zeros(d + 1)
    for r in range(fits):
        x, y = ic.mapped(model, n, d, np.random.default_rng(1_000_000 + r), c_y)
        a = np.column_stack([np.ones(n), x])
        g_inv = np.linalg.inv(a.T @ a)
        beta = g_inv @ (a.T @ y)
        meat = (a * ((y - a @ beta) ** 2)[:, None]).T @ a
        hits += np.abs(beta - target) <= 1.96 * np.sqrt(np.diag(g_inv @ meat @ g_inv))
    return hits / fits


def symmetric_noise(gen, sigma: float, k: int, worlds: int) -> np.ndarray:
    """worlds draws of Analyze Gauss's k x k noise: the upper triangle i.i.d. N(0, sigma^2)."""
    e = np.triu(gen.standard_normal((worlds, k, k)) * sigma)
    return e + np.triu(e, 1).transpose(0, 2, 1)


def emulated_intervals(released, meat, sigma, meat_sigma, gen, redraw, worlds=999, level=0.95):
    """(lower, upper): the worlds of gram_sandwich_intervals (core/estimators) in numpy, with the
    meat fixed at its release (redraw False: checks the emulation against the kernel) or with its
    noise redrawn in every world (M~ + E_w, negative eigenvalues raised to 0)."""
    p = released.shape[0] - 1
    g, xy = released[:p, :p], released[:p, p]
    beta = np.linalg.solve(g, xy)
    e = symmetric_noise(gen, sigma, p + 1, worlds)
    m = np.broadcast_to(meat, (worlds, p, p))
    if redraw:
        m = m + symmetric_noise(gen, meat_sigma, p, worlds)
    values, vectors = np.linalg.eigh(m)
    factor = vectors * np.sqrt(np.maximum(values, 0.0))[:, None, :]
    z = gen.standard_normal((worlds, p, 1))
    rhs = (g @ beta)[None] + (factor @ z)[:, :, 0] + e[:, :p, p]
    draws = np.sort(np.linalg.solve(g[None] + e[:, :p, :p], rhs[:, :, None])[:, :, 0], axis=0)
    k = int(math.floor((1 - level) / 2 * (worlds + 1)))
    return draws[k - 1], draws[worlds - k]


def redraw_rows(model, n, d, eps, fits, target, c_y) -> None:
    """The kernel's intervals against their numpy emulation and the emulation with the meat's
    noise redrawn, on the same fits (default release and meat)."""
    hits = {"kernel (default)": 0.0, "emulated, meat fixed": 0.0, "emulated, meat redrawn": 0.0}
    for r in range(fits):
        x, y = ic.mapped(model, n, d, np.random.default_rng(1_000_000 + r), c_y)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est = dpcov.PrivateLinearRegression(epsilon=eps, delta=1e-6, bound=math.sqrt(d),
                                                label_bound=1.0, random_state=r,
                                                mechanism="analyze_gauss").fit(x, y)
        ci = est.conf_int_
        hits["kernel (default)"] += (ci[:, 0] <= target) & (target <= ci[:, 1])
        for name, redraw in (("emulated, meat fixed", False), ("emulated, meat redrawn", True)):
            lo, hi = emulated_intervals(np.asarray(est.release_), np.asarray(est.meat_),
                                        est.receipt_.sigma, est.meat_receipt_.sigma,
                                        np.random.default_rng(5_000 + r), redraw)
            hits[name] += (lo <= target) & (target <= hi)
    for name, h in hits.items():
        print(f"| {name} | {np.mean(h / fits):.3f} | "
              f"{' / '.join(f'{v:.3f}' for v in h / fits)} | - | - |", flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fits", type=int, default=100)
    ap.add_argument("--model", default="hetero")
    ap.add_argument("--n", type=int, default=50000)
    ap.add_argument("--d", type=int, default=3)
    ap.add_argument("--eps", type=float, default=4.0)
    ap.add_argument("--redraw", action="store_true",
                    help="instead: the kernel's intervals, their numpy emulation, and the "
                         "emulation with the meat's noise redrawn in every world")
    args = ap.parse_args(argv)
    c_y = ic.label_range(args.model, args.d)
    target = ic.truth(args.model, args.d, c_y)
    options = {"mechanism": "analyze_gauss"}
    if args.redraw:
        print("| intervals | coverage | per coefficient (intercept first) | - | - |")
        print("| --- | --- | --- | --- | --- |")
        redraw_rows(args.model, args.n, args.d, args.eps, args.fits, target, c_y)
        return 0
    ic.Tally = KeptTally
    print("| meat | coverage | per coefficient (intercept first) | median width | residuals "
          "clipped at R |")
    print("| --- | --- | --- | --- | --- |")
    for name, factor in (("released (default)", None), ("exact, R = 2 label_bound", 0),
                         ("exact, R = 100 label_bound", 100.0)):
        clipped: list = []
        learn.release_meat = ORIGINAL if factor is None else exact_meat(factor, clipped)
        row = ic.cell(args.model, args.n, args.d, args.eps, args.fits, target, c_y, options)
        share = f"{np.mean(clipped):.2g}" if clipped else "-"
        each = " / ".join(f"{v:.3f}" for v in TALLIES[-1].hits / TALLIES[-1].shown)
        print(f"| {name} | {row['coverage']:.3f} | {each} | "
              f"{row['median_width']:.3g} | {share} |", flush=True)
    learn.release_meat = ORIGINAL
    hc0 = nonprivate_hc0(args.model, args.n, args.d, args.fits, target, c_y)
    print(f"| non-private OLS, HC0 | {hc0.mean():.3f} | "
          f"{' / '.join(f'{v:.3f}' for v in hc0)} | - | - |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
