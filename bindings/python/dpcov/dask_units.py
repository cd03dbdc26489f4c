"""Privacy units over Dask arrays: a groupby on the unit column, then the library's per-unit bounding.

A unit's rows must reach one accumulator (a unit split between two would contribute up to 2k
rows), and a row-block partition of a Dask array does not keep units together. So
:func:`dask_unit_release` first gathers each unit's rows into one of P groups by a hash of its id
(a shuffle: every input block splits its rows by group; group g concatenates its pieces from every
block, in block order). Each group then sorts its rows by unit (stably, so each unit's rows keep
their input order), numbers its units g * 2^40 + rank, and hands them to a bounded accumulator of
units (``dpcov_gram_add_unit_rows``): at most k rows of each unit kept, each unit's contribution
bounded by the library. The groups' id ranges are disjoint, so their saved states merge (the merge
refuses overlapping ranges) into the state of one accumulator of all the units, and the driver
releases once with its generator.

What the shuffle costs: every raw row crosses the network once (n d 8 bytes in all, between the
workers, never to the driver), and a group holds its rows in memory while it bounds them (about
n / P rows: choose P so that this fits a worker). The rows move inside the trust boundary of the
workers that hold them, as the states do.

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

import dask
import dask.array as da
import numpy as np

import dpcov
from .dask import SavedState, merge_exact_states

SAMPLER_STREAMS = 1 << 61
"""Group g's sampling key is the release generator's substream SAMPLER_STREAMS + g: apart from
the JL shard keys (2^62 + k) and the sketch's w I weights (2^63 + j)."""

GROUP_SHIFT = 40
"""Group g numbers its units g * 2^40 + rank: up to 2^40 units per group, 2^22 groups."""

MIXER = np.uint64(0x9E3779B97F4A7C15)


def unit_groups(units: np.ndarray, groups: int) -> np.ndarray:
    """The group of each unit id: the top bits of a multiplicative hash (Fibonacci hashing),
    spread even when the ids are consecutive or share a stride."""
    mixed = units.astype(np.int64).view(np.uint64) * MIXER
    return ((mixed >> np.uint64(32)) % np.uint64(groups)).astype(np.int64)


def split_block(block: np.ndarray, groups: int) -> list:
    """The rows [unit, x] of one input block split by group: ``groups`` arrays, group g's rows
    in their input order."""
    which = unit_groups(block[:, 0], groups)
    if groups <= 1 << 15:
        which = which.astype(np.int16)  # a stable sort of 16-bit keys is a radix sort: O(n)
    order = np.argsort(which, kind="stable")
    ends = np.searchsorted(which[order], np.arange(1, groups + 1), side="left")
    return np.split(block[order], ends[:-1])


def sorted_units(rows: np.ndarray, first_id: int | None) -> tuple:
    """``(x, ids)``: the rows [unit, x] sorted stably by unit, and each row's int64 id: the unit
    value itself (``first_id`` None: the column must hold whole numbers) or ``first_id`` + the
    unit's rank in this group."""
    values = rows[:, 0]
    if not (np.array_equal(values, np.round(values)) and np.all(np.abs(values) <= 2.0 ** 53)):
        raise ValueError("unit ids must be whole numbers of magnitude at most 2^53")
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
    x, ids = sorted_units(rows, first_id)
    with dpcov.GramAccumulator.bounded(x.shape[1], **spec) as gram, \
            dpcov.Rng.from_state(sampler) as rng:
        if len(ids):
            gram.add_unit_rows(x, ids, rng)
        return SavedState(gram.finish_units().to_bytes())


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


def unit_rows(x: da.Array, units: da.Array) -> da.Array:
    """The rows [unit, x] of the n x d Dask array ``x`` and its unit column ``units`` (length n,
    whole numbers), as blocks of whole rows."""
    if x.ndim != 2 or units.ndim != 1:
        raise ValueError(f"x must be 2-D and units 1-D, got {x.ndim} and {units.ndim} dimensions")
    column = units.astype(np.float64).rechunk((x.chunks[0],))[:, None]
    return da.concatenate([column, x], axis=1).rechunk({1: -1})


def group_states(x: da.Array, units: da.Array, spec: dict, rng, groups=None,
                 shuffle: bool = True) -> list:
    """The delayed saved states of the groups of units (module description)."""
    blocks = unit_rows(x, units).to_delayed().ravel().tolist()
    if not shuffle:
        samplers = sampler_states(rng, len(blocks))
        return [dask.delayed(group_state)([b], spec, samplers[i], None)
                for i, b in enumerate(blocks)]
    groups = len(blocks) if groups is None else int(groups)
    if not 1 <= groups <= 1 << (63 - GROUP_SHIFT):
        raise ValueError(f"groups must be in [1, 2^{63 - GROUP_SHIFT}], got {groups}")
    samplers = sampler_states(rng, groups)
    split = [dask.delayed(split_block, nout=groups)(b, groups) for b in blocks]
    return [dask.delayed(group_state)([s[g] for s in split], spec, samplers[g],
                                      g << GROUP_SHIFT) for g in range(groups)]


def tree_merge(states: list, split_every: int = 2):
    """The delayed merge of delayed saved states, ``split_every`` at a time up a tree."""
    while len(states) > 1:
        states = [dask.delayed(merge_exact_states)(states[i:i + split_every])
                  for i in range(0, len(states), split_every)]
    return states[0]


def dask_unit_release(x: da.Array, units: da.Array, bound: float, max_rows_per_unit: int,
                      epsilon: float, delta: float, rng, mechanism="analyze_gauss",
                      groups=None, shuffle: bool = True, split_every: int = 2,
                      policy: str = "clip", numerics: str = "exact", **params):
    """A release of ``mechanism`` (Analyze Gauss or symmetric Laplace, the mechanisms with a
    unit-level proof) with privacy units: ``units`` (a Dask array of whole numbers, one per row
    of ``x``) names each row's unit, at most ``max_rows_per_unit`` rows of each are kept, and the
    guarantee is on units (docs/privacy-units.md). The rows are grouped by unit through a shuffle
    into ``groups`` groups (default: as many as ``x`` has row blocks), or, with
    ``shuffle=False``, taken as already partitioned by sorted unit ranges (module description).
    ``rng`` draws the noise here and keys the groups' row sampling. Returns a
    :class:`dpcov.Release` whose receipt's n is the number of units."""
    spec = unit_spec(bound, max_rows_per_unit, mechanism, epsilon, delta, policy, numerics,
                     **params)
    state = tree_merge(group_states(x, units, spec, rng, groups, shuffle), split_every)
    with dpcov.GramAccumulator.from_bytes(state.compute()) as gram:
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
