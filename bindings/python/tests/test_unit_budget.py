"""The row-level budget of privacy units by group privacy (dpcov.unit_row_budget, unit_row_rho;
proofs/unit_group_privacy.md): the proof's worked examples, and bad arguments raised."""
import numpy as np
import pytest

import dpcov


def test_the_steps_and_budgets_of_the_proof():
    eps, delta = dpcov.unit_row_budget("add_remove", "add_remove", 5, 1.0, 1e-6)
    # 1 / 5 rounded down: 5 eps_r <= 1 exactly.
    assert eps == pytest.approx(0.2, rel=1e-15) and 5 * eps <= 1.0
    assert delta == pytest.approx(1.28851248085841e-7, rel=1e-12)
    eps, delta = dpcov.unit_row_budget("replace_one", "add_remove", 5, 1.0, 1e-6)
    assert eps == pytest.approx(0.1, rel=1e-15)
    assert delta == pytest.approx(6.12070245600891e-8, rel=1e-12)
    # A replace-one mechanism's units hold exactly k rows: k replace steps.
    eps, delta = dpcov.unit_row_budget("replace_one", "replace_one", 5, 1.0, 0.0)
    assert eps == pytest.approx(0.2, rel=1e-15) and delta == 0.0
    assert dpcov.unit_row_rho("replace_one", "replace_one", 4, 0.5) == 0.5 / 16


def test_bad_arguments_raise():
    with pytest.raises(ValueError):
        dpcov.unit_row_budget("sideways", "add_remove", 3, 1.0, 1e-6)
    with pytest.raises(dpcov.DpcovError):
        dpcov.unit_row_budget("add_remove", "add_remove", 0, 1.0, 1e-6)
    with pytest.raises(dpcov.DpcovError):
        dpcov.unit_row_rho("add_remove", "replace_one", 3, 1.0)


def people(seed=3):
    """12 people with 1 to 6 rows each, rows inside the unit ball."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 7, size=12)
    names = np.repeat([f"person-{i:02d}" for i in range(12)], sizes)
    return rng.uniform(-0.4, 0.4, size=(len(names), 3)), names, sizes


def test_units_keep_exactly_k_rows_each():
    rows, names, sizes = people()
    with dpcov.Rng(seed=2) as rng:
        kept, units = dpcov.unit_rows.keep_unit_rows(rows, names, 3, rng)
    assert units == 12 and kept.shape == (36, 3)
    # Every kept row is one of its unit's rows or a padding zero row.
    start = 0
    for i, a in enumerate(sizes):
        block = kept[3 * i:3 * i + 3]
        own = rows[start:start + a]
        for r in block:
            assert not r.any() or any(np.array_equal(r, o) for o in own)
        assert sum(1 for r in block if r.any()) == min(a, 3)
        start += a


def test_a_unit_release_runs_at_rho_over_k_squared_and_charges_the_units_rho():
    rows, names, _ = people()
    releases = [(dpcov.dly_release, {"variant": "gauss", "radius": 1.0}),
                (dpcov.coinpress_release, {"k_bound": 4.0}),
                (dpcov.coinpress_mean_release, {"radius": 2.0})]
    for release, settings in releases:
        with dpcov.BudgetAccountant(epsilon=5.0, delta=1e-5, accounting="zcdp") as budget:
            with dpcov.Rng(seed=1) as rng:
                out = dpcov.zcdp_unit_release(release, rows, names, 3, rng, rho=0.2,
                                              delta=1e-6, **settings)
        assert out.receipt["rho"] == 0.2
        assert out.receipt["privacy_unit"]["row_rho"] * 9 <= 0.2
        assert out.receipt["privacy_unit"]["row_rho"] == pytest.approx(0.2 / 9, rel=1e-15)
        assert out.receipt["n"] == 36
        assert budget.spent.charges == 1 and budget.spent.rho == 0.2


def test_units_are_grouped_in_order_of_first_appearance_whatever_their_type():
    rows, names, sizes = people()
    shuffle = np.random.default_rng(8).permutation(len(names))
    with dpcov.Rng(seed=2) as rng:
        kept, units = dpcov.unit_rows.keep_unit_rows(rows[shuffle], names[shuffle], 3, rng)
    assert units == 12
    order = list(dict.fromkeys(names[shuffle]))
    for i, name in enumerate(order):
        own = rows[names == name]
        block = kept[3 * i:3 * i + 3]
        assert all(not r.any() or any(np.array_equal(r, o) for o in own) for r in block)
        assert sum(1 for r in block if r.any()) == min(len(own), 3)
    # Integer ids in the same order of first appearance: the same rows kept.
    codes = np.unique(names[shuffle], return_inverse=True)[1] * 5 + 1
    with dpcov.Rng(seed=2) as rng:
        again, _ = dpcov.unit_rows.keep_unit_rows(rows[shuffle], codes, 3, rng)
    np.testing.assert_array_equal(again, kept)


UNIT_RELEASES = [(dpcov.dly_release, {"variant": "gauss", "radius": 1.0}),
                 (dpcov.coinpress_release, {"k_bound": 4.0}),
                 (dpcov.coinpress_mean_release, {"radius": 2.0})]


def test_the_row_releases_take_privacy_unit_as_zcdp_unit_release_does():
    rows, names, _ = people()
    for release, settings in UNIT_RELEASES:
        with dpcov.BudgetAccountant(epsilon=5.0, delta=1e-5, accounting="zcdp") as budget:
            with dpcov.Rng(seed=1) as rng:
                out = release(rows, rng=rng, rho=0.2, delta=1e-6, privacy_unit=names,
                              max_rows_per_unit=3, **settings)
        assert budget.spent.charges == 1 and budget.spent.rho == 0.2
        with dpcov.Rng(seed=1) as rng:
            same = dpcov.zcdp_unit_release(release, rows, names, 3, rng, rho=0.2, delta=1e-6,
                                           **settings)
        np.testing.assert_array_equal(out[0], same[0])
        assert out.receipt == same.receipt
        assert out.receipt["rho"] == 0.2 and out.receipt["n"] == 36
        assert out.receipt["privacy_unit"]["max_rows_per_unit"] == 3
        # Nothing data-dependent: other rows (and other unit sizes) of 12 units, the same receipt.
        other, other_names, _ = people(seed=9)
        with dpcov.Rng(seed=1) as rng:
            moved = release(other, rng=rng, rho=0.2, delta=1e-6, privacy_unit=other_names,
                            max_rows_per_unit=3, **settings)
        assert moved.receipt == out.receipt


def test_privacy_unit_needs_k_rho_and_delta():
    rows, names, _ = people()
    with dpcov.Rng(seed=1) as rng:
        with pytest.raises(ValueError):
            dpcov.dly_release(rows, rng, variant="gauss", radius=1.0, rho=0.2, delta=1e-6,
                              privacy_unit=names)
        with pytest.raises(ValueError):
            dpcov.coinpress_release(rows, 4.0, rng, delta=1e-6, privacy_unit=names,
                                    max_rows_per_unit=2)
        with pytest.raises(dpcov.DpcovError):
            dpcov.coinpress_mean_release(rows, 2.0, rng, rho=0.2, delta=1e-6,
                                         privacy_unit=names, max_rows_per_unit=0)


def test_units_of_any_hashable_type_group_as_their_codes():
    rows, names, _ = people()
    codes = np.unique(names, return_inverse=True)[1]
    tuples = [("p", int(c)) for c in codes]
    mixed = np.array([int(c) if c % 2 else f"p{c}" for c in codes], dtype=object)
    kept = []
    for ids in (codes, tuples, mixed):
        with dpcov.Rng(seed=4) as rng:
            kept.append(dpcov.unit_rows.keep_unit_rows(rows, ids, 2, rng)[0])
    np.testing.assert_array_equal(kept[0], kept[1])
    np.testing.assert_array_equal(kept[0], kept[2])
