"""The weak-direction rule of the bootstrap intervals (core/estimators/weak_directions.hpp) at
other thresholds: per fit of one cell of bench/interval_coverage.py, the release's directions
and their strength in noise sds of u'Eu, and the printed intervals each rule (c, tau) would keep;
per rule, the intervals kept and their coverage, per coefficient.

Usage (from the repository root, after building):
    DPCOV_LIBRARY=build/capi/libdpcov.so PYTHONPATH=bindings/python \\
        /usr/bin/python3 bench/weak_directions.py MODEL N D EPSILON FITS [--c 2,2.5,3] [--tau 0.1,0.5]

Against the library the rule is in, only rules at least as strict as its own (--truth, c >= 3,
tau <= 0.1) can be read: the fits it refuses are already the posterior's or have no interval.
Against a library built before the rule (main at 6e4c1aa) every rule can, and c = 0 is the
bootstrap unchanged: bench/results/interval_grid.md, "Weak directions", is that run. Fits whose
intervals a posterior answered are left out (the rule is the bootstrap's). Each rule is counted
per coefficient; the library refuses the whole fit where any coefficient is unbounded.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

import interval_coverage as ic


def denoised(a: np.ndarray, s_o2: float, s_d2: float) -> np.ndarray:
    """The worlds' truth (core/estimators/worlds_truth.hpp): (A^-1 - A^-1 Q(A^-1) A^-1)^-1, or A
    where the correction's largest generalised eigenvalue exceeds 1/2."""
    b = np.linalg.inv(a)
    q = s_o2 * (b + np.trace(b) * np.eye(len(a))) + np.diag((s_d2 - 2.0 * s_o2) * np.diag(b))
    l = np.linalg.cholesky(a)
    li = np.linalg.inv(l)
    dm = li @ q @ li.T
    values, vectors = np.linalg.eigh((dm + dm.T) / 2.0)
    if values[-1] > 0.5:
        return a
    m = l @ vectors / np.sqrt(1.0 - values)
    return m @ m.T


def strengths(release, truth: bool) -> tuple:
    """(eigenvalues over the noise sd of u'Eu, eigenvectors) of the released X'X~, or with
    `truth` of the worlds' truth built on it."""
    r = release.receipt._struct
    s_o2, s_d2 = r.sigma_gram_off_diagonal ** 2, r.sigma_gram ** 2
    a = np.array(release.released_xtx)
    values, vectors = np.linalg.eigh(denoised(a, s_o2, s_d2) if truth else a)
    u4 = np.sum(vectors ** 4, axis=0)
    sd = np.sqrt(s_d2 * u4 + 2.0 * s_o2 * (1.0 - u4))
    return values / sd, vectors


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for name in ("model", "n", "d", "epsilon", "fits"):
        ap.add_argument(name)
    ap.add_argument("--c", default="0,2,2.5,3,3.5")
    ap.add_argument("--tau", default="0.1,0.3,0.5")
    ap.add_argument("--truth", action="store_true",
                    help="the directions of the worlds' truth (the release de-noised to second "
                         "order) instead of the release's")
    args = ap.parse_args(argv)
    model, n, d = args.model, int(float(args.n)), int(args.d)
    eps, fits = float(args.epsilon), int(args.fits)
    rules = [(float(c), float(t)) for c in args.c.split(",") for t in args.tau.split(",")]
    c_y = ic.label_range(model, d)
    target = ic.truth(model, d, c_y)
    kept = {rule: np.zeros(d + 1) for rule in rules}
    hits = {rule: np.zeros(d + 1) for rule in rules}
    weakest = []
    for r in range(fits):
        est = ic.default_fit(model, n, d, eps, r, c_y)
        if est.interval_method_ != "bootstrap":
            continue
        ci = est.conf_int_
        strength, vectors = strengths(est.release_, args.truth)
        weakest.append(strength.min())
        printed = np.isfinite(ci).all(axis=1)
        covers = printed & (ci[:, 0] <= target) & (target <= ci[:, 1])
        for c, tau in rules:
            loading = (vectors[:, strength < c] ** 2).sum(axis=1)
            keep = printed & ~(loading >= tau)
            kept[(c, tau)] += keep
            hits[(c, tau)] += keep & covers
    q = np.round(np.quantile(weakest, [0, 0.1, 0.5, 0.9]), 2) if weakest else []
    print(f"{model} n = {n} d = {d} epsilon = {eps:g}, {fits} fits, {len(weakest)} answered by "
          f"the bootstrap; weakest direction in noise sds (0, 10, 50, 90%): {q}")
    print("| c | tau | intervals kept | coverage | per coefficient: covered / kept |")
    print("| --- | --- | --- | --- | --- |")
    for rule in rules:
        k, h = kept[rule], hits[rule]
        per = " ".join(f"{int(a)}/{int(b)}" for a, b in zip(h, k))
        cover = h.sum() / k.sum() if k.sum() else float("nan")
        print(f"| {rule[0]:g} | {rule[1]:g} | {int(k.sum())} | {cover:.3f} | {per} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
