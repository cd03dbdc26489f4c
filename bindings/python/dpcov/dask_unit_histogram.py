"""The private bound's histogram of privacy units over Dask, from each partition's largest cell per unit.

In one process the library counts each unit in the cell of the largest norm among its rows
(``dpcov_private_bound_unit_histogram``); over Dask a unit's rows may lie in any partitions, and
a unit counted once per partition would count up to once per partition (which the proof does not
cover). The cell is monotone in the norm, so a unit's cell is the largest cell of its rows,
wherever each was measured. Each partition therefore measures its own rows in the library
(:func:`dpcov.private_bound.norm_cells`: the norm code of both histograms, no norm computed here)
and keeps, per unit present in it, the largest cell (:func:`largest_cells`): two numbers per unit
per partition. Only those pairs (unit, cell) go through the unit groupby's spill files
(:mod:`dpcov.dask_units` for whole-number ids, :mod:`dpcov.dask_string_units` for strings: the
same hash, the same groups), never a row: group g reads the pairs of its units from every
partition, takes each unit's largest cell and counts each unit once, K + 1 counts; the groups'
counts add up a tree, and only the summed counts reach the driver, which chooses B from them with
its generator.

A maximum and a count of integers do not depend on the order they are taken in, and the groups
hold disjoint sets of units, so the sum is the one-process histogram exactly, whatever the
partitioning, the order of the rows, the number of groups or the type of the ids, and the same
generator gives the same B with the same draws. No generator is sent to the groups (nothing is
sampled). Cost: one pass of the library over each partition's rows, a sort of its (unit, cell)
pairs, and the pairs written once and read once (16 bytes per unit per partition; a string id
its bytes); a block task holds one block, a group task its pairs. The directory is removed when
the histogram returns or fails.
"""

from __future__ import annotations

import functools

import numpy as np

from . import private_bound
from .dask_spill import spill_directory
from .dask_units import MEMORY_BUDGET, grouped, tree_merge


def largest_cells(ids: np.ndarray, cells: np.ndarray) -> tuple:
    """``(units, top)``: the distinct values of ``ids`` (whole numbers or strings), sorted, and
    the largest of ``cells`` among each one's entries."""
    order = np.lexsort((cells, ids))  # by unit, then cell: each unit's last entry is its largest
    ids, cells = ids[order], cells[order]
    last = np.ones(len(ids), dtype=bool)
    last[:-1] = ids[1:] != ids[:-1]
    return ids[last], cells[last]


def block_cells(x: np.ndarray, ids: np.ndarray, candidates: np.ndarray) -> tuple:
    """``(units, top)`` of one partition: each unit present in it once, with the largest cell of
    its rows ``x`` over ``candidates`` (measured by the library), as float64 for the spill
    file."""
    units, top = largest_cells(ids, private_bound.norm_cells(x, candidates))
    return units, top.astype(np.float64)


def group_histogram(paths: list, group: int, candidates: np.ndarray, units_of,
                    sampler=None) -> np.ndarray:
    """The K + 1 counts of group ``group``'s units, each once in its largest cell over every
    partition (``units_of(paths, group)``: the cells the partitions wrote for the group's units,
    one column, and their sorted unit ids); ``sampler`` is None (nothing is drawn)."""
    cells, ids = units_of(paths, group)
    _, top = largest_cells(ids, cells[:, 0].astype(np.int64))
    return np.bincount(top, minlength=len(candidates) + 1).astype(np.int64)


def add_counts(counts: list) -> np.ndarray:
    """The sum of histograms."""
    return np.sum(list(counts), axis=0, dtype=np.int64)


def unit_norm_histogram(x, units, candidates: np.ndarray, groups=None, split_every: int = 2,
                        spill_dir=None, memory_budget: int = MEMORY_BUDGET,
                        columns=None) -> np.ndarray:
    """The histogram of the privacy units of the rows of the Dask array ``x`` over
    ``candidates`` (module description), equal to :func:`dpcov.private_bound.unit_histogram` of
    the same rows and units: ``units`` a Dask array of whole-number ids, one per row, or, for a
    DataFrame ``x``, the name of its unit column (whole numbers or strings) and ``columns`` the
    rows'. The partitions' (unit, cell) pairs go through spill files under ``spill_dir``
    (default: the system's temporary directory; every worker must reach it) in ``groups``
    groups (default: each group task within ``memory_budget`` bytes; for string ids one per
    partition). Private: pass it only to :func:`dpcov.private_bound.scan` or
    :func:`~dpcov.private_bound.select`."""
    candidates = np.ascontiguousarray(candidates, dtype=np.float64)
    task = functools.partial(group_histogram, candidates=candidates)
    summary = functools.partial(block_cells, candidates=candidates)
    with spill_directory(spill_dir) as directory:
        counts, _ = grouped(x, units, {}, None, groups, directory, memory_budget, columns, task,
                            summary)
        return tree_merge(counts, split_every, add_counts).compute()
