"""dpcov.mechanisms(): the library's registry, every entry, read without a trial plan."""

import dataclasses

import pytest

import dpcov


def test_mechanisms_lists_every_id_once_in_order_with_the_librarys_names():
    listed = dpcov.mechanisms()
    ids = [m.id for m in listed]
    assert ids == sorted(set(ids))
    for m in listed:
        assert m.name == dpcov.mechanism_name(m.id)
        assert m.proof in m.theorem and m.proof.startswith("proofs/")
        assert dpcov.mechanism_info(m.id) == m
    assert ids == [int(m) for m in dpcov.Mechanism]
    gram = {m.name for m in listed if m.family == "gram"}
    assert {"analyze_gauss", "laplace_sym", "iev"} <= gram and "dly" not in gram


def test_entries_state_privacy_model_neighbours_and_numerics():
    by_name = {m.name: m for m in dpcov.mechanisms()}
    assert by_name["analyze_gauss"].privacy_model == "approximate"
    assert by_name["analyze_gauss"].numerics == ("idealized", "exact")
    assert by_name["laplace_sym"].privacy_model == "pure"
    assert by_name["wishart_jiang"].privacy_model == "not_private"
    assert by_name["coinpress"].privacy_model == "zcdp"
    assert by_name["coinpress"].neighbours == ("replace_one",)
    assert by_name["coinpress_mean"].output == "vector"
    assert by_name["adassp"].output == "regression"
    assert by_name["private_bound"].output == "scalar"
    assert dataclasses.asdict(by_name["dly"])["family"] == "rows_zcdp"


def test_entries_state_the_options_they_read_their_audit_pair_and_usage():
    by_name = {m.name: m for m in dpcov.mechanisms()}
    assert by_name["jl_ridge"].options == ("projection_rows",)
    assert by_name["iev"].options == ("spectral", "calibration")
    assert by_name["analyze_gauss"].options == ("calibration",) and by_name["dly"].options == ()
    assert by_name["ols_jl"].inference == ("projection_t",)
    assert by_name["analyze_gauss"].inference == ("guaranteed_gauss", "robust_gram")
    assert by_name["wishart_additive"].inference == ("robust_gram",)
    assert by_name["jl_ridge"].inference == ()
    assert (by_name["analyze_gauss"].audit_dataset, by_name["analyze_gauss"].audit_neighbour_kind) \
        == (0, 1)  # random rows, the largest L2 change
    assert by_name["iev"].audit_dataset == -1 and by_name["coinpress"].audit_dataset == -1
    for m in by_name.values():
        assert m.summary and m.preconditions and "\n" not in m.summary + m.preconditions


def test_a_plan_carries_the_registrys_theorem():
    receipt = dpcov.plan("analyze_gauss", dim=3, n=100, bound=1.0, epsilon=1.0, delta=1e-6)
    assert receipt.theorem == dpcov.mechanism_info(dpcov.Mechanism.ANALYZE_GAUSS).theorem


def test_an_unknown_id_is_refused():
    # One past the last id, read from the library: no number here moves when the registry grows.
    with pytest.raises(dpcov.InvalidArgumentError):
        dpcov.mechanism_info(dpcov.mechanisms()[-1].id + 1)
