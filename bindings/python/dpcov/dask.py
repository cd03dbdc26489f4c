"""A differentially private second-moment release over a Dask array, with one release at the end.

Each partition (a block of rows) accumulates its own Gram matrix through the dpcov binding
(:class:`dpcov.GramAccumulator`: rows checked and bounded in norm, clipped rows counted) and
returns its state, plain data: the d x d matrix and the row counters. Dask's tree reduction
(``Bag.reduction`` with ``split_every``) adds the states pairwise up to one, on whichever workers
hold them; no raw row leaves its partition. The driver rebuilds an accumulator from the summed
state (``GramAccumulator.from_state``) and makes ONE release with the chosen mechanism, so the
privacy cost is that of a single release whatever the number of partitions, and the result equals
the single-process release with the same generator up to the rounding of the sum.

Import it as ``dpcov.dask`` (it needs Dask: Debian ``python3-dask python3-distributed``;
``import dpcov`` alone does not), or run ``python3 -m dpcov.dask`` for a demonstration on a local
cluster.
"""

from __future__ import annotations

import dask.array as da
import dask.bag as db
import numpy as np

import dpcov


def partition_state(block: np.ndarray, bound: float, policy: str = "clip") -> dict:
    """The Gram state of one partition's rows: {"matrix", "rows", "clipped", "dropped",
    "bound"}."""
    with dpcov.GramAccumulator(block.shape[1]) as gram:
        gram.add_rows(block, bound, policy)
        return gram.state()


def add_states(states: list[dict]) -> dict:
    """The sum of partial Gram states: the state of their merge (to the rounding of the sum)."""
    states = list(states)
    total = {"matrix": states[0]["matrix"].copy(), "rows": 0, "clipped": 0, "dropped": 0,
             "bound": max(s["bound"] for s in states)}
    for s in states[1:]:
        total["matrix"] += s["matrix"]
    for key in ("rows", "clipped", "dropped"):
        total[key] = sum(s[key] for s in states)
    return total


def gram_state(x: da.Array, bound: float, policy: str = "clip", split_every: int = 2) -> dict:
    """Tree-sum of the per-partition Gram states of the rows of the n x d Dask array ``x``.

    ``x`` is rechunked so that every block holds whole rows; each row block is one partition.
    ``split_every`` is the fan-in of Dask's reduction tree (2: a binary tree).
    """
    if x.ndim != 2:
        raise ValueError(f"x must be 2-D, got {x.ndim} dimensions")
    rows = x.rechunk({1: -1})
    partitions = db.from_delayed(list(rows.to_delayed().ravel()))
    return partitions.reduction(lambda block: partition_state(block, bound, policy), add_states,
                                split_every=split_every).compute()


def dask_release(x: da.Array, bound: float, epsilon: float, delta: float, rng,
                 mechanism="analyze_gauss", policy: str = "clip", split_every: int = 2,
                 **params) -> dpcov.Release:
    """One private release of the Gram matrix of the rows of the Dask array ``x``, with idealized
    numerics: the partitions' floating-point Gram states are summed (the exact integer state of
    :func:`dpcov.release_rows` cannot yet be exported from a process).

    The partial Gram matrices are computed on the Dask workers (the current
    ``distributed.Client`` if any, else Dask's default scheduler); the release itself runs here
    with ``rng`` (a :class:`dpcov.Rng`; use ``dpcov.Rng()`` from OS entropy for a private
    release). Returns the released matrix and its receipt, which is the curator's: publish
    ``receipt.public()``, which withholds n under add/remove neighbours (where dividing by n, as
    :func:`main` does under replace-one, would publish it: release rows with a constant column
    and use :func:`dpcov.centre_second_moment` with n = 0 instead).
    """
    state = gram_state(x, bound, policy, split_every)
    with dpcov.GramAccumulator.from_state(**state) as gram:
        return gram.release(mechanism, epsilon, delta, rng, **params)


def main() -> None:
    """Release the second-moment matrix of 100 000 rows in 8 partitions on a local cluster."""
    from distributed import Client, LocalCluster

    gen = np.random.default_rng(1)
    data = gen.normal(size=(100_000, 5)) * [1.0, 0.8, 0.6, 0.4, 0.2] / 3.0
    x = da.from_array(data, chunks=(12_500, 5))
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                      dashboard_address=None) as cluster, Client(cluster):
        released, receipt = dask_release(x, bound=1.0, epsilon=1.0, delta=1e-6, rng=dpcov.Rng())
    print("released G / n:")
    print(np.array2string(released / receipt.n, precision=4))
    print(f"mechanism {receipt.mechanism_name}, n = {receipt.n}, sigma = {receipt.sigma:.4g}, "
          f"epsilon = {receipt.epsilon}, delta = {receipt.delta}")
    print(receipt.theorem)


if __name__ == "__main__":
    main()
