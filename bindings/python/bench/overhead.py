"""Overhead of the Python binding for one d = 100 Analyze Gauss release vs the same call from C.

Builds bench/overhead_c.c with the system C compiler against the library in DPCOV_LIBRARY (or
build/capi/libdpcov.so.0), then times, with the same inputs and generator seeds:
  C                      dpcov_mechanism_release() from C (clock_gettime around each call);
  Python, raw ctypes     the prototyped C function called directly with preallocated buffers;
  Python, release(out=)  dpcov.release() writing into a preallocated array;
  Python, release()      dpcov.release() allocating its result (the usual call).
Times are the calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID in C, time.thread_time_ns in
Python), so that other processes on a shared machine do not inflate them; the release itself runs
on the calling thread. Each round (ROUNDS, default 5) runs the C program, then the three Python
variants call by call in turn; a round's figure is the median over REPEATS calls (default 2000)
of one release of a precomputed D x D Gram matrix (default D = 100), and the table gives the
median over rounds. The "paired wrapper cost" is the median difference between a wrapper call and
the raw call of the same turn: the binding's own cost, with machine load largely cancelled (run
with D = 1 to see it without the release's own variance). The first release of every variant
must be bit-identical to C's.

Usage (from the repository root):
  DPCOV_LIBRARY=build/capi/libdpcov.so.0 PYTHONPATH=bindings/python \\
      /usr/bin/python3 bindings/python/bench/overhead.py [D] [REPEATS] [ROUNDS]
"""

from __future__ import annotations

import ctypes
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
os.environ.setdefault("DPCOV_LIBRARY", str(REPO / "build" / "capi" / "libdpcov.so.0"))

import dpcov  # noqa: E402  (after DPCOV_LIBRARY is set)
from dpcov._lib import C, ReceiptC, new_struct  # noqa: E402


def build_c_program(workdir: Path) -> Path:
    """Compile overhead_c.c against the library being measured."""
    library = Path(os.environ["DPCOV_LIBRARY"]).resolve()
    exe = workdir / "overhead_c"
    subprocess.run(["cc", "-O2", "-std=c99", "-I", str(REPO / "capi" / "include"),
                    str(HERE / "overhead_c.c"), "-o", str(exe), str(library), "-lm",
                    f"-Wl,-rpath,{library.parent}"], check=True)
    return exe


def gram_matrix(d: int, bound: float, rows: int = 1000) -> np.ndarray:
    """The Gram matrix overhead_c.c builds, through the binding."""
    with dpcov.Rng(1, 0) as rng:
        data = rng.standard_normal(rows * d).reshape(rows, d)
    with dpcov.GramAccumulator(d) as gram:
        gram.add_rows(data, bound)
        return gram.matrix()


def main() -> None:
    """Time every variant in interleaved rounds and print the table."""
    d = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    bound = 2.0 * d ** 0.5
    G = gram_matrix(d, bound)
    names = ["Python, raw ctypes call", "Python, dpcov.release(out=)", "Python, dpcov.release()"]
    outs = [np.empty((d, d)) for _ in names]
    receipt = new_struct(ReceiptC)
    raw = C.dpcov_mechanism_release

    def variants(rngs):
        gp, op, rp = G.ctypes.data, outs[0].ctypes.data, ctypes.byref(receipt)
        return [
            lambda: (raw(1, 101, d, gp, d, 1000, bound, 1.0, 1e-6, None, rngs[0], op, d, rp),
                     outs[0])[1],
            lambda: dpcov.release("analyze_gauss", G, 1000, bound, 1.0, 1e-6, rngs[1],
                                  out=outs[1]).matrix,
            lambda: dpcov.release(dpcov.Mechanism.ANALYZE_GAUSS, G, 1000, bound, 1.0, 1e-6,
                                  rngs[2]).matrix,
        ]

    c_medians, medians, paired = [], {n: [] for n in names}, {n: [] for n in names[1:]}
    firsts = {}
    with tempfile.TemporaryDirectory() as tmp:
        exe = build_c_program(Path(tmp))
        for _ in range(rounds):
            c_ns, *c_first = subprocess.run([str(exe), str(d), str(repeats)], check=True,
                                            capture_output=True, text=True).stdout.split()
            c_medians.append(float(c_ns))
            firsts["C"] = tuple(float(v) for v in c_first)
            rngs = [dpcov.Rng(2, 0) for _ in names]
            calls = variants(rngs)
            times = {n: [] for n in names}
            # The three Python variants run call by call in turn (same inputs, same generator
            # seed, so the same work), and each wrapper is also compared with the raw call of
            # the same turn: a paired difference that machine load affects much less.
            for r in range(repeats):
                for name, call in zip(names, calls):
                    start = time.thread_time_ns()
                    result = call()
                    times[name].append(time.thread_time_ns() - start)
                    if r == 0:
                        flat = result.ravel()
                        firsts[name] = (float(flat[0]), float(flat[min(1, flat.size - 1)]),
                                        float(flat[-1]))
            for name in names:
                medians[name].append(statistics.median(times[name]))
            for name in names[1:]:
                paired[name].append(statistics.median(
                    w - b for w, b in zip(times[name], times[names[0]])))
            for rng in rngs:
                rng.close()

    c_ns = statistics.median(c_medians)
    print(f"Analyze Gauss release of a precomputed {d} x {d} Gram matrix, thread CPU time: "
          f"median over {rounds} rounds of the median of {repeats} calls")
    print(f"{'C, dpcov_mechanism_release':30s} {c_ns / 1000:8.1f} us")
    for name in names:
        ns = statistics.median(medians[name])
        same = "same first release" if firsts[name] == firsts["C"] else "DIFFERENT first release"
        extra = ""
        if name in paired:
            extra = f"   paired wrapper cost {statistics.median(paired[name]) / 1000:+5.1f} us"
        print(f"{name:30s} {ns / 1000:8.1f} us   vs C {(ns - c_ns) / 1000:+6.1f} us "
              f"({100 * (ns - c_ns) / c_ns:+5.1f}%){extra}  {same}")


if __name__ == "__main__":
    main()
