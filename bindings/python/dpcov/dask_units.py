"""Privacy units over Dask arrays: a groupby on the unit column, then the library's per-unit bounding.

A unit's rows must reach one accumulator (a unit split between two would contribute up to 2k
rows), and a row-block partition of a Dask array does not keep units together. So
:func:`dask_unit_release` first gathers each unit's rows into one of G groups by a hash of its id,
through spill files (:mod:`dpcov.dask_spill`): every input block splits its rows by group and
writes them to one file in a private directory; once every block is written, group g reads its
slice of every file, in block order. Each group then sorts its rows by unit (stably, so each
unit's rows keep their input order), numbers its units g * 2^40 + rank, and hands them to a bounded
accumulator of units (``dpcov_gram_add_unit_rows``): at most k rows of each unit kept, each unit's
contribution bounded by the library. The groups' id ranges are disjoint, so their saved states
merge (the merge refuses overlapping ranges) into the state of one accumulator of all the units,
and the driver releases once with its generator.

What the groupby costs: every raw row is written to disk once and read once (n (d + 1) 8 bytes
each way, never sent to the driver), the disk holds all of them until the groups have read them,
and the scheduler handles blocks + G tasks and one barrier, not blocks x G pieces. A block task
holds one block, a group task about twice its rows (``memory_budget`` bytes: G is chosen from n
so that it fits), so a worker's memory does not grow with n. The rows stay inside the trust
boundary of the workers and the disk that hold them; the directory is removed when the release
returns or fails.

Choosing k rows of a larger unit draws random numbers in the group that holds it. The driver
sends group g the key of its own one-way substream of the release generator (index
``SAMPLER_STREAMS`` + g, as the JL shards get theirs): it reveals which rows were kept, never the
release's noise, which the driver alone draws. The kept rows depend on the number of groups and the
hash, not on the workers or the scheduling; a single process reproduces the release from the same
groups (:func:`unit_state_serial`). When no unit has more than k rows nothing is drawn, and the
release equals :func:`dpcov.release_rows` with ``privacy_unit`` byte for byte.

With ``shuffle=False`` the unit column must already be a partition key, in sorted ranges: each
row block is one group and the unit values are the ids, so a unit split between blocks, or blocks
whose id ranges interleave, are refused by the merge (``DPCOV_E_INCOMPATIBLE``) instead of moved.
"""

from __future__ import annotations

import contextlib
import functools

import dask
import dask.array as da
import numpy as np

import dpcov
from . import _arrays, dask_frame
from .dask import SavedState, merge_exact_states
from .dask_spill import check_space, read_group, spill_directory, write_block
from .types import mechanism_id

SAMPLER_STREAMS = 1 << 61
"""Group g's sampling key is the release generator's substream SAMPLER_STREAMS + g: apart from
the JL shard keys (2^62 + k) and the sketch's w I weights (2^63 + j)."""

GROUP_SHIFT = 40
"""Group g numbers its units g * 2^40 + rank: up to 2^40 units per group, 2^22 groups."""

MIXER = np.uint64(0x9E3779B97F4A7C15)

MEMORY_BUDGET = 256 << 20
"""Default bytes of one group task: its rows as read, and their copy sorted by unit."""

GROUP_COPIES = 2.5
"""A group task holds its rows [unit, x] read from the spill files, then a copy sorted by unit
(x only) with the sort's permutation and the ids, while the library takes them in slices."""

ADD_ROWS = 1 << 16
"""Rows handed to the library per call: its copies of the kept rows stay this small."""


def unit_groups(units: np.ndarray, groups: int) -> np.ndarray:
    """The group of each unit id: the top bits of a multiplicative hash (Fibonacci hashing),
    spread even when the ids are consecutive or share a stride."""
    mixed = units.astype(np.int64).view(np.uint64) * MIXER
    return ((mixed >> np.uint64(32)) % np.uint64(groups)).astype(np.int64)


def whole_ids(values: np.ndarray) -> np.ndarray:
    """``values``, the float64 unit column, refused (before any is hashed or written) unless
    every id is a whole number of magnitude at most 2^53: NaN (a missing id) has no unit."""
    if np.isnan(values).any():
        raise ValueError("unit ids must not be missing (NaN or a missing value): a row without "
                         "a unit cannot be bounded with its unit")
    if not (np.array_equal(values, np.round(values)) and np.all(np.abs(values) <= 2.0 ** 53)):
        raise ValueError("unit ids must be whole numbers of magnitude at most 2^53")
    return values


def split_block(block: np.ndarray, groups: int) -> list:
    """The rows [unit, x] of one input block split by group: ``groups`` arrays, group g's rows
    in their input order."""
    which = unit_groups(whole_ids(block[:, 0]), groups)
    if groups <= 1 << 15:
        which = which.astype(np.int16)  # a stable sort of 16-bit keys is a radix sort: O(n)
    order = np.argsort(which, kind="stable")
    ends = np.searchsorted(which[order], np.arange(1, groups + 1), side="left")
    return np.split(block[order], ends[:-1])


def sorted_units(rows: np.ndarray, first_id: int | None) -> tuple:
    """``(x, ids)``: the rows [unit, x] sorted stably by unit, and each row's int64 id: the unit
    value itself (``first_id`` None: the column must hold whole numbers) or ``first_id`` + the
    unit's rank in this group."""
    values = whole_ids(rows[:, 0])
    order = np.argsort(values, kind="stable")
    values = values[order]
    if first_id is None:
        ids = values.astype(np.int64)
    else:  # the rank of each sorted value among the distinct ones
        ids = first_id + np.cumsum(np.diff(values, prepend=values[:1]) != 0)
    return np.ascontiguousarray(rows[order, 1:]), np.ascontiguousarray(ids, dtype=np.int64)


def group_state(pieces: list, spec: dict, sampler: bytes, first_id) -> bytes:
    """The saved state of one group: its rows [unit, x] (``pieces``, concatenated in order) in a
    finished bounded accumulator of units (``spec``), rows chosen with the generator whose state
    is ``sampler``."""
    rows = np.concatenate(pieces) if len(pieces) > 1 else pieces[0]
    return rows_state(*sorted_units(rows, first_id), spec, sampler)


def group_units(paths: list, group: int) -> tuple:
    """``(x, ids)``: group ``group``'s rows read from the spill files ``paths``, sorted by unit,
    its units numbered group * 2^40 + rank."""
    return sorted_units(read_group(paths, group), group << GROUP_SHIFT)


def spilled_group_state(paths: list, group: int, spec: dict, sampler: bytes) -> bytes:
    """:func:`group_state` of group ``group``, its rows read from the spill files ``paths``."""
    return rows_state(*group_units(paths, group), spec, sampler)


def rows_state(x: np.ndarray, ids: np.ndarray, spec: dict, sampler: bytes) -> bytes:
    """The saved state of a finished bounded accumulator of units (``spec``) holding the rows
    ``x`` with their sorted unit ``ids``, added ADD_ROWS at a time (units span the calls)."""
    with dpcov.GramAccumulator.bounded(x.shape[1], **spec) as gram, \
            dpcov.Rng.from_state(sampler) as rng:
        for first in range(0, len(ids), ADD_ROWS):
            gram.add_unit_rows(x[first:first + ADD_ROWS], ids[first:first + ADD_ROWS], rng)
        return SavedState(gram.finish_units().to_bytes())


def default_groups(rows: int, cols: int, memory_budget: int = MEMORY_BUDGET) -> int:
    """The number of groups whose tasks each fit in ``memory_budget`` bytes for ``rows`` rows of
    ``cols`` columns (with the unit column) spread evenly by the hash."""
    return max(1, int(np.ceil(rows * (cols + 1) * 8 * GROUP_COPIES / memory_budget)))


def sampler_states(rng, groups: int) -> list:
    """The state of each group's sampling generator: substreams of ``rng``, one-way."""
    states = []
    for g in range(groups):
        with rng.substream(SAMPLER_STREAMS + g) as sampler:
            states.append(SavedState(sampler.save_state()))
    return states


def unit_spec(bound: float, max_rows_per_unit: int, mechanism, epsilon: float, delta: float,
              policy: str = "clip", numerics: str = "exact", **params) -> dict:
    """The bounded accumulator of units for the release (keyword arguments of
    :meth:`dpcov.GramAccumulator.bounded` after ``cols``)."""
    return {"bound": bound, "policy": policy, "neighbour": params.get("neighbour", "replace_one"),
            "mechanism": mechanism, "epsilon": epsilon, "delta": delta, "numerics": numerics,
            "max_rows_per_unit": max_rows_per_unit}


def write_unit_block(block: np.ndarray, groups: int, directory: str, index: int,
                     summary=None) -> str:
    """Writes input block ``index``'s rows [unit, x] split by group to its spill file, or with
    ``summary`` only what it keeps of them: ``summary(x, ids)`` gives the distinct ids of the
    block and one value for each (the private bound's largest cell per unit), written as rows
    [unit, value]. Returns the file's path."""
    if summary is not None:
        ids, values = summary(block[:, 1:], whole_ids(block[:, 0]))
        block = np.column_stack([ids, values])
    return write_block(block, groups, directory, index, split_block)


def finite_block(block: np.ndarray, block_info=None) -> np.ndarray:
    """``block`` of rows, whose first value that is not finite is refused at its row of x before
    the groupby reorders the rows (the row of its block where Dask does not know the blocks'
    lengths)."""
    start = block_info[0]["array-location"][0][0] if block_info is not None else None
    known = start is not None and np.isfinite(start)
    index = block_info[0]["chunk-location"][0] if block_info is not None else "?"
    _arrays.refuse_non_finite_rows(block, int(start) if known else None, f"partition {index}")
    return block


def unit_rows(x: da.Array, units: da.Array) -> da.Array:
    """The rows [unit, x] of the n x d Dask array ``x`` and its unit column ``units`` (length n,
    whole numbers), as blocks of whole rows."""
    units = da.asarray(units)
    if units.dtype.kind not in "iuf":
        # Refused before NumPy reads an id: its message would quote one (in every worker's log).
        raise TypeError(f"unit ids in an array must be whole numbers, got dtype {units.dtype}; "
                        f"for ids that are strings pass a DataFrame and name its unit column")
    if x.ndim != 2 or units.ndim != 1:
        raise ValueError(f"x must be 2-D and units 1-D, got {x.ndim} and {units.ndim} dimensions")
    if np.isfinite(x.shape[0]) and np.isfinite(units.shape[0]) and x.shape[0] != units.shape[0]:
        raise ValueError(f"units has {units.shape[0]} ids for {x.shape[0]} rows")
    column = units.map_blocks(dask_frame.checked_unit_ids).astype(np.float64)
    column = column.rechunk((x.chunks[0],))[:, None]
    x = x.rechunk({1: -1}).map_blocks(finite_block, dtype=x.dtype)
    # A DataFrame's blocks have unknown lengths; both columns come from the same partitions.
    return da.concatenate([column, x], axis=1, allow_unknown_chunksizes=True).rechunk({1: -1})


def group_states(x: da.Array, units: da.Array, spec: dict, rng, groups=None,
                 directory=None, memory_budget: int = MEMORY_BUDGET, group_task=None,
                 summary=None) -> list:
    """The delayed saved states of the groups of units (module description): through spill
    files in ``directory``, or, when it is None, one group per row block (``shuffle=False``).
    ``group_task(paths, g, sampler=...)``, when given, makes group g's result from the spill
    files instead of its saved state; ``rng`` None sends it no sampler (None). With
    ``summary`` each block writes one value per unit present in it instead of its rows
    (:func:`write_unit_block`), and the groups read those."""
    blocks = unit_rows(x, units).to_delayed().ravel().tolist()
    if directory is None:
        samplers = sampler_states(rng, len(blocks))
        return [dask.delayed(group_state)([b], spec, samplers[i], None)
                for i, b in enumerate(blocks)]
    cols = int(x.shape[1]) if summary is None else 1  # the columns written after the unit's
    if groups is None:
        groups = (default_groups(x.shape[0], cols, memory_budget)
                  if np.isfinite(x.shape[0]) else len(blocks))
    groups = int(groups)
    if not 1 <= groups <= 1 << (63 - GROUP_SHIFT):
        raise ValueError(f"groups must be in [1, 2^{63 - GROUP_SHIFT}], got {groups}")
    if np.isfinite(x.shape[0]):
        check_space(directory, int(x.shape[0]), cols)
    samplers = sampler_states(rng, groups) if rng is not None else [None] * groups
    # One barrier task (the list of the files' paths) between the blocks and the groups: the
    # graph has blocks + groups edges, and nothing but paths is held between the phases.
    paths = dask.delayed(list)([dask.delayed(write_unit_block)(b, groups, directory, i, summary)
                                for i, b in enumerate(blocks)])
    task = group_task or functools.partial(spilled_group_state, spec=spec)
    return [dask.delayed(task)(paths, g, sampler=samplers[g]) for g in range(groups)]


def tree_merge(states: list, split_every: int = 2, merge=merge_exact_states):
    """The delayed merge of delayed saved states (or of other partials ``merge`` combines),
    ``split_every`` at a time up a tree."""
    while len(states) > 1:
        states = [dask.delayed(merge)(states[i:i + split_every])
                  for i in range(0, len(states), split_every)]
    return states[0]


def check_unit_proof(mechanism) -> None:
    """Refuses ``mechanism`` with privacy units, before any task runs, unless its registry entry
    names a unit proof, with the registry's reason (``unit_refusal``)."""
    info = dpcov.mechanism_info(mechanism_id(mechanism))
    if not info.unit_proof:
        raise ValueError(f"{info.name} is refused with privacy units: {info.unit_refusal}")


def check_unit_options(privacy_unit, max_rows_per_unit) -> None:
    """Refuses one of ``privacy_unit`` and ``max_rows_per_unit`` without the other."""
    if (privacy_unit is None) != (max_rows_per_unit is None):
        raise ValueError("privacy units need both privacy_unit (one id per row) and "
                         "max_rows_per_unit (k, the rows kept per unit)")


def grouped(x, units, spec: dict, rng, groups, directory, memory_budget: int = MEMORY_BUDGET,
            columns=None, group_task=None, summary=None) -> tuple:
    """``(results, cols)``: the delayed results of the groups of units (:func:`group_states`)
    of the Dask array ``x`` and its whole-number ``units``, or of the ``columns`` of a DataFrame
    ``x`` and its unit column named ``units`` (whole numbers, or strings through
    :mod:`dpcov.dask_string_units`), and the number of columns of the rows. ``group_task(paths,
    g, sampler=..., units_of=...)``, when given, makes each group's result, ``units_of(paths,
    g)`` giving the group's rows (or, with ``summary``, the values the blocks wrote, one column)
    and sorted unit ids."""
    frame, unit = x, units
    if dask_frame.is_frame(frame):
        x, units, names = dask_frame.unit_arrays(frame, unit, columns, directory is not None)
        if x is None:  # string ids; imported here as that module builds on this one
            from .dask_string_units import string_group_states, string_group_units
            task = group_task and functools.partial(group_task, units_of=string_group_units)
            return (string_group_states(frame, unit, names, spec, rng, groups, directory, task,
                                        summary), len(names))
    task = group_task and functools.partial(group_task, units_of=group_units)
    return group_states(x, units, spec, rng, groups, directory, memory_budget, task, summary), \
        int(x.shape[1])


def unit_state(x, units, spec: dict, rng, groups=None, shuffle: bool = True,
               split_every: int = 2, spill_dir=None, memory_budget: int = MEMORY_BUDGET,
               columns=None) -> bytes:
    """The merged saved state of a bounded accumulator of units (``spec``) holding the rows of
    ``x`` grouped by their ``units`` (module description; the arguments as for
    :func:`dask_unit_release`): what the driver releases from. Only this state reaches the
    driver; ``rng`` keys the groups' row sampling and is not changed."""
    with spill_directory(spill_dir) if shuffle else contextlib.nullcontext() as directory:
        states, _ = grouped(x, units, spec, rng, groups, directory, memory_budget, columns)
        return tree_merge(states, split_every).compute()


def dask_unit_release(x: da.Array, units: da.Array, bound: float, max_rows_per_unit: int,
                      epsilon: float, delta: float, rng, mechanism="analyze_gauss",
                      groups=None, shuffle: bool = True, split_every: int = 2,
                      policy: str = "clip", numerics: str = "exact", spill_dir=None,
                      memory_budget: int = MEMORY_BUDGET, columns=None, **params):
    """A release of ``mechanism`` (one whose registry entry names a unit proof: exact for
    Analyze Gauss and symmetric Laplace; the others, refused before anything runs with the
    registry's ``unit_refusal``) with privacy units: ``units`` (a Dask array of whole numbers, one per row
    of ``x``) names each row's unit, at most ``max_rows_per_unit`` rows of each are kept, and the
    guarantee is on units (docs/privacy-units.md). The rows are grouped by unit through spill
    files in a private directory under ``spill_dir`` (default: the system's temporary
    directory; every worker must reach it) into ``groups`` groups (default
    :func:`default_groups`: each group task within ``memory_budget`` bytes), or, with
    ``shuffle=False``, taken as already partitioned by sorted unit ranges (module description).
    ``rng`` draws the noise here and keys the groups' row sampling. Returns a
    :class:`dpcov.Release` whose receipt's n is the number of units. From a DataFrame ``x``,
    ``units`` names its unit column (whole numbers or strings) and ``columns`` the rows'
    (:func:`dpcov.dask_frame.unit_arrays`)."""
    check_unit_proof(mechanism)
    spec = unit_spec(bound, max_rows_per_unit, mechanism, epsilon, delta, policy, numerics,
                     **params)
    state = unit_state(x, units, spec, rng, groups, shuffle, split_every, spill_dir,
                       memory_budget, columns)
    with dpcov.GramAccumulator.from_bytes(state) as gram:
        return gram.release(mechanism, epsilon, delta, rng, **params)


def unit_state_serial(x: np.ndarray, units: np.ndarray, spec: dict, rng, groups: int,
                      block_rows: int, shuffle: bool = True) -> bytes:
    """The merged state :func:`dask_unit_release` computes, in this process without Dask: the
    same blocks of ``block_rows`` rows, the same groups (with ``shuffle=False``, one per block)
    and sampling keys."""
    rows = np.column_stack([np.asarray(units, dtype=np.float64), np.asarray(x, dtype=float)])
    blocks = [rows[i:i + block_rows] for i in range(0, rows.shape[0], block_rows)]
    if not shuffle:
        samplers = sampler_states(rng, len(blocks))
        return merge_exact_states([group_state([b], spec, samplers[i], None)
                                   for i, b in enumerate(blocks)])
    samplers = sampler_states(rng, groups)
    split = [split_block(b, groups) for b in blocks]
    return merge_exact_states([group_state([s[g] for s in split], spec, samplers[g],
                                           g << GROUP_SHIFT) for g in range(groups)])
