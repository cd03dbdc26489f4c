"""Every Dask entry point against the mechanism registry's privacy-unit column: each mechanism on
Dask either releases with ``privacy_unit=`` as its single-process unit release does, or refuses
it before any task runs with the registry's own reason (``unit_refusal``)."""

import dask.array as da
import numpy as np
import pytest

import dpcov
import dpcov.dask as dask_release
import dpcov.dask_units as dask_units
from dpcov.unit_rows import keep_unit_rows
from dask_fixtures import client  # noqa: F401 (fixture)

ROWS = 800
# The options a mechanism needs to release at all (its public bounds and sizes).
NEEDS = {"inverse_gauss": {"lambda_min_bound": 0.5}, "jl_ridge": {"projection_rows": 60},
         "inverse_wishart": {"posterior_dof": 60}}
GRAM = [m.name for m in dpcov.mechanisms() if m.family == "gram"]


@pytest.fixture(scope="module")
def data():
    """Rows of norm below 1 on the grid of 1/64, whose floating-point Gram sums are exact in
    any order, and their units (3 rows each, scattered over the blocks)."""
    gen = np.random.default_rng(91)
    rows = np.round(gen.uniform(-0.5, 0.5, size=(ROWS, 3)) * 64) / 64
    units = np.repeat(np.arange(ROWS // 3 + 1), 3)[:ROWS]
    return rows, units[gen.permutation(ROWS)]


def lazy(values):
    return da.from_array(values, chunks=(200,) + np.shape(values)[1:])


@pytest.mark.parametrize("name", GRAM)
def test_a_gram_mechanism_with_units_is_its_single_process_release_or_the_registrys_refusal(
        client, data, name, tmp_path):
    rows, units = data
    info = dpcov.mechanism_info(dpcov.Mechanism[name.upper()])
    params = {"privacy_unit": lazy(units), "max_rows_per_unit": 3, "spill_dir": tmp_path,
              "groups": 2, **NEEDS.get(name, {})}
    with dpcov.Rng(92) as rng:
        before = rng.save_state()
        if not info.unit_proof:
            with pytest.raises(ValueError) as refused:
                dask_release.dask_release(lazy(rows), 1.0, 1.0, 1e-6, rng, name, **params)
            assert str(refused.value) == f"{name} is refused with privacy units: " \
                                         f"{info.unit_refusal}"
            assert rng.save_state() == before and list(tmp_path.iterdir()) == []
            return
        released, receipt = dask_release.dask_release(lazy(rows), 1.0, 1.0, 1e-6, rng, name,
                                                      **params)
    with dpcov.Rng(92) as rng:
        expected, expected_receipt = dpcov.release_rows(
            name, rows, 1.0, 1.0, 1e-6, rng, privacy_unit=units, max_rows_per_unit=3,
            **NEEDS.get(name, {}))
    # Units of at most k rows: nothing is drawn in the groups, and the sums are exact (integers
    # for the exact releases, the grid's exact float sums for the idealized ones), so the
    # release is the same byte for byte. (A tolerance would not do: jl_ridge's release from two
    # Gram matrices that differ in their last bits was seen to differ entirely.)
    assert receipt == expected_receipt and receipt.max_rows_per_unit == 3
    assert released.tobytes() == expected.tobytes()


ZCDP = {"dly_adaptive": (dpcov.dly_release, {"radius": 4.0}),
        "coinpress": (dpcov.coinpress_release, {"k_bound": 10.0})}


@pytest.mark.parametrize("mechanism", sorted(ZCDP))
def test_the_zcdp_passes_with_units_equal_the_single_process_unit_release(client, data,
                                                                          mechanism):
    # Units of at most k rows: each keeps all of its rows and zero rows up to k, nothing drawn
    # in the groups; the passes' compensated sums add the kept rows in another order.
    rows, units = data
    release, settings = ZCDP[mechanism]
    with dpcov.Rng(93) as rng:
        released, receipt = dask_release.dask_zcdp_release(
            lazy(rows), rng, mechanism, privacy_unit=lazy(units), max_rows_per_unit=3, rho=1.0,
            delta=1e-6, groups=3, **settings)
    with dpcov.Rng(93) as rng:
        expected, expected_receipt = release(rows, rng=rng, privacy_unit=units,
                                             max_rows_per_unit=3, rho=1.0, delta=1e-6,
                                             **settings)
    assert receipt == expected_receipt and receipt["privacy_unit"]["max_rows_per_unit"] == 3
    np.testing.assert_allclose(released, expected, rtol=0, atol=1e-12)


def kept_rows_serial(rows, units, k, rng, groups, block_rows):
    """The rows the cluster's groups keep, group by group, in this process: the same blocks,
    groups and sampling keys (dpcov.dask_units.unit_state_serial's, for kept rows)."""
    blocks = np.column_stack([units.astype(float), rows])
    split = [dask_units.split_block(blocks[i:i + block_rows], groups)
             for i in range(0, len(rows), block_rows)]
    kept = []
    for g, sampler in enumerate(dask_units.sampler_states(rng, groups)):
        x, ids = dask_units.sorted_units(np.concatenate([s[g] for s in split]), 0)
        with dpcov.Rng.from_state(sampler) as group_rng:
            kept.append(keep_unit_rows(x, ids, k, group_rng)[0])
    return np.concatenate(kept)


def test_truncated_units_of_the_zcdp_passes_equal_the_same_groups_in_one_process(client, data):
    # Units of 3 rows, k = 2: each group draws which 2 to keep with its own key.
    rows, units = data
    with dpcov.Rng(96) as rng:
        released, receipt = dask_release.dask_zcdp_release(
            lazy(rows), rng, "dly_adaptive", privacy_unit=lazy(units), max_rows_per_unit=2,
            rho=1.0, delta=1e-6, groups=3, radius=4.0)
    with dpcov.Rng(96) as rng:
        kept = kept_rows_serial(rows, units, 2, rng, 3, 200)
        expected, expected_receipt = dpcov.dly_release(kept, rng=rng, rho=1.0 / 4, delta=1e-6,
                                                       radius=4.0)
    assert receipt["n"] == expected_receipt["n"] == 2 * len(np.unique(units))
    assert receipt["privacy_unit"]["row_rho"] == expected_receipt["rho"]
    np.testing.assert_allclose(released, expected, rtol=0, atol=1e-12)


def test_a_group_the_hash_leaves_empty_keeps_no_row(client, data):
    rows, units = data[0][:12], np.arange(12) // 3
    with dpcov.Rng(98) as rng:
        released, receipt = dask_release.dask_zcdp_release(
            da.from_array(rows, chunks=(4, 3)), rng, "dly_adaptive",
            privacy_unit=da.from_array(units, chunks=4), max_rows_per_unit=3, rho=1.0,
            delta=1e-6, groups=16, radius=4.0)
    with dpcov.Rng(98) as rng:
        expected, expected_receipt = dpcov.dly_release(rows, rng=rng, privacy_unit=units,
                                                       max_rows_per_unit=3, rho=1.0, delta=1e-6,
                                                       radius=4.0)
    assert receipt == expected_receipt and receipt["n"] == 12
    np.testing.assert_allclose(released, expected, rtol=0, atol=1e-12)


def test_the_zcdp_passes_refuse_units_without_the_groupby(client, data):
    rows, units = data
    with dpcov.Rng(99) as rng:
        before = rng.save_state()
        with pytest.raises(ValueError, match="no shuffle=False"):
            dask_release.dask_zcdp_release(lazy(rows), rng, "dly_adaptive",
                                           privacy_unit=lazy(units), max_rows_per_unit=2,
                                           rho=1.0, delta=1e-6, shuffle=False)
        assert rng.save_state() == before


def test_the_zcdp_passes_refuse_an_unaffordable_unit_release_before_the_groupby(
        client, data, tmp_path):
    rows, units = data
    with dpcov.BudgetAccountant(1e-9, 1e-12, accounting="zcdp") as budget, \
            dpcov.Rng(97) as rng:
        before = rng.save_state()
        with pytest.raises(dpcov.PreconditionError, match="cap would be exceeded"):
            dask_release.dask_zcdp_release(lazy(rows), rng, "dly_adaptive",
                                           privacy_unit=lazy(units), max_rows_per_unit=2,
                                           rho=1.0, delta=1e-6, spill_dir=tmp_path)
        assert rng.save_state() == before and budget.spent.charges == 0
    assert list(tmp_path.iterdir()) == []


def test_units_need_both_the_ids_and_k(client, data):
    rows, units = data
    with dpcov.Rng(95) as rng, pytest.raises(ValueError, match="need both privacy_unit"):
        dask_release.dask_release(lazy(rows), 1.0, 1.0, 1e-6, rng, privacy_unit=lazy(units))
