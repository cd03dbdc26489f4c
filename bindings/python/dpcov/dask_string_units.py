"""String unit ids through the unit groupby's spill files (:mod:`dpcov.dask_spill`), in bounded memory.

Each partition of the frame checks its ids (no missing one, all strings), puts each row in the
group ``hash % groups`` of its id, where the hash is pandas' ``hash_pandas_object`` of the id's
UTF-8 bytes with a fixed key (SipHash): it depends on the string alone, not on the process,
``PYTHONHASHSEED`` or the partition. The partition writes its rows [0, x], sorted stably by
group, to its block file and the ids' bytes, in the same order, beside them (``.ids``). Group g
reads its slice of every block, in block order, numbers each distinct id g * 2^40 + its rank in
sorted order and releases its units as the whole-number path does. The ids themselves are
compared, never their hashes: a hash collision only puts two units in one group.

The groups are those of Dask's task shuffle on the unit column (the same hash of a one-column
frame, modulo the number of groups) and each group's rows keep their input order, as the task
shuffle keeps them: the release is, byte for byte, the one a task shuffle of the frame on its
unit column gives, with the partition g of the shuffle numbered like group g here. A task holds
one partition, or one group's rows and ids: the memory of a worker does not grow with n.
"""

from __future__ import annotations

import functools

import dask
import numpy as np

from . import _arrays, dask_frame
from .dask_spill import read_group, read_group_ids, write_block, write_ids
from .dask_units import GROUP_SHIFT, rows_state, sampler_states, sorted_units

HASH_KEY = "0123456789123456"
"""pandas' default SipHash key, the one Dask's shuffle hashes with, fixed here."""


def checked_string_ids(ids) -> np.ndarray:
    """The unit ids of one partition as an object array of strings; refused when one is
    missing or when they mix strings and numbers (the message holds no id)."""
    import pandas as pd

    ids = np.asarray(ids, dtype=object)
    if len(ids) and pd.isna(ids).any():
        raise ValueError("unit ids must not be missing: every row needs its unit")
    kind = pd.api.types.infer_dtype(ids, skipna=False) if len(ids) else "string"
    if kind == "integer":
        raise ValueError("unit ids in a column of Python objects are read as strings, and these "
                         "are whole numbers: give the column an integer dtype "
                         "(.astype('int64')) to have them read as numbers")
    if kind != "string":
        raise ValueError("unit ids must be all strings or all whole numbers")
    return ids


def string_groups(ids: np.ndarray, groups: int) -> np.ndarray:
    """The group of each string id: the fixed-key hash of its UTF-8 bytes modulo ``groups``."""
    import pandas as pd

    hashed = pd.util.hash_pandas_object(pd.DataFrame({"unit": ids}), index=False,
                                        hash_key=HASH_KEY)
    return (hashed.to_numpy() % np.uint64(groups)).astype(np.int64)


def write_string_block(part, unit, names: list, groups: int, directory: str, index: int,
                       summary=None) -> str:
    """Writes partition ``index``'s rows [0, x] split by the groups of their string ids, and
    the ids beside them; returns the block file's path. With ``summary`` only what it keeps of
    them: ``summary(x, ids)`` gives the distinct ids and one value for each, written as rows
    [0, value] (as :func:`dpcov.dask_units.write_unit_block`)."""
    ids = checked_string_ids(part[unit].to_numpy(dtype=object))
    x = dask_frame.partition_values(part[names])
    # Refused here, at its partition's row: the groups reorder the rows.
    _arrays.refuse_non_finite_rows(x, None, f"partition {index}")
    if summary is not None:
        ids, x = summary(x, ids)
    which = string_groups(ids, groups)
    order = np.argsort(which, kind="stable")
    ends = np.searchsorted(which[order], np.arange(1, groups), side="left")
    rows = np.column_stack([np.zeros(len(ids)), x])
    path = write_block(rows[order], groups, directory, index,
                       lambda block, _: np.split(block, ends))
    write_ids(ids[order], path)
    return path


def string_group_units(paths: list, group: int) -> tuple:
    """``(x, ids)``: group ``group``'s rows and ids read from the spill files, sorted by unit,
    each distinct id numbered group * 2^40 + its rank in sorted order."""
    rows = read_group(paths, group)
    _, ranks = np.unique(np.asarray(read_group_ids(paths, group), dtype=object),
                         return_inverse=True)
    rows[:, 0] = (group << GROUP_SHIFT) + ranks.astype(np.float64)
    return sorted_units(rows, None)


def string_group_state(paths: list, group: int, spec: dict, sampler: bytes) -> bytes:
    """The saved state of group ``group`` (:func:`string_group_units`)."""
    return rows_state(*string_group_units(paths, group), spec, sampler)


def string_group_states(frame, unit, names: list, spec: dict, rng, groups, directory,
                        group_task=None, summary=None) -> list:
    """The delayed saved states of the groups of the frame's string units (module
    description), through spill files in ``directory``; ``groups`` defaults to the number of
    partitions. ``group_task(paths, g, sampler=...)``, when given, makes group g's result from
    the spill files instead of its saved state (as for :func:`dpcov.dask_units.group_states`;
    ``rng`` None sends it no sampler); ``summary``, when given, what each partition writes
    instead of its rows (:func:`write_string_block`)."""
    groups = frame.npartitions if groups is None else int(groups)
    if not 1 <= groups <= 1 << (53 - GROUP_SHIFT):  # g 2^40 + rank stays exact in a float64
        raise ValueError(f"groups must be in [1, 2^{53 - GROUP_SHIFT}] with string unit ids, "
                         f"got {groups}")
    samplers = sampler_states(rng, groups) if rng is not None else [None] * groups
    parts = frame[[unit] + names].to_delayed()
    paths = dask.delayed(list)([dask.delayed(write_string_block)(p, unit, names, groups,
                                                                 directory, i, summary)
                                for i, p in enumerate(parts)])
    task = group_task or functools.partial(string_group_state, spec=spec)
    return [dask.delayed(task)(paths, g, sampler=samplers[g]) for g in range(groups)]
