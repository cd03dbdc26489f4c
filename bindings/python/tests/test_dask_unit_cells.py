"""The private bound's histogram of units on Dask moves (unit, cell) pairs, never rows: each row's
cell is the library's (``dpcov_private_bound_norm_cells``, the cells of both histograms), the
spill files of the bound step hold only each partition's largest cell per unit, and a unit with
rows in every partition counts once, by its largest row, with the one-process B."""

import os

import dask.array as da
import numpy as np
import pytest

import dpcov
import dpcov.dask_bound as dask_bound
import dpcov.dask_spill as dask_spill
from dask_fixtures import client, rows  # noqa: F401 (fixtures)
from dpcov.dask_unit_histogram import largest_cells, unit_norm_histogram
from dpcov.private_bound import grid, norm_cells, row_histogram, unit_histogram
from test_dask_unit_bound import NAMES, frame_of, names_of, one_process_bound


def test_the_cells_are_those_both_histograms_count():
    candidates = grid(1e-3, 1e3, 1.25)
    x = np.random.default_rng(71).normal(size=(500, 3)) * np.logspace(-4, 4, 500)[:, None]
    x[3, 1], x[9, 0], x[17] = np.nan, -np.inf, 1e300  # non-finite rows, a sum of squares above
    x[20] = [candidates[40], 0.0, 0.0]  # exactly a candidate
    cells = norm_cells(x, candidates)
    assert cells.dtype == np.int64 and list(cells[[3, 9, 17, 20]]) == [len(candidates)] * 3 + [40]
    np.testing.assert_array_equal(np.bincount(cells, minlength=len(candidates) + 1),
                                  row_histogram(x, candidates))
    np.testing.assert_array_equal(norm_cells(np.asfortranarray(x), candidates), cells)
    ids = np.random.default_rng(72).integers(0, 60, size=500)
    _, top = largest_cells(ids, cells)
    np.testing.assert_array_equal(np.bincount(top, minlength=len(candidates) + 1),
                                  unit_histogram(x, ids, candidates))
    assert norm_cells(np.empty((0, 3)), candidates).shape == (0,)
    with pytest.raises(dpcov.DpcovError):
        norm_cells(x, candidates[::-1])


def spilled_files(monkeypatch):
    """The contents of every spill file, read just before its directory is removed."""
    seen = {}
    remove = dask_spill.remove_tree

    def read_then_remove(path, *args, **kwargs):
        for name in sorted(os.listdir(path)):
            with open(os.path.join(path, name), "rb") as f:
                seen[name] = f.read()
        remove(path, *args, **kwargs)

    monkeypatch.setattr(dask_spill, "remove_tree", read_then_remove)
    return seen


@pytest.mark.parametrize("source", ["array", "whole frame", "string frame"])
def test_the_bound_step_writes_no_row_only_each_partitions_largest_cell_per_unit(
        client, rows, monkeypatch, source):
    seen = spilled_files(monkeypatch)
    chunks = (700, 1300, 500, 1500)
    ids = np.random.default_rng(73).integers(0, 900, size=len(rows)) * 13 - 5000
    candidates = grid(1e-6, 1e9, 1.25)
    with dpcov.Rng(74) as rng:
        if source == "array":
            dask_bound.dask_private_bound(da.from_array(rows, chunks=(chunks, 5)), 0.5, rng,
                                          privacy_unit=da.from_array(ids, chunks=(chunks,)),
                                          quantile=0.95, lo=1e-6, hi=1e9, groups=3)
        else:
            frame = frame_of(rows, ids if source == "whole frame" else names_of(ids), chunks)
            dask_bound.dask_private_bound(frame, 0.5, rng, columns=NAMES, privacy_unit="unit",
                                          quantile=0.95, lo=1e-6, hi=1e9, groups=3)
    blocks = sorted(name for name in seen if name.endswith(".bin"))
    assert len(blocks) == len(chunks)
    starts = np.cumsum((0,) + chunks)
    for name, first, end in zip(blocks, starts[:-1], starts[1:]):
        header = np.frombuffer(seen[name], dtype=np.int64, count=2 + 3 + 1)
        groups, cols, offsets = header[0], header[1], header[2:]
        assert (groups, cols) == (3, 2)  # [unit, cell]: the rows' 6 columns never written
        pairs = np.frombuffer(seen[name], dtype=np.float64, offset=8 * (2 + 3 + 1)).reshape(-1, 2)
        assert len(pairs) == offsets[-1] == len(np.unique(ids[first:end]))
        cells = pairs[:, 1]
        assert np.all((cells == np.round(cells)) & (cells >= 0) & (cells <= len(candidates)))
    if source == "string frame":  # beside each block only its distinct ids, not one per row
        assert all(np.frombuffer(seen[name + ".ids"], dtype=np.int64, count=1)[0]
                   == len(np.unique(ids[first:end]))
                   for name, first, end in zip(blocks, starts[:-1], starts[1:]))


@pytest.mark.parametrize("parts", [4, 9])
def test_units_split_over_every_partition_count_once_by_their_largest_row(client, parts):
    # In each of the partitions, one row of each of 60 units (the largest of a unit's rows in a
    # different partition for each unit, far above its others) and one row of a 61st unit of
    # small rows. Counted per partition (the broken variant) each unit would count `parts` times.
    gen = np.random.default_rng(75 + parts)
    units = 60
    norms = gen.uniform(0.1, 0.5, size=(parts, units + 1))
    norms[np.arange(units) % parts, np.arange(units)] = gen.uniform(20.0, 40.0, size=units)
    x = np.column_stack([norms.reshape(-1), np.zeros(parts * (units + 1))])
    ids = np.tile(np.append(np.arange(units) * 101 - 3000, 10 ** 9), parts)
    arrays = da.from_array(x, chunks=(units + 1, 2)), da.from_array(ids, chunks=units + 1)
    candidates = grid(1e-3, 1e3, 1.25)
    counts = unit_norm_histogram(*arrays, candidates, groups=2)
    np.testing.assert_array_equal(counts, unit_histogram(x, ids, candidates))
    assert counts.sum() == units + 1
    options = dict(quantile=0.5, lo=1e-6, hi=1e9)
    with dpcov.Rng(76) as rng:
        chosen = dask_bound.dask_private_bound(arrays[0], 2.0, rng, privacy_unit=arrays[1],
                                               **options)
        after = rng.next_u64()
    assert (chosen, after) == one_process_bound(x, ids, 76, 2.0, **options)
    assert chosen > 10.0  # about the median of the units' largest rows, not of all the rows
