"""Every receipt family starts with the common prefix (dpcov_receipt_prefix): the Gram and AdaSSP
views and the zCDP receipt dicts list the same keys first, in the same order, and the ledger
charges a zCDP statement from the prefix of any family."""

import dpcov


def test_every_family_lists_the_prefix_first():
    receipts = {
        "gram": dpcov.plan("analyze_gauss", 3, 100, 1.0, 1.0, 1e-6),
        "adassp": dpcov.adassp_plan(2, 1.0, 1.0, 1.0, 1e-6),
        "dly": dpcov.dly_plan(100, 3, radius=1.0),
        "coinpress": dpcov.coinpress_plan(1000, 3, k_bound=4.0),
        "coinpress_mean": dpcov.coinpress_mean_plan(1000, 3, radius=2.0),
    }
    prefix = list(dpcov.RECEIPT_PREFIX_FIELDS)
    assert prefix[:3] == ["mechanism", "privacy_model", "neighbour"] and prefix[-1] == "theorem"
    for family, receipt in receipts.items():
        assert list(receipt.keys())[:len(prefix)] == prefix, family
        assert receipt["theorem"], family
        assert receipt["generator"] == 0, family  # a plan draws nothing


def test_the_prefix_names_each_familys_mechanism_and_zcdp_rho():
    adassp = dpcov.adassp_plan(2, 1.5, 1.0, 1.0, 1e-6)
    assert adassp.mechanism_name == "adassp"
    assert adassp.bound == 1.5 and adassp.rho > 0 and adassp.failure_probability == 0.05
    dly = dpcov.dly_plan(100, 3, radius=0.5)
    assert dpcov.mechanism_name(dly["mechanism"]) == "dly"
    assert dly["bound"] == 0.5 and dly["rho"] == 0.1
    gram = dpcov.plan("analyze_gauss", 3, 100, 1.0, 1.0, 1e-6)
    assert gram.rho == 0.0 and gram.privacy_model == 2  # (epsilon, delta)
