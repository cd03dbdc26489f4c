"""String unit ids through the unit groupby's spill files, on a local Dask cluster: the release is the
one a task shuffle of the frame on its unit column gives (byte for byte, rows truncated to k
included), the one of integer ids numbering the same units, distinct ids stay distinct units
when their groups collide, the groups depend on the ids alone, and the spill directory is
removed after a release and after a failure."""

import os
import subprocess
import sys

import dask
import numpy as np
import pytest

import dpcov
import dpcov.dask_string_units as dask_string_units
import dpcov.dask_units as dask_units
from dask_fixtures import ROWS, client, lazy, rows  # noqa: F401 (fixtures)
from test_dask_frame import frame_of

pd = pytest.importorskip("pandas")
dd = pytest.importorskip("dask.dataframe")

NAMES = ["a", "b", "c", "d", "e"]


def table_of(rows, ids):
    t = pd.DataFrame(rows, columns=NAMES)
    t["name"] = ids
    return t


def scattered(counts, seed):
    """Unit codes: unit u has counts[u] rows, the rows shuffled so that units are scattered."""
    codes = np.repeat(np.arange(len(counts)), counts)
    return codes[np.random.default_rng(seed).permutation(len(codes))]


def ranked(part, first_id):
    """A shuffled partition's rows [unit, x], its distinct ids numbered first_id + rank."""
    _, ranks = np.unique(part["name"].to_numpy(dtype=object), return_inverse=True)
    return np.column_stack([first_id + ranks.astype(np.float64),
                            part[NAMES].to_numpy(dtype=np.float64)])


def shuffled_release(frame, groups, seed, k):
    """The release through Dask's task shuffle on the unit column, each partition g numbering
    its ids g 2^40 + rank, then the unit path on partitions already grouped."""
    shuffled = frame.shuffle("name", npartitions=groups, shuffle="tasks", ignore_index=True)
    import dask.array as da
    blocks = [da.from_delayed(dask.delayed(ranked)(p, g << dask_units.GROUP_SHIFT),
                              shape=(np.nan, len(NAMES) + 1), dtype=np.float64)
              for g, p in enumerate(shuffled.to_delayed())]
    x = da.concatenate(blocks, axis=0)
    with dpcov.Rng(seed) as rng:
        return dask_units.dask_unit_release(x[:, 1:], x[:, 0], 1.0, k, 1.0, 1e-6, rng,
                                            shuffle=False)


def test_string_units_release_as_the_task_shuffle_does(client, rows):
    # Units of 1 to 7 rows, k = 2: the rows kept depend on each unit's group, its number and
    # its rows' order, all of which the spill files keep as the task shuffle does.
    counts = np.tile([1, 2, 3, 4, 5, 6, 7], ROWS // 28 + 1)
    counts = counts[:np.searchsorted(np.cumsum(counts), ROWS, side="right")]
    counts[-1] += ROWS - counts.sum()
    frame = frame_of(table_of(rows, [f"u{c}" for c in scattered(counts, 80)]))
    expected, expected_receipt = shuffled_release(frame, 3, 81, 2)
    with dpcov.Rng(81) as rng:
        released, receipt = dask_units.dask_unit_release(frame, "name", 1.0, 2, 1.0, 1e-6, rng,
                                                         groups=3, columns=NAMES)
    assert receipt == expected_receipt and receipt.n == len(counts)
    assert released.tobytes() == expected.tobytes()


@pytest.mark.parametrize("groups", [1, 2])
def test_colliding_groups_keep_distinct_ids_apart(client, rows, groups):
    # One or two groups for 400 units: every group holds many ids, some a byte apart ("u1",
    # "u1 ", "ü1"), and each stays its own unit, as the integer codes number them.
    codes = scattered(np.tile([1, 2, 3, 4], ROWS // 10), 82)
    spellings = np.array([(f"u{c // 3}", f"u{c // 3} ", f"\u00fc{c // 3}")[c % 3]
                          for c in range(codes.max() + 1)], dtype=object)
    assert len(set(spellings)) == len(spellings)
    frame = frame_of(table_of(rows, spellings[codes]))
    with dpcov.Rng(83) as rng:
        released, receipt = dask_units.dask_unit_release(frame, "name", 1.0, 4, 1.0, 1e-6, rng,
                                                         groups=groups, columns=NAMES)
    with dpcov.Rng(83) as rng:
        expected, expected_receipt = dask_units.dask_unit_release(lazy(rows), lazy(codes), 1.0,
                                                                  4, 1.0, 1e-6, rng, groups=3)
    assert receipt == expected_receipt and receipt.n == codes.max() + 1
    assert released.tobytes() == expected.tobytes()


def test_the_groups_depend_on_the_ids_alone():
    ids = np.array(["alice", "bob", "ü", "", "a" * 300], dtype=object)
    here = dask_string_units.string_groups(ids, 7).tolist()
    code = ("import numpy as np, dpcov.dask_string_units as s; "
            "print(s.string_groups(np.array(['alice', 'bob', 'ü', '', 'a' * 300], "
            "dtype=object), 7).tolist())")
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        out = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                             capture_output=True, text=True).stdout
        assert out.strip() == str(here)
    assert dask_string_units.string_groups(ids[::-1], 7).tolist() == here[::-1]


def test_the_spill_directory_is_removed_after_a_release_and_a_failure(client, rows, tmp_path):
    codes = scattered(np.full(ROWS // 4, 4), 84)
    ids = np.array([f"user-{c}" for c in codes], dtype=object)
    with dpcov.Rng(85) as rng:
        dask_units.dask_unit_release(frame_of(table_of(rows, ids)), "name", 1.0, 2, 1.0, 1e-6,
                                     rng, groups=2, columns=NAMES, spill_dir=str(tmp_path))
    assert os.listdir(tmp_path) == []
    ids[ROWS - 3] = None  # in the last partition: the others have written their files
    with dpcov.Rng(85) as rng, pytest.raises(ValueError, match="must not be missing"):
        dask_units.dask_unit_release(frame_of(table_of(rows, ids)), "name", 1.0, 2, 1.0, 1e-6,
                                     rng, groups=2, columns=NAMES, spill_dir=str(tmp_path))
    assert os.listdir(tmp_path) == []


def test_string_ids_go_through_the_spill_directory():
    frame = frame_of(table_of(np.zeros((ROWS, len(NAMES))), ["u"] * ROWS))
    with dpcov.Rng(86) as rng, pytest.raises(FileNotFoundError):
        dask_units.dask_unit_release(frame, "name", 1.0, 2, 1.0, 1e-6, rng, columns=NAMES,
                                     spill_dir="/nonexistent/dpcov-spill")


def test_an_object_column_of_whole_numbers_is_refused_with_the_cast_that_reads_it():
    with pytest.raises(ValueError, match=r"astype\('int64'\)") as raised:
        dask_string_units.checked_string_ids(np.array([7, 12345, 9], dtype=object))
    assert "12345" not in str(raised.value)
    with pytest.raises(ValueError, match="all strings or all whole numbers"):
        dask_string_units.checked_string_ids(np.array(["a", 3], dtype=object))
    assert dask_string_units.checked_string_ids(np.array(["a", "b"])).tolist() == ["a", "b"]
