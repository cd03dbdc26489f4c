"""Every Dask entry point against the mechanism registry's privacy-unit column: each mechanism on
Dask either releases with ``privacy_unit=`` as its single-process unit release does, or refuses
it before any task runs, with the registry's own reason (``unit_refusal``) where it has one."""

import dask.array as da
import numpy as np
import pytest

import dpcov
import dpcov.dask as dask_release
import dpcov.dask_bound as dask_bound
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


@pytest.mark.parametrize("mechanism", ["dly_adaptive", "coinpress"])
def test_the_zcdp_passes_refuse_units_before_anything_runs(client, data, mechanism):
    rows, units = data
    with dpcov.Rng(93) as rng:
        before = rng.save_state()
        with pytest.raises(ValueError, match="privacy units in one process only"):
            dask_release.dask_zcdp_release(lazy(rows), rng, mechanism, privacy_unit=lazy(units),
                                           max_rows_per_unit=2, rho=1.0)
        assert rng.save_state() == before


@pytest.mark.parametrize("entry", ["dask_private_bound", "dask_release_auto"])
def test_the_private_bound_refuses_units_with_the_registrys_reason(client, data, entry):
    rows, units = data
    reason = dpcov.mechanism_info(dpcov.Mechanism.PRIVATE_BOUND).unit_refusal
    assert reason
    with dpcov.Rng(94) as rng:
        before = rng.save_state()
        with pytest.raises(ValueError) as refused:
            if entry == "dask_private_bound":
                dask_bound.dask_private_bound(lazy(rows), 0.5, rng, privacy_unit=lazy(units),
                                              max_rows_per_unit=2)
            else:
                dask_bound.dask_release_auto(lazy(rows), 1.0, 1e-6, rng,
                                             privacy_unit=lazy(units), max_rows_per_unit=2)
        assert str(refused.value) == f"private_bound is refused with privacy units: {reason}"
        assert rng.save_state() == before


def test_units_need_both_the_ids_and_k(client, data):
    rows, units = data
    with dpcov.Rng(95) as rng, pytest.raises(ValueError, match="need both privacy_unit"):
        dask_release.dask_release(lazy(rows), 1.0, 1.0, 1e-6, rng, privacy_unit=lazy(units))
