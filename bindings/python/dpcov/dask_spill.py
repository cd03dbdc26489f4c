"""The unit groupby's spill files: each input block's rows [unit, x] split by group and written
to one file, which every group task reads its slice of.

A block file holds an int64 header ``[groups, cols, offsets...]`` (``groups + 1`` row offsets,
group g's rows at ``[offsets[g], offsets[g + 1])``) and then the block's rows, float64 row-major,
sorted stably by group, so group g's slice of the block is its rows in their input order. A group
task reads two offsets and its slice from every block file, in block order: the rows it gathers,
in the same order, are those :func:`dpcov.dask_units.unit_state_serial` gathers in memory
(``split_block``), so the release is the same byte for byte.

The files hold raw rows. They are written in a directory made for the release alone (mode 0700,
``tempfile.mkdtemp``) and removed when the release returns or fails; every worker must reach it
at the same path (one machine's local disk, or a file system shared inside the data owner's trust
boundary).

String unit ids travel beside their rows: the file ``<block file>.ids`` holds the block's row
count r, then r int64 end offsets, then the ids' UTF-8 bytes, in the rows' order
(:func:`write_ids`, :func:`read_group_ids`).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from contextlib import contextmanager

import numpy as np

HEADER = 2  # groups, cols; then the groups + 1 offsets


@contextmanager
def spill_directory(parent=None):
    """A private directory for one release's spill files (under ``parent``, default the
    system's temporary directory), removed with everything in it on exit."""
    path = tempfile.mkdtemp(prefix="dpcov-units-", dir=parent)
    try:
        yield path
    finally:
        remove_tree(path)


def remove_tree(path: str, attempts: int = 400, pause: float = 0.05) -> None:
    """Removes ``path`` and everything in it. When a release fails, the failure reaches the
    driver while other block tasks may still be writing their files: a file created between
    the listing and the removal of the directory keeps it, with raw rows in it, so the removal
    is repeated until the directory is gone (no task creates it again)."""
    for _ in range(attempts):
        shutil.rmtree(path, ignore_errors=True)
        if not os.path.exists(path):
            return
        time.sleep(pause)
    raise OSError(f"the spill directory {path} could not be removed: it holds raw rows, "
                  "remove it by hand")


def check_space(directory: str, rows: int, cols: int) -> None:
    """Refuses, before anything is written, spill files of ``rows`` rows [unit, x] of ``cols``
    columns of x that would not fit the free space under ``directory``: a full disk would fail
    the release half way, and the other users of that disk with it."""
    need = rows * (cols + 1) * 8
    free = shutil.disk_usage(directory).free
    if need > free:
        raise OSError(f"the unit groupby's spill files need {need / 2**30:.1f} GiB and "
                      f"{directory} has {free / 2**30:.1f} GiB free: give spill_dir= on a larger "
                      "disk, or store the rows partitioned by unit ranges (shuffle=False)")


def write_block(block: np.ndarray, groups: int, directory: str, index: int, split) -> str:
    """Writes the rows [unit, x] of input block ``index`` split by group (``split(block,
    groups)``: the list of each group's rows) to its file; returns the file's path."""
    pieces = split(block, groups)
    counts = np.fromiter((len(p) for p in pieces), dtype=np.int64, count=groups)
    header = np.concatenate([[groups, block.shape[1], 0], np.cumsum(counts)]).astype(np.int64)
    path = os.path.join(directory, f"block-{index:08d}.bin")
    with open(path, "wb") as f:
        header.tofile(f)
        for piece in pieces:
            np.ascontiguousarray(piece, dtype=np.float64).tofile(f)
    return path


def _slice_bounds(f, group: int) -> tuple:
    """(cols, first row, end row, byte offset of the rows) of group ``group`` in the open block
    file ``f``."""
    groups, cols = np.fromfile(f, dtype=np.int64, count=HEADER)
    if not 0 <= group < groups:
        raise ValueError(f"group {group} is not in a spill file of {groups} groups")
    f.seek((HEADER + group) * 8)
    first, end = np.fromfile(f, dtype=np.int64, count=2)
    return int(cols), int(first), int(end), (HEADER + int(groups) + 1) * 8


def read_group(paths: list, group: int) -> np.ndarray:
    """Group ``group``'s rows [unit, x] from every block file of ``paths``, in their order, in
    one array (no copy beyond it)."""
    slices = []
    for path in paths:
        with open(path, "rb") as f:
            slices.append(_slice_bounds(f, group))
    cols = slices[0][0] if slices else 1
    rows = np.empty((sum(end - first for _, first, end, _ in slices), cols))
    flat = memoryview(rows.reshape(-1)).cast("B")
    at = 0
    for path, (_, first, end, data) in zip(paths, slices):
        size = (end - first) * cols * 8
        if size:
            with open(path, "rb") as f:
                f.seek(data + first * cols * 8)
                if f.readinto(flat[at:at + size]) != size:
                    raise ValueError(f"spill file {path} is shorter than its header says")
            at += size
    return rows


def write_ids(ids, path: str) -> None:
    """Writes the string ids of the rows of the block file ``path``, in its rows' order."""
    encoded = [i.encode("utf-8") for i in ids]
    ends = np.cumsum([len(e) for e in encoded], dtype=np.int64)
    with open(path + ".ids", "wb") as f:
        np.array([len(encoded)], dtype=np.int64).tofile(f)
        ends.tofile(f)
        f.write(b"".join(encoded))


def read_group_ids(paths: list, group: int) -> list:
    """Group ``group``'s string ids from every block file of ``paths``, in the order of
    :func:`read_group`'s rows."""
    ids = []
    for path in paths:
        with open(path, "rb") as f:
            _, first, end, _ = _slice_bounds(f, group)
        if end == first:
            continue
        with open(path + ".ids", "rb") as f:
            rows = int(np.fromfile(f, dtype=np.int64, count=1)[0])
            f.seek(8 * first)  # the end offset of row first - 1, or the count when first is 0
            ends = np.fromfile(f, dtype=np.int64, count=end - first + 1)
            start = int(ends[0]) if first else 0
            ends = ends[1:] - start
            f.seek(8 * (1 + rows) + start)
            data = f.read(int(ends[-1]))
        starts = np.concatenate([[0], ends[:-1]])
        ids.extend(data[a:b].decode("utf-8") for a, b in zip(starts.tolist(), ends.tolist()))
    return ids
