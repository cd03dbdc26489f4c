"""Privacy units from Python (docs/privacy-units.md): release_rows(privacy_unit=...) groups the
rows by unit in memory and releases at the unit bound with n the number of units, in any row
order; GramAccumulator.add_unit_rows keeps at most k rows per unit and counts the rest; misuse is
refused."""

import math

import numpy as np
import pytest

import dpcov


def people(seed=3):
    """12 people with 1 to 6 rows each, names as strings, rows inside the unit ball."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 7, size=12)
    names = np.repeat([f"person-{i:02d}" for i in range(12)], sizes)
    rows = rng.uniform(-0.4, 0.4, size=(len(names), 3))
    return rows, names, sizes


@pytest.mark.parametrize("mechanism", ["analyze_gauss", "laplace_sym"])
@pytest.mark.parametrize("numerics", ["exact", "idealized"])
def test_release_rows_with_units_is_at_the_unit_bound_in_any_row_order(mechanism, numerics):
    rows, names, _ = people()
    with dpcov.Rng(5) as rng:
        grouped = dpcov.release_rows(mechanism, rows, 1.0, 1.0, 1e-6, rng, numerics=numerics,
                                     privacy_unit=names, max_rows_per_unit=6)
    assert grouped.receipt.n == 12
    assert grouped.receipt.max_rows_per_unit == 6
    assert grouped.receipt.public().max_rows_per_unit == 6  # k is public
    assert grouped.receipt.bound >= math.sqrt(6.0)
    assert grouped.receipt.bound <= math.sqrt(6.0) * (1 + 1e-8)
    # Shuffled rows: the same units, grouped again; with k at least every unit's size nothing is
    # drawn before the noise, so the release is the same (bit for bit with exact numerics).
    order = np.random.default_rng(9).permutation(len(names))
    with dpcov.Rng(5) as rng:
        shuffled = dpcov.release_rows(mechanism, rows[order], 1.0, 1.0, 1e-6, rng,
                                      numerics=numerics, privacy_unit=names[order],
                                      max_rows_per_unit=6)
    if numerics == "exact":
        np.testing.assert_array_equal(grouped.matrix, shuffled.matrix)
    else:
        np.testing.assert_allclose(grouped.matrix, shuffled.matrix, rtol=1e-12, atol=1e-12)


def test_accumulator_keeps_at_most_k_rows_per_unit_and_counts_the_rest():
    rows, names, sizes = people()
    order, ids = dpcov.gram.unit_ids(names)
    with dpcov.GramAccumulator.bounded(3, 1.0, mechanism="analyze_gauss",
                                       max_rows_per_unit=2) as gram, dpcov.Rng(1) as rng:
        gram.add_unit_rows(rows[order], ids, rng).finish_units()
        info = gram.info()
        assert info.units == 12
        assert info.rows == int(np.minimum(sizes, 2).sum())
        assert info.truncated == int(np.maximum(sizes - 2, 0).sum())


def test_units_need_k_and_ids_in_order():
    rows, names, _ = people()
    with dpcov.Rng(1) as rng:
        with pytest.raises(ValueError):
            dpcov.release_rows("analyze_gauss", rows, 1.0, 1.0, 1e-6, rng, privacy_unit=names)
        with pytest.raises(ValueError):
            dpcov.release_rows("analyze_gauss", rows, 1.0, 1.0, 1e-6, rng,
                               privacy_unit=names[:-1], max_rows_per_unit=2)
        with dpcov.GramAccumulator.bounded(3, 1.0, max_rows_per_unit=2) as gram:
            with pytest.raises(dpcov.DpcovError):
                gram.add_unit_rows(rows[:3], [2, 1, 3], rng)
            with pytest.raises(dpcov.DpcovError):
                gram.add_raw_rows(rows[:3])


def test_private_covariance_fits_at_unit_level_with_the_released_count():
    rows, names, sizes = people(7)
    rows = np.vstack([rows] * 40)
    names = np.concatenate([np.char.add(names, f"-{r}") for r in range(40)])
    with pytest.warns(dpcov.learn.SeededNoiseWarning):
        est = dpcov.PrivateCovariance(epsilon=4.0, bound=1.0, random_state=3,
                                      max_rows_per_unit=3).fit(rows, privacy_unit=names)
    assert est.receipt_.n == 480
    assert est.receipt_.public().n == 480  # replace-one: the number of units is public
    assert est.n_units_truncated_ == 40 * int(np.maximum(sizes - 3, 0).sum())
    # The count is the released one (rows kept are private), near the rows kept.
    kept = 40 * int(np.minimum(sizes, 3).sum())
    assert abs(est.n_samples_ - kept) < 0.2 * kept
    assert est.covariance_.shape == (3, 3)
    with pytest.raises(ValueError):
        dpcov.PrivateCovariance(bound=1.0).fit(rows, privacy_unit=names)


def test_auto_bound_with_units_counts_each_unit_once_by_its_largest_row():
    # proofs/private_bound.md, "Privacy units": 200 units of 5 rows of norm 1, the first row of
    # 40 of them of norm 100 instead. The 0.95 quantile aims at floor(0.05 * 200) = 10 units above
    # B; 40 units lie above any B < 100, so the scan (eps_B = 4, noise scale 0.5) stops below 100
    # with probability below e^-50: B in [100, 125). The rows' histogram (40 of 1000 rows above 1,
    # under its target of 50) would stop near 1.
    ids = np.repeat(np.arange(200), 5)
    rows = np.tile([[0.6, 0.8], [0.8, 0.6], [1.0, 0.0], [0.0, 1.0], [0.6, 0.8]], (200, 1))
    rows[0:200:5] = [60.0, 80.0]  # the first row of units 0 to 39
    with pytest.warns(dpcov.learn.SeededNoiseWarning):
        est = dpcov.PrivateCovariance(epsilon=40.0, delta=1e-6, bound="auto", random_state=3,
                                      max_rows_per_unit=2).fit(rows, privacy_unit=ids)
    assert 100 <= est.bound_ < 125
    assert est.receipt_.max_rows_per_unit == 2
    with pytest.raises(ValueError, match="bound_clipped"):
        dpcov.PrivateCovariance(bound=1.0, bound_clipped=3, max_rows_per_unit=2).fit(
            rows, privacy_unit=ids)


@pytest.mark.parametrize("neighbour", ["replace_one", "add_remove"])
def test_wishart_releases_units_by_group_privacy_at_the_rows_bound(neighbour):
    rows, names, _ = people()
    with dpcov.Rng(5) as rng:
        units = dpcov.release_rows("wishart_additive", rows, 1.0, 1.0, 1e-6, rng,
                                   privacy_unit=names, max_rows_per_unit=6, neighbour=neighbour)
        row_level = dpcov.release_rows("wishart_additive", rows, 1.0, 0.9, 1e-6, rng,
                                       neighbour=neighbour)  # the theorem needs eps < 1
    # The unit-level guarantee asked for, at the rows' bound, with k and the units in the receipt.
    assert (units.receipt.epsilon, units.receipt.delta) == (1.0, 1e-6)
    assert units.receipt.bound == 1.0
    assert units.receipt.max_rows_per_unit == 6
    assert units.receipt.n == 12
    # At eps / m per row (m = 6 or 12 steps): degrees of freedom about (0.9 m)^2 times those at 0.9.
    m = 12 if neighbour == "replace_one" else 6
    assert units.receipt.dof > 0.9 * (0.9 * m) ** 2 * row_level.receipt.dof


def test_the_registry_names_the_mechanisms_with_a_unit_proof_and_the_others_are_refused():
    with_units = {m.name for m in dpcov.mechanisms() if m.unit_proof}
    # The zCDP row mechanisms name the group-privacy proof too (units of exactly k rows, through
    # dpcov.zcdp_unit_release), and take rows, never an accumulator of units; AdaSSP its own
    # (unit sensitivities) and takes the Gram of the rows kept.
    assert with_units == {"analyze_gauss", "laplace_sym", "inverse_gauss", "wishart_additive",
                          "jl_ridge", "inverse_wishart", "iev", "kt_rank1", "adassp", "dly",
                          "coinpress", "coinpress_mean", "private_bound"}
    rows, names, _ = people()
    with dpcov.Rng(5) as rng:
        with pytest.raises(dpcov.DpcovError, match="inverse_gauss") as refused:
            dpcov.release_rows("ols_jl", rows, 1.0, 0.5, 1e-6, rng, numerics="idealized",
                               privacy_unit=names, max_rows_per_unit=6, projection_rows=20)
    # The refusal quotes why, as the registry words it; every entry says either where its unit
    # proof is or why it has none.
    refusals = {m.name: m.unit_refusal for m in dpcov.mechanisms()}
    assert refusals["ols_jl"] in str(refused.value)
    assert {m.name for m in dpcov.mechanisms() if not m.unit_refusal} == with_units


@pytest.mark.parametrize("mechanism", ["iev", "kt_rank1"])
def test_eigenvector_mechanisms_release_units_at_epsilon_over_the_steps(mechanism):
    # Pure eps by group privacy (proofs/unit_group_privacy.md): eps / m per row, m = 2 k steps
    # under replace-one, so the eigenvalue noise is 12 times that of a row-level release at eps.
    rows, names, _ = people()
    with dpcov.Rng(5) as rng:
        units = dpcov.release_rows(mechanism, rows, 1.0, 1.0, 1e-6, rng, numerics="idealized",
                                   privacy_unit=names, max_rows_per_unit=6)
        row_level = dpcov.release_rows(mechanism, rows, 1.0, 1.0, 1e-6, rng, numerics="idealized",
                                       neighbour="add_remove")
    assert (units.receipt.epsilon, units.receipt.delta) == (1.0, 0.0)
    assert units.receipt.bound == 1.0
    assert units.receipt.max_rows_per_unit == 6
    assert units.receipt.n == 12
    assert units.receipt.scale == pytest.approx(12 * row_level.receipt.scale, rel=1e-9)
    assert units.matrix.shape == (3, 3)


def test_audit_units_passes_the_release_and_flags_rows_only_bounding():
    # One unit of 60 rows (tests/privacy/units_release_audit_test.cpp says why so many); alpha
    # 1e-6 per audit at a fixed seed.
    settings = dict(trials=2000, first_checkpoint=250, seed=5)
    released = dpcov.audit_units("jl_ridge", 3, 60, 1.0, 0.9, 1e-6,
                                 mechanism_options={"projection_rows": 20}, **settings)
    broken = dpcov.audit_units("jl_ridge", 3, 60, 1.0, 0.9, 1e-6, broken=True,
                               mechanism_options={"projection_rows": 20}, **settings)
    assert not released.violation
    assert broken.violation
    with pytest.raises(dpcov.DpcovError) as refused:
        dpcov.audit_units("ols_jl", 3, 2, 1.0, 0.9, 1e-6, mechanism_options={"projection_rows": 20})
    assert {m.name: m for m in dpcov.mechanisms()}["ols_jl"].unit_refusal in str(refused.value)
    # iev has no density: black-box, the release not flagged and the rows-only variant flagged.
    assert not dpcov.audit_units("iev", 3, 60, 1.0, 0.9, 0.0, trials=1000, seed=5).violation
    assert dpcov.audit_units("iev", 3, 60, 1.0, 0.9, 0.0, broken=True, trials=1000,
                             seed=5).violation


def test_audit_rows_units_passes_the_unit_release_and_flags_the_undivided_rho():
    # Units of exactly k = 3 rows released at rho / 9; the rows-only variant at rho spends 9 rho
    # on the pair. alpha 1e-6 per audit at a fixed seed (tests/privacy/rows_units_audit_test.cpp).
    for mechanism in ("dly_gauss", "coinpress_mean"):
        ok = dpcov.audit_rows_units(mechanism, 3, rho=0.5, trials=1000, seed=5)
        assert not ok.violation and ok.rho == 0.5 and ok.n % 3 == 0
        broken = dpcov.audit_rows_units(mechanism, 3, rho=0.5, broken=True, trials=1000, seed=5)
        assert broken.violation
    with pytest.raises(dpcov.DpcovError):
        dpcov.audit_rows_units("dly_gauss", 0, rho=0.5)


@pytest.mark.parametrize("column", [(i // 2 for i in range(4)), iter(range(4)), "abcd",
                                    [0, 0, 1]])
def test_a_unit_column_that_is_not_one_value_per_row_is_refused_in_words(column):
    X = np.random.default_rng(0).uniform(-0.1, 0.1, (4, 2))
    fits = (lambda: dpcov.PrivateCovariance(bound=1.0, max_rows_per_unit=2)
            .fit(X, privacy_unit=column),
            lambda: dpcov.PrivateLinearRegression(bound=1.0, label_bound=1.0, max_rows_per_unit=2)
            .fit(X, X[:, 0], privacy_unit=column))
    for fit in fits:
        with pytest.raises((TypeError, ValueError), match="privacy_unit (must hold one value per "
                                                          "row|has 3 values for 4 rows)"):
            fit()
