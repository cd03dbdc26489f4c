"""Privacy units on a local Dask cluster: the rows grouped by unit through a shuffle (or already
partitioned by unit ranges), bounded per unit by the library, released once; byte for byte the
single-process release with the same generator."""

import dask.array as da
import numpy as np
import pytest

import dpcov
import dpcov.dask_units as dask_units
from dask_fixtures import DIM, ROWS, client, lazy, rows  # noqa: F401 (fixtures)


def units_of(counts, seed):
    """Unit ids: unit u has counts[u] rows, the rows shuffled so that units are scattered."""
    ids = np.repeat(np.arange(len(counts)), counts)
    return ids[np.random.default_rng(seed).permutation(len(ids))]


@pytest.mark.parametrize("mechanism,neighbour", [("analyze_gauss", "replace_one"),
                                                 ("laplace_sym", "add_remove")])
def test_units_through_the_shuffle_equal_the_single_process_release_byte_for_byte(
        client, rows, mechanism, neighbour):
    # At most k rows per unit: nothing is drawn in the groups, so the release is the in-memory
    # one's, whatever the grouping.
    units = units_of(np.tile([1, 2, 3, 4], ROWS // 10), 48)
    with dpcov.Rng(49) as rng:
        released, receipt = dask_units.dask_unit_release(
            lazy(rows), lazy(units), 1.0, 4, 1.0, 1e-6, rng, mechanism, groups=3,
            neighbour=neighbour)
    with dpcov.Rng(49) as rng:
        expected, expected_receipt = dpcov.release_rows(
            mechanism, rows, 1.0, 1.0, 1e-6, rng, privacy_unit=units, max_rows_per_unit=4,
            neighbour=neighbour)
    assert receipt == expected_receipt and receipt.n == ROWS // 10 * 4
    assert released.tobytes() == expected.tobytes()


def test_truncated_units_equal_the_same_groups_in_one_process(client, rows):
    # Units of 1 to 7 rows, k = 2: the groups draw which rows to keep, each with its own key.
    counts = np.tile([1, 2, 3, 4, 5, 6, 7], ROWS // 28 + 1)
    counts = counts[:np.searchsorted(np.cumsum(counts), ROWS, side="right")]
    counts[-1] += ROWS - counts.sum()
    units = units_of(counts, 50)
    spec = dask_units.unit_spec(1.0, 2, "analyze_gauss", 1.0, 1e-6)
    with dpcov.Rng(51) as rng:
        released, receipt = dask_units.dask_unit_release(
            da.from_array(rows, chunks=(1000, DIM)), da.from_array(units, chunks=1000), 1.0, 2,
            1.0, 1e-6, rng, groups=3)
    with dpcov.Rng(51) as rng:
        state = dask_units.unit_state_serial(rows, units, spec, rng, 3, 1000)
        with dpcov.GramAccumulator.from_bytes(state) as gram:
            info = gram.info()
            expected, expected_receipt = gram.release("analyze_gauss", 1.0, 1e-6, rng)
    assert (info.units, info.truncated) == (len(counts), np.maximum(counts - 2, 0).sum())
    assert receipt == expected_receipt and receipt.n == len(counts)
    assert released.tobytes() == expected.tobytes()


def test_truncated_sorted_units_equal_the_same_blocks_in_one_process(client, rows):
    # 4 rows per unit, k = 2, the blocks holding whole units: each block draws with its own key.
    units = np.repeat(np.arange(ROWS // 4), 4)
    spec = dask_units.unit_spec(1.0, 2, "analyze_gauss", 1.0, 1e-6)
    with dpcov.Rng(56) as rng:
        released, receipt = dask_units.dask_unit_release(
            da.from_array(rows, chunks=(1000, DIM)), da.from_array(units, chunks=1000), 1.0, 2,
            1.0, 1e-6, rng, shuffle=False)
    with dpcov.Rng(56) as rng:
        state = dask_units.unit_state_serial(rows, units, spec, rng, 0, 1000, shuffle=False)
        with dpcov.GramAccumulator.from_bytes(state) as gram:
            assert gram.info().truncated == ROWS // 2
            expected, expected_receipt = gram.release("analyze_gauss", 1.0, 1e-6, rng)
    assert receipt == expected_receipt
    assert released.tobytes() == expected.tobytes()


def test_units_already_partitioned_by_range_need_no_shuffle(client, rows):
    units = np.repeat(np.arange(ROWS // 4), 4)  # every block of CHUNKS holds whole units
    with dpcov.Rng(52) as rng:
        released, receipt = dask_units.dask_unit_release(lazy(rows), lazy(units), 1.0, 4, 1.0,
                                                         1e-6, rng, shuffle=False)
    with dpcov.Rng(52) as rng:
        expected, expected_receipt = dpcov.release_rows(
            "analyze_gauss", rows, 1.0, 1.0, 1e-6, rng, privacy_unit=units, max_rows_per_unit=4)
    assert receipt == expected_receipt
    assert released.tobytes() == expected.tobytes()


def test_a_unit_split_between_partitions_is_refused_without_a_shuffle(client, rows):
    units = np.repeat(np.arange(ROWS // 4), 4)
    blocks = (701, 1299, 500, 1500)  # unit 175 has rows in the first two blocks
    with dpcov.Rng(53) as rng, pytest.raises(dpcov.IncompatibleError, match="split"):
        dask_units.dask_unit_release(da.from_array(rows, chunks=(blocks, DIM)),
                                     da.from_array(units, chunks=(blocks,)), 1.0, 4, 1.0, 1e-6,
                                     rng, shuffle=False)
    # The shuffle gathers the same unit's rows into one group instead.
    with dpcov.Rng(53) as rng:
        _, receipt = dask_units.dask_unit_release(da.from_array(rows, chunks=(blocks, DIM)),
                                                  da.from_array(units, chunks=(blocks,)), 1.0,
                                                  4, 1.0, 1e-6, rng)
    assert receipt.n == ROWS // 4


def test_unit_ids_must_be_whole_numbers(client, rows):
    with dpcov.Rng(54) as rng, pytest.raises(ValueError, match="whole numbers"):
        dask_units.dask_unit_release(lazy(rows), lazy(np.full(ROWS, 0.5)), 1.0, 4, 1.0, 1e-6,
                                     rng)


def test_a_failed_merge_logs_no_state(client, rows, caplog):
    # Dask logs a failed task's arguments; the saved states there are the exact Gram matrices of
    # the rows, private, so their text must not reach the log.
    units = np.repeat(np.arange(ROWS // 4), 4)
    blocks = (701, 1299, 500, 1500)
    with dpcov.Rng(55) as rng, pytest.raises(dpcov.IncompatibleError):
        dask_units.dask_unit_release(da.from_array(rows, chunks=(blocks, DIM)),
                                     da.from_array(units, chunks=(blocks,)), 1.0, 4, 1.0, 1e-6,
                                     rng, shuffle=False)
    assert "merge_exact_states" in caplog.text  # the failure was logged, with its arguments
    assert "DPCOVGRM" not in caplog.text and "private dpcov state" in caplog.text


def test_the_groups_chosen_from_a_memory_budget_equal_the_same_groups_in_one_process(
        client, rows, tmp_path):
    # A budget of about a sixth of the rows' bytes: default_groups chooses several groups, each
    # reading its slice of every block's spill file; the spill directory is gone afterwards.
    counts = np.tile([1, 2, 3, 4, 5], ROWS // 15 + 1)
    counts = counts[:np.searchsorted(np.cumsum(counts), ROWS, side="right")]
    counts[-1] += ROWS - counts.sum()
    units = units_of(counts, 57)
    budget = ROWS * (DIM + 1) * 8 * dask_units.GROUP_COPIES / 5.5
    groups = dask_units.default_groups(ROWS, DIM, budget)
    assert groups == 6
    spec = dask_units.unit_spec(1.0, 2, "analyze_gauss", 1.0, 1e-6)
    with dpcov.Rng(58) as rng:
        released, receipt = dask_units.dask_unit_release(
            lazy(rows), lazy(units), 1.0, 2, 1.0, 1e-6, rng, spill_dir=str(tmp_path),
            memory_budget=budget)
    assert list(tmp_path.iterdir()) == []
    with dpcov.Rng(58) as rng:
        state = dask_units.unit_state_serial(rows, units, spec, rng, groups, 1000)
        with dpcov.GramAccumulator.from_bytes(state) as gram:
            expected, expected_receipt = gram.release("analyze_gauss", 1.0, 1e-6, rng)
    assert receipt == expected_receipt and receipt.n == len(counts)
    assert released.tobytes() == expected.tobytes()


def test_the_spill_directory_is_removed_when_the_release_fails(client, rows, tmp_path):
    with dpcov.Rng(59) as rng, pytest.raises(ValueError, match="whole numbers"):
        dask_units.dask_unit_release(lazy(rows), lazy(np.full(ROWS, 0.5)), 1.0, 4, 1.0, 1e-6,
                                     rng, groups=2, spill_dir=str(tmp_path))
    assert list(tmp_path.iterdir()) == []


def test_spill_files_that_would_not_fit_the_disk_are_refused_before_any_is_written(
        client, rows, tmp_path, monkeypatch):
    import dpcov.dask_spill as dask_spill

    def almost_full(path):
        return dask_spill.shutil._ntuple_diskusage(10**9, 10**9 - 1000, 1000)

    monkeypatch.setattr(dask_spill.shutil, "disk_usage", almost_full)
    with dpcov.Rng(60) as rng, pytest.raises(OSError, match="spill files need"):
        dask_units.dask_unit_release(lazy(rows), lazy(np.arange(ROWS)), 1.0, 4, 1.0, 1e-6, rng,
                                     spill_dir=str(tmp_path))
    assert list(tmp_path.iterdir()) == []
