"""AdaSSP with privacy units on a local Dask cluster: the rows [x, y] grouped by unit through the
unit groupby, at most k rows of each unit kept by the library in its group, the groups' states
merged and one fit made at the driver; the single-process unit fit (or its reproduction from
the same groups) byte for byte.

The statistics are compensated floating-point sums, equal across groupings only to their
rounding; the byte-for-byte tests use rows on a grid of 1/64 with norms below the bound (no row
clipped), whose products and sums are exact in float64, so that any difference is in which rows
were kept, never in the order they were added."""

import dask.array as da
import numpy as np
import pytest

import dpcov
import dpcov.dask_adassp as dask_adassp
import dpcov.dask_units as dask_units
from dpcov.adassp_units import UNITS_NO_INTERVALS, adassp_units_fit, unit_fit, unit_fit_plan
from dask_fixtures import CHUNKS, ROWS, client, lazy  # noqa: F401 (fixtures)

# Above every row's norm: nothing clipped. The balanced rows are x sqrt(d) / BOUND = x / 2 (d = 4),
# still on a grid, so the sums stay exact.
BOUND = 4.0


@pytest.fixture(scope="module")
def xy():
    """x (ROWS x 4) and y on the grid of 1/64, ||x|| < BOUND and |y| < 1."""
    gen = np.random.default_rng(71)
    x = np.round(gen.uniform(-0.9, 0.9, size=(ROWS, 4)) * 64) / 64
    y = np.round(np.clip(x @ [0.5, -0.4, 0.3, 0.1] + 0.2 * gen.normal(size=ROWS), -1, 1) * 64) / 64
    return x, y


def scattered(counts, seed):
    """Unit ids: unit u has counts[u] rows, the rows shuffled so that units span partitions."""
    ids = np.repeat(np.arange(len(counts)), counts)
    return ids[np.random.default_rng(seed).permutation(len(ids))]


def counts_summing_to_rows(pattern):
    counts = np.tile(pattern, ROWS // sum(pattern) + 1)
    counts = counts[:np.searchsorted(np.cumsum(counts), ROWS, side="right")]
    counts[-1] += ROWS - counts.sum()
    return counts


def assert_same_fit(got, want):
    assert got.fit.receipt.to_dict() == want.fit.receipt.to_dict()
    assert got.fit.coefficients.tobytes() == want.fit.coefficients.tobytes()
    assert got[1:4] == want[1:4]  # bound_x and the curator's counters
    assert got.unit_factors.tobytes() == want.unit_factors.tobytes()


@pytest.mark.parametrize("fit_intercept,neighbour", [(True, "replace_one"),
                                                     (False, "add_remove")])
def test_units_of_at_most_k_rows_equal_the_single_process_unit_fit(client, xy, fit_intercept,
                                                                   neighbour):
    # Nothing is drawn in the groups, so the fit does not depend on the grouping.
    x, y = xy
    units = scattered(counts_summing_to_rows([1, 2, 3]), 72)
    with dpcov.Rng(73) as rng:
        got = dask_adassp.dask_adassp(lazy(x), lazy(y), BOUND, 1.0, 1.0, 1e-6, rng,
                                      fit_intercept, neighbour=neighbour, privacy_unit=lazy(units),
                                      max_rows_per_unit=3, groups=3)
        after = rng.save_state()
    with dpcov.Rng(73) as rng:
        want = adassp_units_fit(x, y, units, 3, BOUND, 1.0, 1.0, 1e-6, rng, fit_intercept,
                                neighbour=neighbour)
        assert rng.save_state() == after
    assert got.fit.receipt.max_rows_per_unit == 3 and got.fit.receipt.n == -1
    assert_same_fit(got, want)


def cluster_fit(x, y, units, k, rng, blocks=1000, **groupby):
    """The fit on the cluster from row blocks of ``blocks`` rows (a number, or each block's)."""
    return dask_adassp.dask_adassp(da.from_array(x, chunks=(blocks, x.shape[1])),
                                   da.from_array(y, chunks=(blocks,)), BOUND, 1.0, 1.0, 1e-6,
                                   rng, privacy_unit=da.from_array(units, chunks=(blocks,)),
                                   max_rows_per_unit=k, **groupby)


def serial_fit(x, y, units, k, rng, groups, block_rows, shuffle=True):
    """The fit from :func:`dpcov.dask_units.unit_state_serial`: the same blocks, groups and
    sampling keys as the cluster's, in this process."""
    plan = unit_fit_plan(x.shape[1], k, BOUND, 1.0, 1.0, 1e-6)
    spec = {**dask_adassp.adassp_spec(BOUND, 1.0), "max_rows_per_unit": k}
    state = dask_units.unit_state_serial(np.column_stack([x, y]), units, spec, rng, groups,
                                         block_rows, shuffle)
    with dpcov.GramAccumulator.from_bytes(state) as gram:
        return unit_fit(gram, plan, rng)


def test_larger_units_equal_the_same_groups_in_one_process(client, xy):
    # Units of 1 to 7 rows, k = 2: each group draws which rows to keep with its own key.
    x, y = xy
    counts = counts_summing_to_rows([1, 2, 3, 4, 5, 6, 7])
    units = scattered(counts, 74)
    with dpcov.Rng(75) as rng:
        got = cluster_fit(x, y, units, 2, rng, groups=3)
    with dpcov.Rng(75) as rng:
        want = serial_fit(x, y, units, 2, rng, 3, 1000)
    assert got.truncated == np.maximum(counts - 2, 0).sum()
    assert_same_fit(got, want)


def test_units_split_across_partitions_are_gathered_before_k_is_applied(client, xy):
    # Every unit has 4 rows, one in each of 4 partitions: bounded per partition, each would keep
    # all of its rows; gathered, each keeps k = 2 and leaves 2 out.
    x, y = xy
    units = np.tile(np.arange(ROWS // 4), 4)
    with dpcov.Rng(76) as rng:
        got = cluster_fit(x, y, units, 2, rng, groups=2)
    with dpcov.Rng(76) as rng:
        want = serial_fit(x, y, units, 2, rng, 2, 1000)
    assert got.truncated == ROWS // 2
    assert_same_fit(got, want)


def test_units_sorted_in_whole_blocks_need_no_shuffle(client, xy):
    x, y = xy
    units = np.repeat(np.arange(ROWS // 4), 4)  # every block of 1000 rows holds whole units
    with dpcov.Rng(77) as rng:
        got = cluster_fit(x, y, units, 2, rng, shuffle=False)
    with dpcov.Rng(77) as rng:
        want = serial_fit(x, y, units, 2, rng, 0, 1000, shuffle=False)
    assert got.truncated == ROWS // 2
    assert_same_fit(got, want)


def test_a_unit_split_between_blocks_is_refused_without_a_shuffle(client, xy):
    x, y = xy
    units = np.repeat(np.arange(ROWS // 4), 4)
    blocks = (701, 1299, 500, 1500)  # unit 175 has rows in the first two blocks
    with dpcov.Rng(78) as rng:
        before = rng.save_state()
        with pytest.raises(dpcov.IncompatibleError, match="split"):
            cluster_fit(x, y, units, 2, rng, blocks, shuffle=False)
        assert rng.save_state() == before


@pytest.mark.parametrize("units,k,match", [
    (np.arange(ROWS) // 2, 0, "max_rows_per_unit must be >= 1"),
    (np.arange(ROWS) // 2, -3, "max_rows_per_unit must be >= 1"),
    (np.arange(ROWS - 1) // 2, 2, f"units has {ROWS - 1} ids for {ROWS} rows"),
    (np.where(np.arange(ROWS) == 17, np.nan, np.arange(ROWS) // 2), 2, "must not be missing"),
    (None, 2, "need both privacy_unit"),
    (np.arange(ROWS) // 2, None, "need both privacy_unit"),
])
def test_bad_units_are_refused_before_anything_is_drawn(client, xy, units, k, match):
    x, y = xy
    unit_ids = None if units is None else da.from_array(units, chunks=1000)
    with dpcov.Rng(79) as rng:
        before = rng.save_state()
        with pytest.raises(ValueError, match=match):
            dask_adassp.dask_adassp(lazy(x), lazy(y), BOUND, 1.0, 1.0, 1e-6, rng,
                                    privacy_unit=unit_ids, max_rows_per_unit=k)
        assert rng.save_state() == before


def test_a_fit_of_units_refuses_the_label_square_it_would_release_for_intervals(xy):
    x, y = xy
    with dpcov.Rng(80) as rng, pytest.raises(ValueError) as refused:
        dask_adassp.dask_adassp(lazy(x), lazy(y), BOUND, 1.0, 1.0, 1e-6, rng,
                                privacy_unit=lazy(np.arange(ROWS) // 2), max_rows_per_unit=2,
                                release_label_square=True)
    assert UNITS_NO_INTERVALS in str(refused.value)


def test_the_accountant_refuses_before_the_groups_run(xy, tmp_path):
    x, y = xy
    with dpcov.BudgetAccountant(1e-9, 1e-12) as budget, dpcov.Rng(81) as rng:
        before = rng.save_state()
        with pytest.raises(dpcov.PreconditionError, match="cap would be exceeded"):
            dask_adassp.dask_adassp(lazy(x), lazy(y), BOUND, 1.0, 1.0, 1e-6, rng,
                                    privacy_unit=lazy(np.arange(ROWS) // 2),
                                    max_rows_per_unit=2, spill_dir=tmp_path)
        assert rng.save_state() == before and budget.spent.charges == 0
    assert list(tmp_path.iterdir()) == []  # no spill file was written
