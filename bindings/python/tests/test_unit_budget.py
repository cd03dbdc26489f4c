"""The row-level budget of privacy units by group privacy (dpcov.unit_row_budget, unit_row_rho;
proofs/unit_group_privacy.md): the proof's worked examples, and bad arguments raised."""
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

