"""Peak memory of Python's histogram of privacy units (the private bound with units, one process):
every unit in one library call, or slices of whole units as dpcov.private_bound.unit_histogram
hands sorted ids to the library (issue 34).

Usage (from the repository root, after building; not in any test suite):
    DPCOV_LIBRARY=build/capi/libdpcov.so PYTHONPATH=bindings/python \\
        /usr/bin/python3 bench/unit_histogram_memory.py [--units 2000000] [--rows-per-unit 2]
            [--cols 2]

Each way runs in a process of its own, over the same Gaussian rows and sorted ids. Reported: the
peak resident memory the histogram adds to what the process holds before it (Linux: the peak is
reset through /proc/self/clear_refs, then read from VmHWM), the rows' and ids' own size, the CPU
seconds, and the units counted (the same both ways).
"""

import argparse
import subprocess
import sys
import time

import numpy as np


def resident_peak_kib() -> int:
    """VmHWM of this process, in KiB."""
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmHWM"))


def measure(way: str, units: int, per: int, cols: int) -> None:
    """Prints one line: the histogram of ``units`` units of ``per`` rows, ``way`` "one call" or
    "slices"."""
    from dpcov import _arrays, private_bound
    from dpcov._lib import C, _check

    x = np.random.default_rng(1).normal(size=(units * per, cols))
    ids = np.repeat(np.arange(units, dtype=np.int64), per)
    grid = private_bound.grid(1e-6, 1e9, 1.25)
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # the peak resident size is reset to the current one
    base = resident_peak_kib()
    start = time.process_time()
    if way == "slices":
        counts = private_bound.unit_histogram(x, ids, grid)
    else:
        counts = np.zeros(len(grid) + 1, dtype=np.int64)
        m = _arrays.matrix(x, "x")
        _check(C.dpcov_private_bound_unit_histogram(_arrays.ptr(grid), len(grid), m.layout,
                                                    m.rows, m.cols, m.ptr, m.ld,
                                                    ids.ctypes.data, counts.ctypes.data))
    cpu = time.process_time() - start
    print(f"| {way} | {(resident_peak_kib() - base) / 1024:.1f} MiB | "
          f"{(x.nbytes + ids.nbytes) / 2**20:.1f} MiB | {cpu:.2f} s | {counts.sum()} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--units", type=int, default=2_000_000)
    parser.add_argument("--rows-per-unit", type=int, default=2)
    parser.add_argument("--cols", type=int, default=2)
    parser.add_argument("--way", choices=["one call", "slices"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.way:
        measure(args.way, args.units, args.rows_per_unit, args.cols)
        return
    print(f"{args.units} units of {args.rows_per_unit} rows of {args.cols} columns")
    print("| way | peak added | rows and ids | CPU | units |")
    print("| --- | --- | --- | --- | --- |")
    for way in ("one call", "slices"):
        subprocess.run([sys.executable, __file__, "--way", way, "--units", str(args.units),
                        "--rows-per-unit", str(args.rows_per_unit), "--cols", str(args.cols)],
                       check=True)


if __name__ == "__main__":
    main()
