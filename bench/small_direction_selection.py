"""Per fit of one cell of bench/interval_coverage.py: which path answered, how strong X'X's
smallest direction is in the release and in the data, and which printed intervals cover.

Usage (from the repository root, after building):
    DPCOV_LIBRARY=build/capi/libdpcov.so PYTHONPATH=bindings/python \\
        /usr/bin/python3 bench/small_direction_selection.py MODEL N D EPSILON FITS [key=value ...]

Fit r is interval_coverage's (noise seed r, data seed 10^6 + r, the estimator's defaults, the
key=value pairs as its --option). For AdaSSP, s is the rms of the release's off-diagonal errors
(released X'X~ minus the data's X'X, intercept column included), an estimate of the noise sd of
one entry; the smallest eigenvalue of the release and of the data are printed over s, with the
unregularised estimate X'X~^-1 X'y~; s_u is the noise sd of u'Eu by the receipt's noise law
(u the release's smallest eigenvector, independent entries of a symmetric E), which needs no
truth: with intervals="deferred" (the same release, no interval computed) it shows quickly how
many fits a threshold on the release's smallest direction would move. The bootstrap answers
once the release's smallest direction is about 2 s strong; where the data's is a fraction of s
it answers only on releases whose noise pushed that direction up, and there the estimate is
shrunk along it (bench/results/interval_grid.md, "Other models"). Covered: 1, missed: 0,
nothing printed: '.'.
"""

from __future__ import annotations

import math
import sys

import numpy as np

import interval_coverage as ic


def main(argv) -> int:
    model, d, fits = argv[0], int(argv[2]), int(argv[4])
    n, eps = int(float(argv[1])), float(argv[3])
    options = ic.estimator_options(argv[5:])
    c_y = ic.label_range(model, d)
    target = ic.truth(model, d, c_y)
    print(f"{model} n = {n} d = {d} epsilon = {eps:g} {options}; target {np.round(target, 4)}")
    for r in range(fits):
        x, y = ic.mapped(model, n, d, np.random.default_rng(1_000_000 + r), c_y)
        est = ic.default_fit(model, n, d, eps, r, c_y, **options)
        ci = est.conf_int_
        covered = "".join("." if not np.isfinite(ci[j]).all()
                          else str(int(ci[j, 0] <= target[j] <= ci[j, 1])) for j in range(d + 1))
        line = f"{r} {est.interval_method_} {est.errors_} {covered}"
        released = getattr(est.release_, "released_xtx", None)
        if released is not None:
            a = np.column_stack([np.ones(n), x])
            gram = a.T @ a
            s = math.sqrt(np.mean((released - gram)[np.triu_indices(d + 1, 1)] ** 2))
            unregularised = np.linalg.solve(released, est.release_.released_xty)
            values, vectors = np.linalg.eigh(released)
            u4 = float(np.sum(vectors[:, 0] ** 4))
            noise = est.release_.receipt._struct
            s_u = math.sqrt(noise.sigma_gram ** 2 * u4
                            + 2.0 * noise.sigma_gram_off_diagonal ** 2 * (1.0 - u4))
            line += (f" released lambda_min / s_u {values[0] / s_u:.2f}"
                     f" released lambda_min / s {values[0] / s:.2f}"
                     f" true {np.linalg.eigvalsh(gram)[0] / s:.2f} s {s:.2f}"
                     f" unregularised {np.round(unregularised, 3).tolist()}")
        print(f"{line} intervals {np.round(ci, 3).tolist()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
