"""A differentially private second-moment release over a Dask array, with one release at the end.

Each partition (a block of rows) accumulates its own Gram matrix through the dpcov binding
(:meth:`dpcov.GramAccumulator.bounded`, naming the release: rows checked and bounded in norm by
the library, clipped rows counted) and returns the accumulator's saved state as bytes
(``GramAccumulator.to_bytes``): exact integers for Analyze Gauss and symmetric Laplace (exact
numerics, the default), floating-point sums otherwise. Dask's tree reduction (``Bag.reduction`` with
``split_every``) merges the states pairwise up to one, on whichever workers hold them; no raw row
leaves its partition. The driver rebuilds one accumulator from the merged state and makes ONE
release with the chosen mechanism, so the privacy cost is that of a single release whatever the
number of partitions; the result equals the single-process release with the same generator, byte
for byte with exact numerics (integer addition) and up to the rounding of the sum otherwise.

Dong-Liang-Yi and CoinPress, which look at the rows more than once, run as passes
(:func:`dask_zcdp_release`): each pass over the rows is one such reduction of partial sums, and
the driver draws the pass's noise and decides the next.

The private bound (:mod:`dpcov.dask_bound`), AdaSSP (:mod:`dpcov.dask_adassp`) and privacy
units through a groupby (:mod:`dpcov.dask_units`; for the passes :mod:`dpcov.dask_zcdp_units`)
build on the same states; docs/distributed.md
states what each costs and what the driver and the workers see.

Every entry point also takes a ``dask.dataframe.DataFrame`` with its columns named
(:mod:`dpcov.dask_frame`). Import it as ``dpcov.dask`` (it needs Dask: Debian ``python3-dask
python3-distributed``, and ``python3-pandas`` for DataFrames; ``import dpcov`` alone does not), or
run ``python3 -m dpcov.dask`` for a demonstration on a local cluster.
"""

from __future__ import annotations

import math

import dask
import dask.array as da
import dask.bag as db
import numpy as np

import dpcov
from . import _arrays, dask_frame
from .errors import rows_of_caller


class SavedState(bytes):
    """The bytes of a saved state (a Gram accumulator's or a pass's partial) that print as their
    length only: Dask logs a failed task's arguments, and a state is a private statistic of the
    rows behind it."""

    def __repr__(self) -> str:
        return f"<private dpcov state, {len(self)} bytes>"

    __str__ = __repr__


def row_partitions(x: da.Array) -> db.Bag:
    """The rows of the n x d Dask array ``x`` as a bag of row blocks, one per partition, each
    with its partition's index and the index of its first row in ``x`` (None where Dask does not
    know the blocks' lengths): ``(index, first, block)``. ``x`` is rechunked so that every block
    holds whole rows."""
    if x.ndim != 2:
        raise ValueError(f"x must be 2-D, got {x.ndim} dimensions")
    x = x.rechunk({1: -1})
    lengths = x.chunks[0]
    firsts = [None] * len(lengths) if any(math.isnan(n) for n in lengths) else \
        [int(f) for f in np.cumsum((0,) + lengths[:-1])]
    return db.from_delayed([dask.delayed(_located)(i, first, block) for i, (first, block)
                            in enumerate(zip(firsts, x.to_delayed().ravel()))])


def _located(index: int, first, block: np.ndarray) -> tuple:
    """A partition of :func:`row_partitions`, its block C-contiguous and aligned: a block that
    reaches a worker process through the scheduler can be a view into a message frame, at any
    byte, which the library refuses (it reads doubles in place); copied only where it is."""
    return index, first, np.require(block, requirements=["C", "A"])


def on_rows(fn, check_finite: bool = False):
    """``fn(block)`` as the function of a partition ``(index, first, block)`` of
    :func:`row_partitions`: a refusal of one of its rows names the row of ``x`` (``first`` + the
    block's row), or the row of its partition where ``first`` is not known. ``check_finite``
    for an ``fn`` whose library call names no row as data: the block is checked first."""
    def call(partition):
        index, first, block = partition
        where = f"partition {index}"
        if check_finite:
            _arrays.refuse_non_finite_rows(block, first, where)
        with rows_of_caller(lambda row: first + row if first is not None
                            else f"row {row} of {where}"):
            return fn(block)
    return call


# Mechanisms whose release from rows has exact numerics (dpcov.GramAccumulator.bounded).
EXACT_MECHANISMS = ("analyze_gauss", "laplace_sym")


def partition_exact_state(block: np.ndarray, spec: dict) -> bytes:
    """The saved state (:meth:`dpcov.GramAccumulator.to_bytes`) of one partition's rows in a
    bounded accumulator of ``spec`` (the keyword arguments of
    :meth:`dpcov.GramAccumulator.bounded`): the exact integers on the release's grid (the
    floating-point sums when the spec's release has idealized numerics)."""
    with dpcov.GramAccumulator.bounded(block.shape[1], **spec) as gram:
        gram.add_raw_rows(block)
        return SavedState(gram.to_bytes())


def merge_exact_states(states) -> bytes:
    """The saved state of the merge of saved states: integer addition, so exactly the state of
    one accumulator of all their rows, whatever the grouping and order."""
    return _merged_bytes(states, dpcov.GramAccumulator.from_bytes)


def _merged_bytes(parts, load) -> bytes:
    """The bytes of the merge of the objects ``load`` reads from each of ``parts``."""
    parts = list(parts)
    with load(parts[0]) as total:
        for part in parts[1:]:
            with load(part) as other:
                total.merge(other)
        return SavedState(total.to_bytes())


def exact_state(x: da.Array, spec: dict, split_every: int = 2) -> bytes:
    """Tree-merge of the per-partition saved states (:func:`partition_exact_state`) of the rows
    of the n x d Dask array ``x`` (rechunked to whole rows, :func:`row_partitions`)."""
    return row_partitions(x).reduction(on_rows(lambda block: partition_exact_state(block, spec)),
                                       merge_exact_states, split_every=split_every).compute()


# The row bounding forms of dpcov.GramAccumulator.bounded that dask_release passes on.
BOUNDING_FORMS = ("constant", "lower", "upper", "label_bound")


def dask_release(x: da.Array, bound: float, epsilon: float, delta: float, rng,
                 mechanism="analyze_gauss", policy: str = "clip", split_every: int = 2,
                 numerics: str = "exact", columns=None, **params) -> dpcov.Release:
    """One private release of the Gram matrix of the rows of the Dask array ``x`` (or of the
    ``columns`` of a ``dask.dataframe.DataFrame``, :mod:`dpcov.dask_frame`).

    Each partition bounds its rows in a bounded accumulator naming the release (the library's
    bounding, as :func:`dpcov.release_rows`) and ships its saved state as bytes
    (:meth:`dpcov.GramAccumulator.to_bytes`). For ``"analyze_gauss"`` and ``"laplace_sym"`` with
    ``numerics="exact"`` (the default) the rows are rounded to the release's grid and the
    states are exact integers that merge by integer addition, so the release is byte-identical
    to the single-process release from the same rows with the same generator, however the rows
    are partitioned. Otherwise (other mechanisms, or ``numerics="idealized"``) the states are
    floating-point sums, equal to the single-process release up to the rounding of the sum.

    ``privacy_unit`` (one id per row) with ``max_rows_per_unit`` k: the release of units of
    :func:`dpcov.dask_units.dask_unit_release` (which the remaining keyword arguments also
    configure), refused for a mechanism without a unit proof with the registry's reason.

    ``constant``, ``lower``/``upper`` (public column ranges) and ``label_bound`` bound the rows
    as :meth:`dpcov.GramAccumulator.bounded` does: the library maps each partition's raw rows
    there, and their bounded accumulators' saved states merge as above (exact for the exact
    mechanisms, floating-point otherwise).

    The partitions are processed on the Dask workers (the current ``distributed.Client`` if any,
    else Dask's default scheduler); the release itself runs here with ``rng`` (a
    :class:`dpcov.Rng`; use ``dpcov.Rng()`` from OS entropy for a private release), which never
    leaves the driver. Returns the released matrix and its receipt, which is the curator's:
    publish ``receipt.public()``, which withholds n under add/remove neighbours (where dividing by
    n, as :func:`main` does under replace-one, would publish it: release rows with a constant
    column and use :func:`dpcov.centre_second_moment` with n = 0 instead). The released matrix
    is what the mechanism drew: an estimate of the Gram matrix reads
    :func:`dpcov.gram_estimate` of it and its receipt (the additive Wishart's noise has a mean).
    """
    if numerics not in ("exact", "idealized"):
        raise ValueError(f"numerics must be 'exact' or 'idealized', got {numerics!r}")
    if {"privacy_unit", "max_rows_per_unit"} & set(params):
        from .dask_units import check_unit_options, dask_unit_release  # builds on this module
        units, k = params.pop("privacy_unit", None), params.pop("max_rows_per_unit", None)
        check_unit_options(units, k)
        return dask_unit_release(x, units, bound, k, epsilon, delta, rng, mechanism,
                                 split_every=split_every, policy=policy, numerics=numerics,
                                 columns=columns, **params)
    x = dask_frame.as_rows(x, columns)
    bounding = {key: params.pop(key) for key in BOUNDING_FORMS if key in params}
    # Every mechanism through the bounded accumulator that names the release, as
    # dpcov.release_rows: the library checks the policy against the neighbour relation from the
    # spec (drop under replace-one refused whatever the rows) before any partition runs.
    spec = {"bound": bound, "policy": policy,
            "neighbour": params.get("neighbour", "replace_one"), "mechanism": mechanism,
            "epsilon": epsilon, "delta": delta, "numerics": numerics, **bounding}
    dpcov.GramAccumulator.bounded(int(x.shape[1]), **spec).close()
    with dpcov.GramAccumulator.from_bytes(exact_state(x, spec, split_every)) as gram:
        return gram.release(mechanism, epsilon, delta, rng, **params)


def partition_pass_sums(block: np.ndarray, spec: bytes) -> bytes:
    """The bytes of one partition's partial of the pass whose empty partial is ``spec``: the
    pass's function of each of its rows, summed (:class:`dpcov.RowPartial`)."""
    with dpcov.RowPartial.from_bytes(spec) as partial:
        return SavedState(partial.add_rows(block).to_bytes())


def merge_pass_sums(sums) -> bytes:
    """The bytes of the merge of partials of one pass (compensated addition)."""
    return _merged_bytes(sums, dpcov.RowPartial.from_bytes)


# The zCDP row mechanisms dask_zcdp_release runs as passes, and their variants.
ZCDP_MECHANISMS = {"dly_gauss": "gauss", "dly_separate": "separate", "dly_adaptive": "adaptive",
                   "dly_adaptive_paper": "adaptive_paper", "coinpress": None}


def dask_zcdp_release(x: da.Array, rng, mechanism: str = "dly_adaptive", split_every: int = 2,
                      columns=None, **params):
    """A Dong-Liang-Yi or CoinPress release of the rows of the n x d Dask array ``x`` (or of the
    ``columns`` of a DataFrame, whose n is counted first: :mod:`dpcov.dask_frame`), each of
    its passes over the rows a Dask reduction (:class:`dpcov.RowSession`): the driver sends each
    partition the pending pass as the bytes of an empty partial, each partition sums the pass's
    function of its rows into a partial and returns its bytes, and the partials merge pairwise up
    the tree; the driver finishes the pass with the merged partial, drawing its noise. Dong-Liang-
    Yi makes one pass (Adaptive a second when it clips to r~ < r), CoinPress one per step. No raw
    row leaves its partition and ``rng`` (closed here: the session takes it) never leaves the
    driver. The release equals the single-process one (:func:`dpcov.dly_release`,
    :func:`dpcov.coinpress_release`) with the same generator: the same receipt, the matrix up to
    the rounding of the compensated sums. ``params`` are those of the single-process function
    (``rho``, ``radius``, ``beta``, ``delta``; ``k_bound``, ``steps`` for CoinPress); an active
    :class:`dpcov.BudgetAccountant` is charged once, as there. ``privacy_unit`` (whole-number
    ids, a Dask array; for a DataFrame the name of its unit column, whole numbers or strings)
    with ``max_rows_per_unit`` k, ``rho`` and ``delta``: the units' kept rows through the unit
    groupby (:mod:`dpcov.dask_zcdp_units`), as :func:`dpcov.zcdp_unit_release`."""
    if mechanism not in ZCDP_MECHANISMS:
        raise ValueError(f"mechanism must be one of {sorted(ZCDP_MECHANISMS)}, got {mechanism!r}")
    if {"privacy_unit", "max_rows_per_unit"} & set(params):
        from .dask_units import check_unit_options  # these modules build on this one
        from .dask_zcdp_units import dask_zcdp_unit_release
        units, k = params.pop("privacy_unit", None), params.pop("max_rows_per_unit", None)
        check_unit_options(units, k)
        if params.get("rho") is None or params.get("delta") is None:
            raise ValueError("privacy units need rho and delta: the unit-level budget")
        return dask_zcdp_unit_release(x, units, k, rng, mechanism, split_every=split_every,
                                      columns=columns, **params)
    rows = dask_frame.as_rows(x, columns)
    parts = row_partitions(rows)
    # A frame's, or a block array's of unknown lengths, n is counted: only the total is seen.
    n = int(rows.shape[0]) if np.isfinite(rows.shape[0]) else dask_frame.row_count(rows)
    d = int(rows.shape[1])
    if mechanism == "coinpress":
        session = dpcov.RowSession.coinpress(n, d, rng, **params)
    else:
        session = dpcov.RowSession.dly(n, d, rng, ZCDP_MECHANISMS[mechanism], **params)

    def sums_of_pass(spec: bytes) -> bytes:
        return parts.reduction(on_rows(lambda block: partition_pass_sums(block, spec), True),
                               merge_pass_sums, split_every=split_every).compute()

    with session:
        return dpcov.run_passes(session, sums_of_pass)


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
    print(np.array2string(dpcov.gram_estimate(released, receipt)[0] / receipt.n, precision=4))
    print(f"mechanism {receipt.mechanism_name}, n = {receipt.n}, sigma = {receipt.sigma:.4g}, "
          f"epsilon = {receipt.epsilon}, delta = {receipt.delta}")
    print(receipt.theorem)


if __name__ == "__main__":
    main()
