"""The private bound on a local Dask cluster: each partition's histogram of row norms on the public
grid, summed, and the library's selection at the driver give the single-process bound with the
same generator (the counts are integers: exactly), and the release at it byte for byte."""

import contextlib

import numpy as np
import pytest

import dpcov
import dpcov.dask_bound as dask_bound
from dask_fixtures import ROWS, client, lazy, rows  # noqa: F401 (fixtures)


def test_the_cluster_histogram_of_norms_is_the_single_process_one(client, rows):
    candidates = dpcov.private_bound.grid(1e-3, 1e3, 1.25)
    counts = dask_bound.norm_histogram(lazy(rows), candidates)
    assert counts.dtype == np.int64 and counts.sum() == ROWS
    np.testing.assert_array_equal(counts, dpcov.private_bound.row_histogram(rows, candidates))


@pytest.mark.parametrize("rule", ["scan", "exponential"])
def test_the_cluster_private_bound_is_the_single_process_one(client, rows, rule):
    with dpcov.Rng(41) as rng:
        chosen = dask_bound.dask_private_bound(lazy(rows), 0.5, rng, rule=rule)
        after = rng.next_u64()
    with dpcov.Rng(41) as rng:
        expected = dpcov.private_bound.choose_bound(rows, 0.5, rng, rule=rule)
        assert rng.next_u64() == after  # the same draws, no more
    assert chosen == expected


@pytest.mark.parametrize("neighbour,clipped", [("replace_one", None), ("add_remove", 40)])
def test_the_release_at_a_private_bound_equals_the_single_process_one_byte_for_byte(
        client, rows, neighbour, clipped):
    with dpcov.Rng(42) as rng:
        (released, receipt), bound = dask_bound.dask_release_auto(
            lazy(rows), 1.0, 1e-6, rng, clipped=clipped, neighbour=neighbour)
    rest = dpcov.private_bound.bound_step_rest(1.0, dpcov.private_bound.BOUND_STEP_SHARE)
    with dpcov.Rng(42) as rng:
        expected_bound = dpcov.private_bound.choose_bound(rows, 0.1, rng, quantile=0.95,
                                                          lo=1e-6, hi=1e9, clipped=clipped)
        expected, expected_receipt = dpcov.release_rows("analyze_gauss", rows, expected_bound,
                                                        rest, 1e-6, rng, neighbour=neighbour)
    assert bound == expected_bound and receipt.bound == bound and receipt.epsilon == rest
    assert receipt == expected_receipt and receipt.numerics == 1
    assert released.tobytes() == expected.tobytes()


def test_a_quantile_bound_under_add_remove_is_refused(client, rows):
    # The quantile's target floor(0.05 n) would use n, which add/remove keeps private.
    with dpcov.Rng(43) as rng, pytest.raises(ValueError, match="clipped"):
        dask_bound.dask_release_auto(lazy(rows), 1.0, 1e-6, rng, neighbour="add_remove")


def test_an_active_accountant_is_charged_for_the_bound_and_the_release(client, rows):
    with dpcov.BudgetAccountant(10.0, 1e-3) as budget, dpcov.Rng(57) as rng:
        dask_bound.dask_release_auto(lazy(rows), 1.0, 1e-6, rng)
        spent = budget.spent
    assert spent.charges == 2 and spent.epsilon == pytest.approx(1.0)


def test_an_advanced_ledger_takes_the_bound_step_and_the_release_as_one(client, rows):
    # As PrivateCovariance(bound="auto") and `dpcov release --bound auto`: one release of the
    # epsilons' sum rounded up, since the first charge fixes an advanced ledger's per-release
    # budget; a cap the sum exceeds is refused before the bound step draws.
    rest = dpcov.private_bound.bound_step_rest(1.0, 0.1)
    total = dpcov.ledger.bound_step_total(0.1, rest)
    for numerics in ("exact", "idealized"):
        with dpcov.BudgetAccountant(10.0, 1e-5, accounting="advanced") as budget, \
                dpcov.Rng(59) as rng:
            (_, receipt), _ = dask_bound.dask_release_auto(lazy(rows), 1.0, 1e-6, rng,
                                                          numerics=numerics)
            assert receipt.epsilon == rest
            assert budget.spent.charges == 1 and budget.spent.epsilon == total
    with dpcov.BudgetAccountant(10.0, 1e-5, accounting="advanced") as budget, \
            dpcov.Rng(59) as rng:
        dask_bound.dask_release_auto(lazy(rows), 1.0, 1e-6, rng, lower=[-2.0] * 5,
                                     upper=[2.0] * 5, clipped=40)
        assert budget.spent.charges == 1 and budget.spent.epsilon == total
    with dpcov.BudgetAccountant(0.95, 1e-5, accounting="advanced") as budget, \
            dpcov.Rng(59) as rng:
        with pytest.raises(dpcov.PreconditionError):
            dask_bound.dask_release_auto(lazy(rows), 1.0, 1e-6, rng)
        assert budget.spent.charges == 0
        with dpcov.Rng(59) as fresh:
            assert rng.next_u64() == fresh.next_u64()  # nothing drawn


def test_a_quantile_target_needs_the_number_of_rows(client, rows):
    x = lazy(rows)
    unknown = x[x[:, 0] > -100.0]  # every row, but Dask no longer knows how many
    with dpcov.Rng(58) as rng, pytest.raises(ValueError, match="number of rows"):
        dask_bound.dask_private_bound(unknown, 0.5, rng)
    with dpcov.Rng(58) as rng:  # a public target needs no n
        chosen = dask_bound.dask_private_bound(unknown, 0.5, rng, clipped=40)
    with dpcov.Rng(58) as rng:
        assert chosen == dpcov.private_bound.choose_bound(rows, 0.5, rng, clipped=40)


@pytest.mark.parametrize("accountant", [False, True])
def test_a_release_share_refusal_names_the_requested_epsilon(client, rows, accountant):
    # The additive Wishart needs eps < 1: at 0.9 of 1.5 the release fails, naming 1.5.
    budget = dpcov.BudgetAccountant(10.0, 1e-3) if accountant else contextlib.nullcontext()
    with budget, dpcov.Rng(58) as rng:
        with pytest.raises(dpcov.UnmetPreconditionError) as e:
            dask_bound.dask_release_auto(lazy(rows), 1.5, 1e-6, rng,
                                         mechanism="wishart_additive")
    assert "gets epsilon = 1.35 of the requested epsilon = 1.5" in str(e.value)
    assert "the private bound's step spends the rest" in str(e.value)
    if accountant:
        assert budget.spent.charges == 0
