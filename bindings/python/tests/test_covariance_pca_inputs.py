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
