"""IEV's release with the library's internals ported plainly to NumPy, for scale: how much of
bench/iev_vs_reference.py's ratio is the algorithm (no eigen-decomposition per step) and how much
the implementation. Each step draws from exp(kappa y^T C y) by uniform proposals accepted with
probability exp(-(t - L)), L = -sqrt((q-1)/q) |A|_F (the weak envelope of
core/random/bingham_dense.cpp, which every step of the benchmark's releases takes; a step it does
not apply to raises), then compresses C by the Householder reflection of the draw, a rank-two
update. Prints the
median thread CPU ms of this port and of the library at the benchmark's d.

Usage (from the repository root, after meson compile -C build):
  OPENBLAS_NUM_THREADS=1 PYTHONPATH=bindings/python /usr/bin/python3 bench/iev_dense_numpy.py
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
REPO = Path(__file__).resolve().parents[1]
os.environ.setdefault("DPCOV_LIBRARY", str(REPO / "build" / "capi" / "libdpcov.so.0"))
sys.path.insert(0, str(REPO / "bindings" / "python"))
sys.path.insert(0, str(REPO / "bench"))

import numpy as np  # noqa: E402

import dpcov  # noqa: E402
from iev_vs_reference import gram_of_rows  # noqa: E402


def step(c: np.ndarray, kappa: float, rng: np.random.Generator) -> np.ndarray:
    q = c.shape[0]
    m = np.trace(c) / q
    frobenius = kappa * np.linalg.norm(c - m * np.eye(q))
    bound = np.sqrt((q - 1) / q) * frobenius
    if bound > np.log1p(q / 8):
        raise ValueError("a step outside the weak envelope")
    while True:
        g = rng.standard_normal(q)
        y = g / np.linalg.norm(g)
        t = kappa * (m - y @ c @ y)
        if np.log(rng.random()) < -(t + bound):
            return y


def release(gram: np.ndarray, n: int, eps: float, rng: np.random.Generator) -> np.ndarray:
    d = gram.shape[0]
    values = np.linalg.eigvalsh(gram)[::-1]
    scale = 2.0 / (eps / 2.0)
    lambda_hat = values + rng.laplace(0.0, scale, d)
    tau = scale * (np.log(2.0 * d) - np.log(0.05))
    weights = np.sqrt(np.maximum(0.0, lambda_hat + tau))
    kappas = (eps / 2.0) * weights / weights.sum() / 2.0
    c, basis = gram.copy(), np.eye(d)
    thetas = np.empty((d, d))
    for i in range(d):
        y = step(c, kappas[i], rng)
        thetas[:, i] = basis @ y
        if i + 1 < d:
            # H = I - tau v v^T with H y = -+e_0; H C H = C - v w^T - w v^T, O(q^2).
            v = y.copy()
            v[0] += 1.0 if y[0] >= 0.0 else -1.0
            tau = 2.0 / (v @ v)
            p = tau * (c @ v)
            w = p - 0.5 * tau * (v @ p) * v
            c = (c - np.outer(v, w) - np.outer(w, v))[1:, 1:]
            basis = (basis - tau * np.outer(basis @ v, v))[:, 1:]
    weights = np.clip(lambda_hat, 0.0, n)
    return (thetas * weights) @ thetas.T


def median_ms(call, calls: int) -> float:
    times = []
    for _ in range(calls):
        start = time.thread_time()
        call()
        times.append(time.thread_time() - start)
    return statistics.median(times) * 1e3


def main() -> None:
    print("| d | NumPy port ms | dpcov ms | ratio |")
    print("| --- | --- | --- | --- |")
    for d in (50, 100, 200):
        gram, n = gram_of_rows(d)
        port_rng, ours_rng = np.random.default_rng(7), dpcov.Rng.seeded(7)
        calls = 40 if d < 200 else 10
        port = median_ms(lambda: release(gram, n, 1.0, port_rng), calls)
        ours = median_ms(lambda: dpcov.release("iev", gram, n, 1.0, 1.0, 0.0, ours_rng), calls)
        print(f"| {d} | {port:.3f} | {ours:.3f} | {port / ours:.1f} |", flush=True)


if __name__ == "__main__":
    main()
