"""The cost of a DataFrame input to dpcov.dask: the same rows released from a dask.array and from a
dask.dataframe built from it, on a LocalCluster.

Rows are n x d uniform on [-0.1, 0.1] (norm below 1), generated lazily in blocks; the frame is
`dd.from_dask_array` of the same array, so its partitions hold the same rows. Each release is
Analyze Gauss with exact numerics at B = 1, (1, 1e-6), with the same seed: the script prints the
seconds and rows per second of each path (the second of two rounds) and whether the two releases
are equal byte for byte.

    DPCOV_LIBRARY=build/capi/libdpcov.so PYTHONPATH=bindings/python \
        /usr/bin/python3 bench/dask_frame_speed.py --rows 1000000 --cols 20 --block 100000
"""

import argparse
import time

import dask.array as da
import dask.dataframe as dd
from distributed import Client, LocalCluster

import dpcov
from dpcov.dask import dask_release


def timed_release(x, seed: int):
    """(seconds, release) of one exact Analyze Gauss release of ``x`` with a fixed seed."""
    start = time.perf_counter()
    with dpcov.Rng(seed) as rng:
        release = dask_release(x, 1.0, 1.0, 1e-6, rng)
    return time.perf_counter() - start, release


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--cols", type=int, default=20)
    parser.add_argument("--block", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    x = da.random.RandomState(7).uniform(-0.1, 0.1, size=(args.rows, args.cols),
                                         chunks=(args.block, args.cols))
    frame = dd.from_dask_array(x, columns=[f"c{j}" for j in range(args.cols)])
    with LocalCluster(n_workers=args.workers, threads_per_worker=1,
                      dashboard_address=None) as cluster, Client(cluster):
        for _ in range(2):  # the second round, once the workers have imported everything
            array_seconds, (expected, _) = timed_release(x, 1)
            frame_seconds, (released, _) = timed_release(frame, 1)
    for name, seconds in (("array", array_seconds), ("frame", frame_seconds)):
        print(f"{name}: {seconds:.1f} s, {args.rows / seconds:.3g} rows/s")
    print(f"equal byte for byte: {released.tobytes() == expected.tobytes()}")


if __name__ == "__main__":
    main()
