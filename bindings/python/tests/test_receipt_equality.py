"""Neighbouring datasets (replace-one: row 0 of norm 0.5 replaced by one of norm 2, over the
bound 1) whose releases are forced equal by one seed give byte-identical public receipts and
equal n_samples_, for every estimator and every policy: under ``policy="clip"`` both release;
under ``"reject"`` the neighbour is refused naming its row 0; under ``"drop"`` both are refused,
with one message, whatever the rows (dropping would make the public n depend on the data: 3000
rows for one dataset, 2999 for its neighbour). The Gram estimators release with exact numerics
by default (their receipts say so), and with idealized numerics on request: both paths are
covered. Deterministic: fixed seeds, no statistical test."""

import warnings

import numpy as np
import pytest

import dpcov
from dpcov.learn import ClippingWarning, SeededNoiseWarning

ROWS, DIM = 3000, 3


def neighbours():
    gen = np.random.default_rng(35)
    x = gen.normal(size=(ROWS, DIM))
    x *= (0.5 / np.linalg.norm(x, axis=1))[:, None]
    y = np.clip(x @ np.array([0.5, -0.25, 0.75]) + 0.1 * gen.normal(size=ROWS), -1, 1)
    other = x.copy()
    other[0] *= 4.0
    return (x, y), (other, y)


# AdaSSP's receipt also holds its released values (lambda_min~, y'y~ and what follows from
# them), which differ between datasets as any release does; every other field must not.
ADASSP_RELEASED = {"released_lambda_min", "released_label_square", "ridge", "eigenvalues_floored"}


def public_receipt(receipt):
    if isinstance(receipt, dpcov.Receipt):
        return bytes(memoryview(receipt.public().to_struct()))
    return {k: v for k, v in receipt.to_dict().items() if k not in ADASSP_RELEASED}


ESTIMATORS = {
    "covariance": lambda policy: dpcov.PrivateCovariance(bound=1.0, policy=policy,
                                                         random_state=7),
    "covariance_uncentred": lambda policy: dpcov.PrivateCovariance(
        bound=1.0, policy=policy, assume_centered=True, random_state=7),
    "covariance_bounds": lambda policy: dpcov.PrivateCovariance(bounds=(-1.0, 1.0),
                                                                policy=policy, random_state=7),
    "pca": lambda policy: dpcov.PrivatePCA(n_components=2, bound=1.0, policy=policy,
                                           random_state=7),
    "regression_adassp": lambda policy: dpcov.PrivateLinearRegression(
        bound=1.0, label_bound=1.0, policy=policy, bound_epsilon=0.0, n_bootstrap=50,
        random_state=7),
    "regression_gauss": lambda policy: dpcov.PrivateLinearRegression(
        bound=1.0, label_bound=1.0, policy=policy, mechanism="analyze_gauss", n_bootstrap=50,
        random_state=7),
    "covariance_laplace": lambda policy: dpcov.PrivateCovariance(
        bound=1.0, policy=policy, mechanism="laplace_sym", epsilon=4.0, random_state=7),
    "regression_laplace": lambda policy: dpcov.PrivateLinearRegression(
        bound=1.0, label_bound=1.0, policy=policy, mechanism="laplace_sym", epsilon=4.0,
        n_bootstrap=50, random_state=7),
    "covariance_idealized": lambda policy: dpcov.PrivateCovariance(
        bound=1.0, policy=policy, numerics="idealized", random_state=7),
    "covariance_bounds_idealized": lambda policy: dpcov.PrivateCovariance(
        bounds=(-1.0, 1.0), policy=policy, numerics="idealized", random_state=7),
    "regression_gauss_idealized": lambda policy: dpcov.PrivateLinearRegression(
        bound=1.0, label_bound=1.0, policy=policy, mechanism="analyze_gauss", n_bootstrap=50,
        numerics="idealized", random_state=7),
}
# The receipt's numerics of each estimator's release: 1 exact (the default of the Gram
# estimators), 0 idealized (on request, and AdaSSP, which has no exact form).
NUMERICS = {name: 0 if "idealized" in name or "adassp" in name else 1 for name in ESTIMATORS}


def outcome(make, policy, data):
    x, y = data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SeededNoiseWarning)
        warnings.simplefilter("ignore", ClippingWarning)
        warnings.simplefilter("ignore", UserWarning)
        try:
            est = make(policy).fit(x, y)
        except (ValueError, dpcov.DpcovError) as e:
            return ("refused", type(e).__name__, str(e))
    return ("released", public_receipt(est.receipt_), est.n_samples_, est.receipt_.numerics)


@pytest.mark.parametrize("policy", ["clip", "reject", "drop"])
@pytest.mark.parametrize("name", sorted(ESTIMATORS))
def test_neighbours_give_equal_public_receipts_or_refusals(name, policy):
    data, neighbour = neighbours()
    first = outcome(ESTIMATORS[name], policy, data)
    second = outcome(ESTIMATORS[name], policy, neighbour)
    bounded_by_columns = name.startswith("covariance_bounds")  # clamps values: no policy applies
    if policy == "reject" and not bounded_by_columns:
        assert first[0] == "released"
        assert second[0] == "refused" and "row 0 " in second[2], second
        return
    if policy == "drop" and not bounded_by_columns:
        assert first[0] == "refused" and "drop" in first[2], first
    assert first == second
    if first[0] == "released":
        assert first[2] == ROWS
        assert first[3] == NUMERICS[name]
