"""The covariance and PCA surfaces refuse what they cannot honour before anything is spent, and
say what they did: a number where a generator belongs, missing unit ids, a private bound under
the reject policy, k without units, bools and strings for privacy parameters, unknown choices;
PrivatePCA's "auto" as PrivateCovariance's, its chosen bound kept, its warnings at the caller's
line; a fit by unit that clips says so."""

import warnings

import numpy as np
import pytest

import dpcov
from dpcov.learn import ClippingWarning

X = np.random.default_rng(0).standard_t(3, size=(4000, 3))
UNITS = np.arange(len(X)) // 2


@pytest.mark.parametrize("rng", [3, 2.5, np.int64(4)])
def test_a_number_where_a_generator_belongs_is_a_type_error_not_a_crash(rng):
    with pytest.raises(TypeError, match="must be a dpcov handle"):
        dpcov.release_rows("analyze_gauss", X, 3.0, 1.0, 1e-6, rng)


@pytest.mark.parametrize("missing", [np.nan, None])
def test_a_missing_unit_id_is_refused(missing):
    ids = UNITS.astype(object)
    ids[7] = missing
    with pytest.raises(ValueError, match="privacy_unit is missing .* at row 7"):
        dpcov.PrivateCovariance(bound=3, max_rows_per_unit=2, random_state=1).fit(
            X, privacy_unit=ids)


@pytest.mark.parametrize("make", [
    lambda: dpcov.PrivateCovariance(bound="auto", policy="reject", epsilon=1.0),
    lambda: dpcov.PrivatePCA(1, bound="auto", policy="reject", epsilon=1.0)])
def test_a_private_bound_under_reject_is_refused_before_anything_is_spent(make):
    with dpcov.BudgetAccountant(2.0, 1e-5) as accountant, \
            pytest.raises(ValueError, match="policy='reject'"):
        make().fit(X)
    assert accountant.spent.charges == 0


@pytest.mark.parametrize("settings,message", [
    ({"epsilon": True}, "epsilon must be a number"),
    ({"epsilon": "1"}, "epsilon must be a number"),
    ({"bound": True}, "bound must be a number"),
    ({"max_rows_per_unit": 2.9}, "whole number"),
    ({"max_rows_per_unit": True}, "whole number"),
    ({"mechanism_options": {"neighbour": "bogus"}}, "'replace_one', 'add_remove'"),
    ({"policy": "bogus"}, "policy")])
def test_bad_settings_are_refused_with_their_name(settings, message):
    options = {"bound": 3, "random_state": 1, **settings}
    with pytest.raises(ValueError, match=message):
        dpcov.PrivateCovariance(**options).fit(X, privacy_unit=UNITS if "max_rows_per_unit"
                                               in settings else None)


def test_k_without_units_is_refused_not_fitted_at_row_level():
    with pytest.raises(ValueError, match="privacy_unit"):
        dpcov.PrivateCovariance(bound=3, max_rows_per_unit=2).fit(X)


def test_an_unknown_policy_of_the_functional_api_lists_the_choices():
    with pytest.raises(ValueError, match="'clip', 'reject', 'drop'"):
        dpcov.release_rows("analyze_gauss", X, 3.0, 1.0, 1e-6, dpcov.Rng(1), policy="bogus")


def test_pca_reads_auto_as_covariance_does_and_keeps_the_chosen_bound():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fits = [dpcov.PrivatePCA(2, bound=b, epsilon=4, random_state=0).fit(X)
                for b in ("auto", " Auto ")]
    assert fits[0].receipt_.bound == fits[1].receipt_.bound
    for pca in fits:
        assert pca.bound_ > 0 and pca.n_clipped_ >= 0


def test_pca_warnings_point_at_the_callers_line():
    pca = dpcov.PrivatePCA(2, bound=1.0, epsilon=4, random_state=0)  # seeded, and it clips
    for call in (pca.fit, pca.fit_transform):
        with warnings.catch_warnings(record=True) as raised:
            warnings.simplefilter("always")
            call(X)
        assert raised and all(w.filename == __file__ for w in raised), \
            [(w.filename, str(w.message)[:40]) for w in raised]


def test_a_fit_by_unit_that_clips_says_so():
    with pytest.warns(ClippingWarning, match="over the bound 1"):
        dpcov.PrivateCovariance(bound=1.0, max_rows_per_unit=2, random_state=dpcov.Rng()).fit(
            X, privacy_unit=UNITS)


def _distance(x, components, k):
    centred = x - x.mean(0)
    _, vectors = np.linalg.eigh(centred.T @ centred / len(x))
    u = vectors[:, -k:]
    return np.linalg.svd(components.T - u @ (u.T @ components.T), compute_uv=False).max()


def test_the_exact_numerics_bound_covers_the_grid_s_rounding_where_the_noise_is_negligible():
    # proofs/grid_rounding.md: at epsilon = 1e8 the noise-only bound was 3.1e-5 against an
    # actual distance of 3.5e-5; the rows' rounding to the grid is now in the bound.
    rng = np.random.default_rng(1)
    x = rng.standard_normal((10_000, 5)) @ np.diag([3, 2, 1, 0.5, 0.3]) / 6
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pca = dpcov.PrivatePCA(2, epsilon=1e8, bound=4.0, random_state=3).fit(x)
    assert pca.receipt_.numerics == 1
    assert _distance(x, pca.components_, 2) <= pca.subspace_error_.sin_theta_bound


def test_pca_s_variances_covariance_and_feature_names_are_scikit_learn_s():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pca = dpcov.PrivatePCA(3, epsilon=0.05, bound=3.0, random_state=2).fit(X[:300])
    assert np.all(pca.explained_variance_ >= 0)
    assert np.linalg.eigvalsh(pca.covariance_).min() >= -1e-12
    assert list(pca.get_feature_names_out()) == ["privatepca0", "privatepca1", "privatepca2"]
    with pytest.raises(ValueError, match="2 columns, but this PrivatePCA has 3"):
        pca.inverse_transform(np.zeros((4, 2)))


@pytest.mark.parametrize("call, error, match", [
    (lambda: dpcov.centre_second_moment(np.diag([16.0, 4, 4]), 0, 1.0, 2.7), ValueError,
     "n must be an integer"),
    (lambda: dpcov.centre_second_moment(np.diag([16.0, 4, 4]), True, 1.0, 0), TypeError,
     "constant_column must be an integer"),
    (lambda: dpcov.psd_project(-np.eye(2), inplace="no"), TypeError, "inplace must be True"),
    (lambda: dpcov.glasso_solve(np.eye(2), 0.1, max_iter=10.5), ValueError,
     "max_iter must be an integer"),
    (lambda: dpcov.PrivateCovariance(epsilon=None, bound=1).fit(X), ValueError,
     "epsilon must be a number"),
])
def test_a_setting_that_would_be_truncated_or_read_by_its_truth_is_refused(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_psd_project_leaves_its_input_unless_asked_in_place():
    a = -np.eye(2)
    dpcov.psd_project(a, inplace=False)
    assert a[0, 0] == -1.0
