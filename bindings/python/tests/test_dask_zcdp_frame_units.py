"""Dong-Liang-Yi and CoinPress with privacy units from a Dask DataFrame on a local cluster: the unit
column named, whole-number or string ids, equal to the single-process ``zcdp_unit_release``
with the same generator (the receipt exactly, the matrix to the rounding of the passes' sums),
and units cut to k rows equal to the same groups reproduced in one process."""

import dask
import numpy as np
import pytest

import dpcov
import dpcov.dask as dask_release
import dpcov.dask_string_units as dask_string_units
import dpcov.dask_units as dask_units
from dask_fixtures import CHUNKS, ROWS, client, rows  # noqa: F401 (fixtures)
from dpcov.unit_rows import keep_unit_rows

pd = pytest.importorskip("pandas")
dd = pytest.importorskip("dask.dataframe")

NAMES = ["a", "b", "c", "d", "e"]
ZCDP = {"dly_adaptive": (dpcov.dly_release, {"radius": 4.0}),
        "coinpress": (dpcov.coinpress_release, {"k_bound": 10.0})}


def scattered_units(size, seed):
    """Units of ``size`` rows (the last one fewer), their rows scattered over the partitions."""
    codes = np.arange(ROWS) // size
    return codes[np.random.default_rng(seed).permutation(ROWS)]


def frame_of(rows, ids):
    """The rows (columns a to e) and the unit column as a Dask DataFrame in the blocks CHUNKS."""
    table = pd.DataFrame(rows, columns=NAMES)
    table["unit"] = ids
    cuts = np.cumsum((0,) + CHUNKS)
    return dd.from_delayed([dask.delayed(table.iloc[a:b]) for a, b in zip(cuts[:-1], cuts[1:])],
                           meta=table.iloc[:0])


def ids_of(codes, kind):
    return codes * 13 - 500 if kind == "whole" else np.array([f"p{c}" for c in codes],
                                                             dtype=object)


@pytest.mark.parametrize("mechanism", sorted(ZCDP))
@pytest.mark.parametrize("kind", ["whole", "string"])
def test_a_frames_units_equal_the_single_process_unit_release(client, rows, mechanism, kind):
    # Units of at most k rows: each keeps all of its rows and zero rows up to k, nothing drawn
    # in the groups.
    ids = ids_of(scattered_units(3, 71), kind)
    release, settings = ZCDP[mechanism]
    with dpcov.Rng(72) as rng:
        released, receipt = dask_release.dask_zcdp_release(
            frame_of(rows, ids), rng, mechanism, columns=NAMES, privacy_unit="unit",
            max_rows_per_unit=3, rho=1.0, delta=1e-6, groups=3, **settings)
    with dpcov.Rng(72) as rng:
        expected, expected_receipt = release(rows, rng=rng, privacy_unit=ids,
                                             max_rows_per_unit=3, rho=1.0, delta=1e-6,
                                             **settings)
    assert receipt == expected_receipt and receipt["n"] == 3 * len(np.unique(ids))
    np.testing.assert_allclose(released, expected, rtol=0, atol=1e-12)


def test_string_units_cut_to_k_equal_the_same_groups_in_one_process(client, rows):
    # Units of 5 rows, k = 2: each group draws which 2 to keep with its own key. Group g holds
    # the rows whose id hashes to g, in their input order (blocks in order, each stably split).
    ids = ids_of(scattered_units(5, 73), "string")
    groups = 3
    with dpcov.Rng(74) as rng:
        released, receipt = dask_release.dask_zcdp_release(
            frame_of(rows, ids), rng, "dly_adaptive", columns=NAMES, privacy_unit="unit",
            max_rows_per_unit=2, rho=1.0, delta=1e-6, groups=groups, radius=4.0)
    which = dask_string_units.string_groups(ids, groups)
    kept = []
    with dpcov.Rng(74) as rng:
        for g, sampler in enumerate(dask_units.sampler_states(rng, groups)):
            _, ranks = np.unique(ids[which == g], return_inverse=True)
            x, numbered = dask_units.sorted_units(
                np.column_stack([ranks.astype(float), rows[which == g]]), 0)
            with dpcov.Rng.from_state(sampler) as group_rng:
                kept.append(keep_unit_rows(x, numbered, 2, group_rng)[0])
        expected, expected_receipt = dpcov.dly_release(np.concatenate(kept), rng=rng,
                                                       rho=1.0 / 4, delta=1e-6, radius=4.0)
    assert receipt["n"] == expected_receipt["n"] == 2 * len(np.unique(ids))
    assert receipt["privacy_unit"]["row_rho"] == expected_receipt["rho"]
    np.testing.assert_allclose(released, expected, rtol=0, atol=1e-12)


def test_a_missing_id_is_refused_and_leaves_no_spill_file(client, rows, tmp_path):
    ids = ids_of(scattered_units(3, 75), "string")
    ids[2222] = None
    with dpcov.Rng(76) as rng:
        before = rng.save_state()
        with pytest.raises(ValueError, match="must not be missing"):
            dask_release.dask_zcdp_release(frame_of(rows, ids), rng, "dly_adaptive",
                                           columns=NAMES, privacy_unit="unit",
                                           max_rows_per_unit=3, rho=1.0, delta=1e-6,
                                           radius=4.0, spill_dir=tmp_path)
        assert rng.save_state() == before
    assert list(tmp_path.iterdir()) == []
