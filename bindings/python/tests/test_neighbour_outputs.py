"""Under add/remove neighbours n is private: every public output of every estimator must depend on
the data only through its release. Each path is fitted on D and on D' = D plus one row, with every
mechanism's output forced equal (the second call returns what the first released; everything
else, the noise the generator drew included, runs as usual): the fitted attributes and the
warnings must then be identical. Only CURATOR_ONLY differs (documented as the curator's);
``receipt_.public()`` is compared in full."""

import warnings

import numpy as np
import pytest

import dpcov
import dpcov.learn as learn
from dpcov.gram import GramAccumulator
from dpcov.types import Neighbour, StructView

CURATOR_ONLY = ("receipt_", "n_clipped_", "meat_receipt_")
"""Fitted attributes documented as the curator's (learn.py's module docstring)."""

ADD_REMOVE = {"neighbour": "add_remove"}


@pytest.fixture
def neighbours():
    """D (80 rows in R^3, some over a bound of 2) and D' = D plus one row of norm about 0.09: below
    every bound the paths use (the automatic one lands near 0.65), so that the curator's count of
    clipped rows in the ClippingWarning is the same for both."""
    gen = np.random.default_rng(20261124)
    d = gen.normal(size=(80, 3)) * np.array([1.2, 0.8, 0.5]) + np.array([0.3, -0.2, 0.1])
    return d, np.vstack([d, [[0.05, -0.06, 0.04]]])


@pytest.fixture
def forced(monkeypatch):
    """Make every release return what the first release of its shape returned."""
    first = {}

    def same(key, value):
        return first.setdefault(key, value)

    real_release = GramAccumulator.release

    def release(self, *args, **kwargs):
        matrix, receipt = real_release(self, *args, **kwargs)
        return dpcov.Release(same(("gram", matrix.shape), matrix).copy(), receipt)

    real_choose, real_adassp = learn.choose_bound, learn.adassp_fit
    monkeypatch.setattr(GramAccumulator, "release", release)
    monkeypatch.setattr(learn, "adassp_fit", lambda *a, **k: same("adassp", real_adassp(*a, **k)))
    monkeypatch.setattr(learn, "choose_bound",
                        lambda *a, **k: same("bound", real_choose(*a, **k)))
    return first


def _same(a, b) -> bool:
    """Exact equality of fitted values (NaN equal to NaN)."""
    if isinstance(a, StructView):
        a, b = a.to_dict(), b.to_dict()
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (tuple, list)):
        return type(a) is type(b) and len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, (np.ndarray, float, np.floating)):
        return np.array_equal(a, b, equal_nan=True)
    return a == b


def _public(make, data):
    """(public fitted attributes, warnings) of ``make().fit(*data)``; the published receipt is
    ``receipt_.public()`` (AdaSSP's receipt holds no n: itself)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        est = make().fit(*data)
    attrs = {k: v for k, v in vars(est).items()
             if k.endswith("_") and not k.startswith("_") and k not in CURATOR_ONLY}
    published = est.receipt_.public() if hasattr(est.receipt_, "public") else est.receipt_
    attrs["published receipt"] = published
    if hasattr(est, "meat_receipt_"):  # errors="robust": the meat's release, published likewise
        attrs["published meat receipt"] = est.meat_receipt_.public()
    return attrs, [(w.category, str(w.message)) for w in caught]


def _check_neighbours(make, neighbours):
    """Fit on D and D' with the release forced equal; every public output must be the same."""
    d, d_plus = neighbours
    if not isinstance(d, tuple):
        d, d_plus = (d,), (d_plus,)
    (a, warned_a), (b, warned_b) = _public(make, d), _public(make, d_plus)
    assert a.keys() == b.keys()
    differ = [k for k in a if not _same(a[k], b[k])]
    assert not differ, f"public outputs that depend on n: {differ}"
    assert warned_a == warned_b
    assert getattr(a["published receipt"], "n", dpcov.RECEIPT_N_WITHHELD) == \
        dpcov.RECEIPT_N_WITHHELD
    return a


COVARIANCE_PATHS = {
    "norm bound, centred": dict(bound=2.0),
    "bound auto with bound_clipped": dict(bound="auto", bound_clipped=5),
    "bounds, centred": dict(bounds=(-4.0, 4.0)),
    "bounds, assume_centered": dict(bounds=(-4.0, 4.0), assume_centered=True),
}


@pytest.mark.parametrize("path", sorted(COVARIANCE_PATHS))
def test_private_covariance_uses_no_exact_n_under_add_remove(path, neighbours, forced):
    _check_neighbours(lambda: dpcov.PrivateCovariance(
        epsilon=2.0, random_state=5, mechanism_options=ADD_REMOVE, **COVARIANCE_PATHS[path]),
        neighbours)


@pytest.mark.parametrize("path", ["norm bound, centred", "bounds, centred",
                                  "bounds, assume_centered"])
def test_private_pca_uses_no_exact_n_under_add_remove(path, neighbours, forced):
    options = dict(COVARIANCE_PATHS[path])
    options["center"] = not options.pop("assume_centered", False)
    _check_neighbours(lambda: dpcov.PrivatePCA(
        n_components=2, epsilon=50.0, random_state=5, mechanism_options=ADD_REMOVE, **options),
        neighbours)


def test_add_remove_without_a_released_count_is_refused_before_any_release(neighbours, forced):
    d, _ = neighbours
    with pytest.raises(ValueError, match="add_remove"):
        dpcov.PrivateCovariance(bound=2.0, assume_centered=True,
                                mechanism_options=ADD_REMOVE).fit(d)
    with pytest.raises(ValueError, match="add_remove"):
        dpcov.PrivatePCA(bound=2.0, center=False, mechanism_options=ADD_REMOVE).fit(d)
    assert not forced


def test_replace_one_keeps_the_public_n(neighbours):
    d, _ = neighbours
    est = dpcov.PrivateCovariance(epsilon=2.0, bound=2.0, random_state=5).fit(d)
    assert est.n_samples_ == len(d) and est.receipt_.public().n == len(d)
    noisy = dpcov.PrivateCovariance(epsilon=2.0, bound=2.0, random_state=5,
                                    mechanism_options=ADD_REMOVE).fit(d)
    # The constant column held B = 2, rounded to the grid of exact numerics (constant_).
    assert noisy.n_samples_ == noisy.second_moment_[0, 0] / noisy.constant_ ** 2


@pytest.fixture
def regression_neighbours():
    """(X, y) of 400 rows (some over the bounds) and the same plus one row within them."""
    gen = np.random.default_rng(11)
    x = gen.normal(size=(400, 2)) * 0.6
    y = x @ np.array([0.8, -0.5]) + 0.3 + 0.2 * gen.normal(size=400)
    return (x, y), (np.vstack([x, [[0.2, -0.1]]]), np.append(y, 0.5))


REGRESSION_PATHS = {
    "adassp with intervals": dict(bound_epsilon=0, neighbour="add_remove"),
    "adassp, no intercept, no intervals": dict(bound_epsilon=0, neighbour="add_remove",
                                               fit_intercept=False, intervals=False),
    "analyze_gauss, neighbour passed on": dict(mechanism="analyze_gauss", neighbour="add_remove",
                                               plug_in=True),
    "analyze_gauss, mechanism_options": dict(mechanism="analyze_gauss",
                                             mechanism_options=ADD_REMOVE),
    "laplace_sym": dict(mechanism="laplace_sym", neighbour="add_remove"),
    "wishart_additive": dict(mechanism="wishart_additive", neighbour="add_remove",
                             epsilon=0.9),
}


@pytest.mark.parametrize("path", sorted(REGRESSION_PATHS))
def test_private_linear_regression_uses_no_exact_n_under_add_remove(
        path, regression_neighbours, forced):
    options = dict(epsilon=20.0, bound=2.0, label_bound=3.0, random_state=5, n_bootstrap=199)
    options.update(REGRESSION_PATHS[path])
    make = lambda: dpcov.PrivateLinearRegression(**options)  # noqa: E731
    fitted = _check_neighbours(make, regression_neighbours)
    if options.get("fit_intercept", True):
        assert fitted["n_samples_"] != 400
    else:
        assert fitted["n_samples_"] is None
    if fitted["inference_"].startswith("noise-aware"):
        # Recomputed intervals take the released count too.
        (x, y), (x_plus, y_plus) = regression_neighbours
        again = [make().fit(a, b).noise_aware_intervals(random_state=2)
                 for a, b in ((x, y), (x_plus, y_plus))]
        assert _same(again[0], again[1])


@pytest.mark.parametrize("options", [
    dict(neighbour="add_remove", bound_epsilon=0, fit_intercept=False),
    dict(mechanism="analyze_gauss", neighbour="add_remove", fit_intercept=False),
    dict(mechanism="analyze_gauss", mechanism_options=ADD_REMOVE, fit_intercept=False),
    dict(mechanism="analyze_gauss", neighbour="add_remove",
         mechanism_options={"neighbour": "replace_one"})])
def test_regression_under_add_remove_without_a_count_is_refused_before_any_release(
        options, regression_neighbours, forced):
    (x, y), _ = regression_neighbours
    with pytest.raises(ValueError, match="neighbour"):
        dpcov.PrivateLinearRegression(bound=2.0, label_bound=3.0, **options).fit(x, y)
    assert not forced


@pytest.mark.parametrize("mechanism", ["adassp", "analyze_gauss", "laplace_sym",
                                       "wishart_additive"])
def test_a_released_count_at_most_the_coefficients_is_a_refusal_not_an_exception(mechanism):
    # Six rows at epsilon 0.3: some of these seeds release a count n + noise below the 4
    # coefficients. The fit then returns NaN coefficients or intervals with a warning, as for an
    # indefinite release.
    gen = np.random.default_rng(3)
    x = gen.normal(size=(6, 3)) / 2
    y = x @ [1.0, -1.0, 0.5] + gen.normal(size=6) / 4
    refused = 0
    for seed in range(8):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            fit = dpcov.PrivateLinearRegression(
                mechanism=mechanism, epsilon=0.3, bound=2.0, label_bound=2.0,
                neighbour="add_remove", random_state=seed).fit(x, y)
        if fit.n_samples_ < 4.5:
            refused += 1
            assert np.isnan(fit.conf_int_).all()
            assert any("swamps" in str(w.message) for w in caught)
            if mechanism != "adassp":
                assert np.isnan(fit.coef_).all()
                assert "released count of rows" in fit.inference_
    assert refused > 0


@pytest.mark.parametrize("mechanism", ["adassp", "analyze_gauss", "laplace_sym"])
def test_the_released_count_does_not_depend_on_the_units_of_the_rows(mechanism):
    # Balanced rows: the constant column is on the scale of x whatever the bound, so the count
    # n + noise has the same noise at a bound of 4000 as at 2 (it used to be swamped: sd 1.8e7 at
    # a bound of 1000 times the rows' norms).
    gen = np.random.default_rng(3)
    x = gen.normal(size=(200, 3)) / 2
    y = x @ [1.0, -1.0, 0.5] + gen.normal(size=200) / 4
    for scale in (1.0, 2e3):
        counts = []
        for seed in range(8):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                fit = dpcov.PrivateLinearRegression(
                    mechanism=mechanism, epsilon=1.0, bound=2.0 * scale, label_bound=2.0,
                    neighbour="add_remove", random_state=seed).fit(x * scale, y)
            counts.append(fit.n_samples_)
        assert np.all(np.abs(np.asarray(counts) - 200) < 100), (scale, counts)


@pytest.mark.parametrize("mechanism", ["analyze_gauss", "laplace_sym"])
def test_an_exact_release_whose_grid_rounds_the_constant_to_zero_is_refused_before_it(mechanism):
    # At a row bound above 2^13 the exact grid's unit B 2^-12 (d = 5) exceeds twice the constant
    # 1: the constant column would hold 0, no count and no intercept. Balanced rows, which the
    # regression uses, keep the bound at sqrt(2 + d) whatever the units.
    spec = dict(cols=4, bound=1e4, constant=1.0, label_bound=2.0, mechanism=mechanism,
                epsilon=1.0, delta=1e-6)
    with pytest.raises(dpcov.errors.UnmetPreconditionError, match="rounds to 0 on the grid"):
        dpcov.GramAccumulator.bounded(**spec)
    with dpcov.GramAccumulator.bounded(**spec, balanced=True) as gram:
        assert gram.info().bound == pytest.approx(np.sqrt(5.0))
    x = np.random.default_rng(1).normal(size=(50, 3))
    fit = dpcov.PrivateLinearRegression(mechanism=mechanism, bound=1e4, label_bound=2.0,
                                        random_state=1).fit(x, x[:, 0])
    assert fit.n_samples_ is not None


def test_a_neighbour_spelled_as_on_the_command_line_is_the_same_choice():
    # The command line spells add-remove; every estimator reads either separator.
    x = np.random.default_rng(2).normal(size=(300, 3)) / 3
    fits = [dpcov.PrivateLinearRegression(neighbour=spelling, bound_epsilon=0, random_state=1,
                                          intervals=False).fit(x, x[:, 0])
            for spelling in ("add-remove", "add_remove")]
    assert fits[0].receipt_.neighbour == Neighbour.ADD_REMOVE
    np.testing.assert_array_equal(fits[0].coef_, fits[1].coef_)
    covariance = dpcov.PrivateCovariance(epsilon=1.0, delta=1e-6, bound=1.0, random_state=1,
                                         mechanism_options={"neighbour": "Add-Remove"}).fit(x)
    assert covariance.receipt_.neighbour == Neighbour.ADD_REMOVE
