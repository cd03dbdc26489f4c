"""dpcov's IEV against the plain NumPy reference of the same algorithm (bench/iev_reference.py),
timed in one run, at d = 5, 10, 50, 100, 200.

Two figures per d, each the median over interleaved calls of the calling thread's CPU time
(time.thread_time: other processes on a shared machine do not inflate it; OpenBLAS runs on this
thread, OPENBLAS_NUM_THREADS=1 for both sides):
  release  one full-rank IEV release (eps = 1, B = 1, replace-one, the library's defaults) of the
           Gram matrix of n = 10 d rows of norm <= 1 with a decaying spectrum (as
           bench/iev_bench.cpp);
           dpcov through dpcov.release(), the reference through iev_release();
  draw     one Bingham draw for A = kappa diag(1000 (1 - 0.85^i)), kappa = 1/4 (as BM_Bingham in
           bench/random_bench.cpp), the sampler built once: dpcov through Rng.bingham(a, n) (per
           draw: the call's time / n), the reference through Bingham(a).sample() in calls of
           50 draws (per draw likewise). Both sides are means over a batch: the time of one
           draw follows its geometric number of proposals, and the median of single draws
           (what this figure took before) understates the reference's mean by about a third.
The ratio is reference / dpcov. The proposals per release or draw are printed for both: the two
implement the same envelope and acceptance rule, so they agree up to sampling noise.

Usage (from the repository root, after meson compile -C build):
  DPCOV_LIBRARY=build/capi/libdpcov.so.0 PYTHONPATH=bindings/python \\
      /usr/bin/python3 bench/iev_vs_reference.py [--quick]
"""

from __future__ import annotations

import os
import platform
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
from iev_reference import Bingham, iev_release  # noqa: E402

DIMS = (5, 10, 50, 100, 200)
REFERENCE_DRAWS = 50


def gram_of_rows(d: int) -> tuple[np.ndarray, int]:
    n = 10 * d
    rows = np.random.default_rng(42).standard_normal((n, d)) / np.sqrt((np.arange(d) + 1.0) * d)
    norms = np.linalg.norm(rows, axis=1)
    rows /= np.maximum(1.0, norms)[:, None]
    return rows.T @ rows, n


def timed(call):
    start = time.thread_time()
    value = call()
    return time.thread_time() - start, value


def compare(ours, reference, budget: float, min_calls: int):
    """Interleaved calls until each side has run min_calls times and `budget` CPU seconds;
    returns the two medians and the mean of the second element each call returns."""
    times, counts = ([], []), ([], [])
    spent = 0.0
    while len(times[0]) < min_calls or spent < budget:
        for k, call in enumerate((ours, reference)):
            seconds, (scale, count) = timed(call)
            times[k].append(seconds / scale)
            counts[k].append(count)
            spent += seconds
    return [statistics.median(t) for t in times], [statistics.fmean(c) for c in counts]


def row(name, d, medians, counts):
    ratio = medians[1] / medians[0]
    print(f"| {name} | {d} | {medians[0] * 1e3:.4f} | {medians[1] * 1e3:.4f} | {ratio:.1f} "
          f"| {counts[0]:.1f} | {counts[1]:.1f} |", flush=True)


def machine() -> str:
    """The processor model and the load average: the ratios are taken within one run, but a loaded
    machine shares its caches and cores with the other processes."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as info:
            model = next(line.split(":", 1)[1].strip() for line in info
                         if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return f"{model}, {os.cpu_count()} CPUs, load average {load}"


def main() -> None:
    quick = "--quick" in sys.argv[1:]
    budget = 0.5 if quick else 3.0
    ours_rng, ref_rng = dpcov.Rng.seeded(7), np.random.default_rng(7)
    print(f"Machine: {machine()} (at the start)\n")
    print("| figure | d | dpcov ms | NumPy reference ms | ratio | dpcov proposals "
          "| reference proposals |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for d in DIMS:
        gram, n = gram_of_rows(d)

        def ours_release():
            receipt = dpcov.release("iev", gram, n, 1.0, 1.0, 0.0, ours_rng).receipt
            return 1, receipt.bingham_proposals

        def ref_release():
            return 1, iev_release(gram, n, 1.0, 1.0, ref_rng)[1]

        row("release", d, *compare(ours_release, ref_release, budget, 3))

    for d in DIMS:
        a = 0.25 * 1000.0 * (1.0 - 0.85 ** np.arange(d))
        sampler, a_matrix, draws = Bingham(a), np.diag(a), 1000

        def ours_draws():
            return draws, ours_rng.bingham(a_matrix, draws)[1] / draws

        def ref_draw():
            tries = sum(sampler.sample(ref_rng)[1] for _ in range(REFERENCE_DRAWS))
            return REFERENCE_DRAWS, tries / REFERENCE_DRAWS

        row("draw", d, *compare(ours_draws, ref_draw, budget, 3))
    print(f"\nMachine: {machine()} (at the end)")


if __name__ == "__main__":
    main()
