"""The private bound with privacy units on Dask: its cost against the bound of rows and against the
release of units at a public bound, in the same run (issue 34).

Usage (from the repository root, after building; not in any test suite):
    DPCOV_LIBRARY=build/capi/libdpcov.so PYTHONPATH=bindings/python OPENBLAS_NUM_THREADS=1 \\
        /usr/bin/python3 bench/dask_unit_bound.py [--rows 400000] [--cols 20] [--chunks 8]

A local cluster of 2 workers that are threads of this process (so that the process's CPU time
counts the workers' too) over n x d uniform rows in --chunks equal blocks, units of 4 rows,
either contiguous (unit = row // 4) or scattered over every block (the same ids permuted). For
each, the CPU seconds of: the bound of rows (dask_private_bound, one histogram per partition
summed), the bound of units (each partition's largest cell per unit through the groupby's spill
files, one histogram per group) and the release of units at a public bound (dask_unit_release,
the rows through the same groupby, and the accumulators of units), each the least of 3 runs; the ratios to the bound of rows; and whether B equals the
one-process B (choose_bound_from over dpcov.private_bound.unit_histogram) with the same seed.
Only the ratios within a run mean anything on a loaded machine.
"""

import argparse
import time

import dask.array as da
import numpy as np
from distributed import Client, LocalCluster

import dpcov
import dpcov.dask_bound as dask_bound
import dpcov.dask_units as dask_units
from dpcov.private_bound import choose_bound_from, unit_histogram


def cpu(call, repeats: int = 3):
    """(the result of ``call()``, the least of the process's CPU seconds it took in
    ``repeats`` calls)."""
    times = []
    for _ in range(repeats):
        start = time.process_time()
        result = call()
        times.append(time.process_time() - start)
    return result, min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=float, default=4e5)
    parser.add_argument("--cols", type=int, default=20)
    parser.add_argument("--chunks", type=int, default=8)
    args = parser.parse_args()
    n, d = int(args.rows), args.cols
    rows = np.random.default_rng(34).uniform(-0.2, 0.2, size=(n, d))
    chunk = -(-n // args.chunks)
    x = da.from_array(rows, chunks=(chunk, d))
    layouts = {"contiguous": np.arange(n) // 4,
               "scattered": np.random.default_rng(35).permutation(n) // 4}
    print(f"n = {n}, d = {d}, {args.chunks} blocks, units of 4 rows; CPU seconds (ratio to the "
          "bound of rows)")
    print("| units | bound of rows | bound of units | release of units at B = 1 "
          "| B as one process |")
    print("| --- | --- | --- | --- | --- |")
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                      dashboard_address=None) as cluster, Client(cluster):
        for name, ids in layouts.items():
            units = da.from_array(ids, chunks=chunk)
            _, rows_cpu = cpu(lambda: dask_bound.dask_private_bound(x, 0.1, dpcov.Rng(1)))
            bound, units_cpu = cpu(lambda: dask_bound.dask_private_bound(
                x, 0.1, dpcov.Rng(2), privacy_unit=units))
            with dpcov.Rng(2) as rng:
                order = np.argsort(ids, kind="stable")
                same = bound == choose_bound_from(
                    lambda g: unit_histogram(rows[order], ids[order], g), None, 0.1, rng)
            _, release_cpu = cpu(lambda: dask_units.dask_unit_release(
                x, units, 1.0, 4, 1.0, 1e-6, dpcov.Rng(3)))
            print(f"| {name} | {rows_cpu:.2f} (1) | {units_cpu:.2f} ({units_cpu / rows_cpu:.1f}) "
                  f"| {release_cpu:.2f} ({release_cpu / rows_cpu:.1f}) | {same} |")


if __name__ == "__main__":
    main()
