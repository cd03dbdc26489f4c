"""The Dask entry points refuse what the in-memory ones refuse, before anything is drawn or
charged, and in words that quote no data; blocks that reach a worker misaligned still release.

- A bounding policy that the neighbour relation refuses (drop under replace-one) is refused from
  the release's spec, whatever the rows: on every mechanism and numerics (whether the call
  succeeded once told whether some row's norm was over the bound).
- An automatic bound with policy reject (or drop under replace-one) is refused before the bound
  step spends, as PrivateCovariance(bound="auto") refuses it.
- The zCDP passes by unit refuse a bad setting before the groupby and the accountant's charge.
- Unit ids that are strings in an array are refused by their dtype, never quoted.
- A block at an address that is not 8-byte aligned (as a block arriving at a worker process can
  be) is copied, not refused."""

import numpy as np
import pytest

import dpcov
import dpcov.dask as dask_release
import dpcov.dask_bound as dask_bound
import dpcov.dask_zcdp_units as dask_zcdp_units
from dask_fixtures import ROWS, client, lazy, rows  # noqa: F401 (fixtures)


def within(rows, scale=0.5):
    """``rows`` scaled so that every norm is below 1."""
    return rows * (scale / np.max(np.linalg.norm(rows, axis=1)))


@pytest.mark.parametrize("mechanism, numerics", [("analyze_gauss", "idealized"),
                                                 ("iev", "exact"), ("laplace_sym", "exact")])
def test_drop_under_replace_one_is_refused_whatever_the_rows(client, rows, mechanism, numerics):
    over = within(rows).copy()
    over[123] *= 4  # a neighbour with one row over the bound
    for x in (within(rows), over):
        with dpcov.Rng(5) as rng:
            before = rng.save_state()
            with pytest.raises(dpcov.PreconditionError, match="drop"):
                dask_release.dask_release(lazy(x), 1.0, 1.0, 1e-6, rng, mechanism,
                                          policy="drop", numerics=numerics)
            assert rng.save_state() == before


@pytest.mark.parametrize("policy, units", [("reject", False), ("drop", False), ("reject", True)])
def test_an_automatic_bound_refuses_a_policy_before_its_step_spends(client, rows, policy, units):
    options = {"privacy_unit": lazy(np.arange(ROWS) // 2), "max_rows_per_unit": 2} if units \
        else {}
    budget = dpcov.BudgetAccountant(epsilon=10.0, delta=1e-3)
    with budget, dpcov.Rng(6) as rng:
        before = rng.save_state()
        with pytest.raises((ValueError, dpcov.DpcovError)):
            dask_bound.dask_release_auto(lazy(rows), 1.0, 1e-6, rng, policy=policy, **options)
        assert rng.save_state() == before
    assert budget.spent.charges == 0


def test_a_bad_pass_setting_of_units_spends_nothing(client, rows):
    budget = dpcov.BudgetAccountant(epsilon=10.0, delta=1e-3, accounting="zcdp")
    with budget, dpcov.Rng(7) as rng:
        with pytest.raises(dpcov.InvalidArgumentError):
            dask_zcdp_units.dask_zcdp_unit_release(lazy(rows), lazy(np.arange(ROWS) // 3), 4,
                                                   rng, "dly_adaptive", 0.05, 1e-5, radius=-1.0)
    assert budget.spent.charges == 0


def test_string_ids_in_an_array_are_refused_by_their_dtype(client, rows):
    ids = np.array([f"person{k // 2}@example.org" for k in range(ROWS)])
    with dpcov.Rng(8) as rng:
        with pytest.raises(TypeError, match="dtype") as raised:
            dask_release.dask_release(lazy(rows), 1.0, 1.0, 1e-6, rng,
                                      privacy_unit=lazy(ids), max_rows_per_unit=2)
    assert "example.org" not in str(raised.value)


def test_a_misaligned_block_is_copied_not_refused(client, rows):
    raw = bytearray(rows.nbytes + 1)
    misaligned = np.frombuffer(raw, dtype=np.float64, count=rows.size, offset=1)
    misaligned = misaligned.reshape(rows.shape)
    misaligned[...] = rows
    assert misaligned.ctypes.data % 8 != 0
    with dpcov.Rng(9) as rng:
        released, _ = dask_release.dask_release(lazy(misaligned), 1.0, 1.0, 1e-6, rng)
    with dpcov.Rng(9) as rng:
        expected, _ = dpcov.release_rows("analyze_gauss", rows, 1.0, 1.0, 1e-6, rng)
    assert released.tobytes() == expected.tobytes()
    with dpcov.Rng(10) as rng:
        bound = dask_bound.dask_private_bound(lazy(misaligned), 0.5, rng)
    assert bound > 0
