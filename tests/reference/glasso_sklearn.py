#!/usr/bin/env python3
"""Compares dpcov_glasso_solve with scikit-learn's graphical_lasso (off-diagonal penalty, its
convention) on fixed small problems, through the C ABI (a small program reading stdin).

Both solvers are run to tight tolerances, so both are within about 1e-8 of the unique optimum
(the objective is strictly convex); the comparison allows 1e-6, relative to max |Theta|.
Usage: glasso_sklearn.py PATH_TO_glasso_solve_stdin
"""
import subprocess
import sys
import warnings

import numpy as np
from sklearn.covariance import graphical_lasso

TOLERANCE = 1e-6


def problems():
    """(name, S, rho): sample covariances of fixed-seed data, sparse-precision models, and a
    case with an empty graph."""
    rng = np.random.default_rng(20261122)
    out = []
    for d, n, rho in [(3, 50, 0.1), (5, 40, 0.05), (8, 30, 0.2), (10, 200, 0.02), (12, 25, 0.1)]:
        x = rng.standard_normal((n, d)) @ rng.standard_normal((d, d)) / np.sqrt(d)
        s = np.cov(x, rowvar=False, bias=True)
        out.append((f"random d={d} n={n}", s, rho))
    # A chain graph (tridiagonal precision), d = 15: the lasso has to find the support.
    d = 15
    theta = np.eye(d) + np.diag(np.full(d - 1, 0.4), 1) + np.diag(np.full(d - 1, 0.4), -1)
    x = rng.multivariate_normal(np.zeros(d), np.linalg.inv(theta), size=300)
    out.append(("chain d=15", np.cov(x, rowvar=False, bias=True), 0.05))
    # rho above every |S_ij|: the solution is diagonal, 1 / S_ii.
    s = np.array([[2.0, 0.3, -0.1], [0.3, 1.0, 0.2], [-0.1, 0.2, 1.5]])
    out.append(("empty graph", s, 0.5))
    return out


def main():
    program = sys.argv[1]
    cases = problems()
    text = []
    for _, s, rho in cases:
        s = (s + s.T) / 2  # exactly symmetric, as the C API requires
        d = s.shape[0]
        text.append(f"{d} {rho!r} 0 1e-12")
        text.extend(" ".join(repr(float(v)) for v in row) for row in s)
    run = subprocess.run([program], input="\n".join(text) + "\n", capture_output=True, text=True,
                         check=True)
    lines = run.stdout.splitlines()
    failures = 0
    for name, s, rho in cases:
        s = (s + s.T) / 2
        d = s.shape[0]
        status = int(lines.pop(0))
        if status != 0:
            print(f"FAIL {name}: status {status}: {lines.pop(0)}")
            failures += 1
            continue
        ours = np.array([[float(v) for v in lines.pop(0).split()] for _ in range(d)])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _, theirs = graphical_lasso(s, alpha=rho, mode="cd", tol=1e-14, enet_tol=1e-14,
                                        max_iter=5000)
        error = np.max(np.abs(ours - theirs)) / np.max(np.abs(theirs))
        zeros_ours = int(np.sum(ours == 0))
        verdict = "ok" if error <= TOLERANCE else "FAIL"
        print(f"{verdict} {name}: rho={rho} max|dTheta|/max|Theta| = {error:.2e}, "
              f"exact zeros {zeros_ours}")
        failures += verdict != "ok"
    if failures:
        sys.exit(1)


if __name__ == "__main__":
    main()
