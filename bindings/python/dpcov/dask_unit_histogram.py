"""The private bound's histogram of privacy units over Dask: each unit once, by its largest row norm.

In one process the library counts each unit in the cell of the largest norm among its rows
(``dpcov_private_bound_unit_histogram``), every row of a unit in one call; over Dask a unit's
rows may lie in any partitions, and a unit counted once per partition would count up to once per
partition (which the proof does not cover). So the rows take the unit groupby of
:mod:`dpcov.dask_units` (whole-number ids) or :mod:`dpcov.dask_string_units` (string ids):
each input block writes its rows, split by the hash of their unit, to its spill file in a private
directory, and group g reads its slice of every file, which holds every row of each of its units
wherever they lay. The group sorts its rows by unit and hands them to the library in slices of
whole units (:func:`dpcov.private_bound.unit_histogram`), which measures the norms as the
one-process histogram does and counts each unit once; the groups' K + 1 counts add up a tree,
and only the summed counts reach the driver, which chooses B from them with its generator.

The groups hold disjoint sets of units, so the sum is the one-process histogram exactly, whatever
the partitioning, the order of the rows, the number of groups or the type of the ids, and the same
generator gives the same B with the same draws. No generator is sent to the groups (nothing is
sampled) and no row reaches the driver. Cost: the groupby's (every raw row written to the spill
directory once and read once, n (d + 1) 8 bytes each way; a block task holds one block, a group
task about twice its rows), and the directory is removed when the histogram returns or fails.
"""

from __future__ import annotations

import functools

import numpy as np

from . import private_bound
from .dask_spill import spill_directory
from .dask_units import MEMORY_BUDGET, grouped, tree_merge


def group_histogram(paths: list, group: int, candidates: np.ndarray, units_of,
                    sampler=None) -> np.ndarray:
    """The histogram of group ``group``'s units (``units_of(paths, group)``: its rows read from
    the spill files ``paths`` and their sorted unit ids); ``sampler`` is None (nothing is
    drawn)."""
    x, ids = units_of(paths, group)
    return private_bound.unit_histogram(x, ids, candidates)


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
    rows'. The rows go through spill files under ``spill_dir`` (default: the system's temporary
    directory; every worker must reach it) in ``groups`` groups (default: each group task within
    ``memory_budget`` bytes; for string ids one per partition). Private: pass it only to
    :func:`dpcov.private_bound.scan` or :func:`~dpcov.private_bound.select`."""
    candidates = np.ascontiguousarray(candidates, dtype=np.float64)
    task = functools.partial(group_histogram, candidates=candidates)
    with spill_directory(spill_dir) as directory:
        counts, _ = grouped(x, units, {}, None, groups, directory, memory_budget, columns, task)
        return tree_merge(counts, split_every, add_counts).compute()
