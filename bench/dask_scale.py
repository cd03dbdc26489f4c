"""dpcov.dask at scale: rows per second per worker and peak memory per worker on a local cluster
of 2 worker processes, for n rows x d columns generated lazily (issue 34, "Measured scale").

Usage (from the repository root, after building; not in any test suite):
    DPCOV_LIBRARY=build/capi/libdpcov.so PYTHONPATH=bindings/python \\
        /usr/bin/python3 bench/dask_scale.py [--rows 1e6,1e7,1e8] [--cols 50] [--chunk 250000]
            [--paths rows,units,units-sorted,units-string] [--check 200000]

The rows are uniform on [-0.2, 0.2]^d (norms about 0.2 sqrt(d / 3), 0.82 at d = 50), generated
chunk by chunk on the workers (dask.array.random, seed 34): no process ever holds all of them.
For each n a fresh cluster (2 processes, 1 thread each, so 2 cores) makes one release:
- rows: dask_release, Analyze Gauss with exact numerics at B = 1, epsilon 1, delta 1e-6;
- units: dask_unit_release, 4 rows per unit (unit = row index // 4), k = 2 (so every unit is
  truncated and each group draws), grouped through spill files (under --spill-dir) into the
  groups dask_units.default_groups chooses for each group task to fit --budget bytes;
- units-sorted: the same units, already partitioned by unit ranges (``shuffle=False``: the
  block size is a multiple of 4, so no unit is split), as rows stored sorted by unit would be;
- units-string: the same units named by strings ("u" + row index // 4) in a dask.dataframe of
  the same blocks, grouped through the spill files with the ids beside the rows
  (dask_string_units), into the same number of groups as units; its equality check is against
  the same release computed in the driver's process (Dask's synchronous scheduler), as no
  single-process function groups string ids apart from it.
Reported: wall time, rows per second per worker (n / time / 2), the peak resident memory of
each worker process (VmHWM, the largest of the two) and the number of groups; then the equality
check: on the first ``--check`` rows the cluster release equals, byte for byte, the
single-process release with the same seed (rows: dpcov.release_rows; units: the same groups, or
blocks, in one process, dask_units.unit_state_serial, which groups in memory without spill
files). The absolute times depend on the machine's load; the memory should not grow with n.
"""

import argparse
import time

import dask
import dask.array as da
import numpy as np
from distributed import Client, LocalCluster

import dpcov
import dpcov.dask as dask_release
import dpcov.dask_units as dask_units

EPSILON, DELTA, BOUND, K = 1.0, 1e-6, 1.0, 2


def lazy_rows(n: int, d: int, chunk: int):
    """n x d uniform rows in chunks of ``chunk`` rows, generated where they are consumed."""
    return da.random.RandomState(34).uniform(-0.2, 0.2, size=(n, d), chunks=(chunk, d))


def lazy_units(n: int, chunk: int):
    """Unit of row i: i // 4."""
    return da.arange(n, chunks=chunk, dtype=np.int64) // 4


def string_partition(block: np.ndarray, first: int):
    """A partition of the string-id frame: the block's columns and the unit "u" + row // 4."""
    import pandas as pd

    part = pd.DataFrame(block, columns=[f"x{j}" for j in range(block.shape[1])])
    part.insert(0, "unit", "u" + pd.Series(np.arange(first, first + len(block)) // 4).astype(str))
    return part


def string_frame(x):
    """The rows of ``x`` as a dask.dataframe with a string unit column, one partition a block."""
    import dask.dataframe as dd

    starts = np.cumsum((0,) + x.chunks[0][:-1])
    parts = [dask.delayed(string_partition)(b, int(s))
             for b, s in zip(x.to_delayed().ravel(), starts)]
    return dd.from_delayed(parts, meta=string_partition(np.zeros((0, x.shape[1])), 0))


def peak_memory() -> int:
    """This process's peak resident memory in bytes (VmHWM)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return -1


def release(path: str, x, units, rng, options: dict):
    if path == "rows":
        return dask_release.dask_release(x, BOUND, EPSILON, DELTA, rng)
    if path == "units-string":
        return dask_units.dask_unit_release(string_frame(x), "unit", BOUND, K, EPSILON, DELTA,
                                            rng, **options)
    return dask_units.dask_unit_release(x, units, BOUND, K, EPSILON, DELTA, rng,
                                        shuffle=path == "units", **options)


def single_process(path: str, x, units, seed: int, chunk: int, groups: int):
    """The release of the rows of ``x`` (computed here) in this process, with the seed."""
    if path == "units-string":
        with dask.config.set(scheduler="synchronous"), dpcov.Rng(seed) as rng:
            return release(path, x, units, rng, {"groups": groups})
    rows = x.compute()
    with dpcov.Rng(seed) as rng:
        if path == "rows":
            return dpcov.release_rows("analyze_gauss", rows, BOUND, EPSILON, DELTA, rng)
        spec = dask_units.unit_spec(BOUND, K, "analyze_gauss", EPSILON, DELTA)
        state = dask_units.unit_state_serial(rows, units.compute(), spec, rng, groups, chunk,
                                             shuffle=path == "units")
        with dpcov.GramAccumulator.from_bytes(state) as gram:
            return gram.release("analyze_gauss", EPSILON, DELTA, rng)


def measure(path: str, n: int, d: int, chunk: int, check: int, options: dict) -> dict:
    x, units = lazy_rows(n, d, chunk), lazy_units(n, chunk)
    groups = dask_units.default_groups(n, d, options["memory_budget"])
    if path == "units-string":
        options = {**options, "groups": groups}
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None, memory_limit=0) as cluster, Client(cluster) as client:
        start = time.perf_counter()
        with dpcov.Rng() as rng:
            _, receipt = release(path, x, units, rng, options)
        seconds = time.perf_counter() - start
        memory = max(client.run(peak_memory).values())
        equal = None
        if check:
            # A few groups, so that the check also reads several groups' slices of every file.
            m, few = min(check, n), {**options, "groups": 3}
            with dpcov.Rng(2026) as rng:
                got = release(path, x[:m], units[:m], rng, few)
            want = single_process(path, x[:m], units[:m], 2026, chunk, 3)
            equal = got[0].tobytes() == want[0].tobytes() and got[1] == want[1]
    return {"path": path, "n": n, "d": d, "seconds": seconds, "per_worker": n / seconds / 2,
            "peak_mb": memory / 2**20, "equal": equal, "receipt_n": receipt.n,
            "groups": groups if path in ("units", "units-string") else "-"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="1e6,1e7,1e8")
    parser.add_argument("--cols", type=int, default=50)
    parser.add_argument("--chunk", type=int, default=250_000)
    parser.add_argument("--paths", default="rows,units")
    parser.add_argument("--check", type=int, default=200_000)
    parser.add_argument("--spill-dir", default=None)
    parser.add_argument("--budget", type=float, default=dask_units.MEMORY_BUDGET)
    args = parser.parse_args()
    options = {"spill_dir": args.spill_dir, "memory_budget": int(args.budget)}
    print("| path | n | d | groups | seconds | rows/s per worker | peak MB per worker | "
          "equal on subsample |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for path in args.paths.split(","):
        for n in (int(float(v)) for v in args.rows.split(",")):
            r = measure(path, n, args.cols, args.chunk, args.check, options)
            print(f"| {r['path']} | {r['n']:.0e} | {r['d']} | {r['groups']} | "
                  f"{r['seconds']:.1f} | {r['per_worker']:.3g} | {r['peak_mb']:.0f} | "
                  f"{r['equal']} |", flush=True)


if __name__ == "__main__":
    main()
