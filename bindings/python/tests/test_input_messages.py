"""Refused inputs are described, never quoted: no error message of any entry point that reads
rows (or a chained exception behind it) contains a value of the rows. NumPy's and
scikit-learn's own messages do quote them ("array=[...]", "could not convert string to float:
'...'"), and an error message ends up in logs and tracebacks that are shared.

Each case is an input the library must refuse, built from sentinel values (numbers with seven
random decimals, strings with a random tag) by a seeded generator; the test looks for every
sentinel's digits or tag in the whole exception chain."""

import warnings

import numpy as np
import pytest

import dpcov
import dpcov.column_bounds
import dpcov.gram
from dpcov.learn import PrivateCovariance, PrivateLinearRegression, PrivatePCA

CASES_PER_SEED = 4
SEEDS = range(6)


def sentinels(gen, count):
    """Numbers in (0.1, 0.9) with seven decimals, and the text any printing of them contains."""
    values = np.round(gen.uniform(0.1, 0.9, count), 7)
    return values, [f"{v:.7f}"[2:7] for v in values]


def bad_rows(gen):
    """(name, rows, the text that must not appear): inputs with no readable 2-D array of reals."""
    values, marks = sentinels(gen, 6)
    tag = f"zq{gen.integers(10**6, 10**7)}"
    grid = values.reshape(3, 2)
    mixed = grid.astype(object)
    mixed[1, 1] = tag
    return [
        ("1-D", values.copy(), marks),
        ("3-D", values.reshape(3, 2, 1), marks),
        ("strings", np.array([[str(v) for v in row] for row in grid] + [[tag, "1"]]),
         marks + [tag]),
        ("object cell", mixed, marks + [tag]),
        ("ragged list", [list(grid[0]), list(grid[1][:1]), list(grid[2])], marks),
        ("complex", grid + 1j * grid, marks),
    ]


def bad_labels(gen):
    """(name, y, the text that must not appear) for 3 readable rows."""
    values, marks = sentinels(gen, 6)
    tag = f"zq{gen.integers(10**6, 10**7)}"
    return [
        ("strings", np.array([tag, str(values[0]), str(values[1])]), marks[:2] + [tag]),
        ("too long", values[:4].copy(), marks[:4]),
        ("2-D", values.reshape(3, 2), marks),
        ("ragged", [values[0], [values[1], values[2]], values[3]], marks[:4]),
        ("object cell", np.array([values[0], tag, values[1]], dtype=object), marks[:2] + [tag]),
    ]


def chain(error):
    """The exception and every one chained behind it."""
    seen = []
    while error is not None and error not in seen:
        seen.append(error)
        error = error.__cause__ or error.__context__
    return seen


def assert_refused_without_values(call, marks, what):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises((ValueError, TypeError)) as caught:
            call()
    for error in chain(caught.value):
        text = str(error)
        for mark in marks:
            assert mark not in text, f"{what}: the message quotes a value ({mark}): {text}"


def fitted(estimator, x, y=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return estimator.fit(x, y) if y is not None else estimator.fit(x)


def row_entry_points():
    """(name, call on rows) for every entry point that reads rows."""
    gen = np.random.default_rng(0)
    x = gen.uniform(-0.5, 0.5, (40, 2))
    y = gen.uniform(-0.5, 0.5, 40)
    pca = fitted(PrivatePCA(epsilon=1, bound=1, random_state=None), x)
    regression = fitted(PrivateLinearRegression(epsilon=1, bound=1, label_bound=1), x, y)
    rng = dpcov.Rng(seed=1)
    return [
        ("PrivateCovariance.fit", lambda a: PrivateCovariance(epsilon=1, bound=1).fit(a)),
        ("PrivatePCA.fit", lambda a: PrivatePCA(epsilon=1, bound=1).fit(a)),
        ("PrivatePCA.transform", pca.transform),
        ("PrivatePCA.inverse_transform", pca.inverse_transform),
        ("PrivateLinearRegression.fit",
         lambda a: PrivateLinearRegression(epsilon=1, bound=1, label_bound=1).fit(
             a, np.zeros(len(a)))),
        ("PrivateLinearRegression.predict", regression.predict),
        ("release_rows", lambda a: dpcov.release_rows("analyze_gauss", a, 1.0, 1.0, 1e-6, rng)),
        ("bound_rows", lambda a: dpcov.gram.bound_rows(a, 1.0)),
        ("scale_rows", lambda a: dpcov.column_bounds.scale_rows(a, -1.0, 1.0)),
    ]


@pytest.mark.parametrize("seed", SEEDS)
def test_no_entry_point_quotes_a_refused_row(seed):
    gen = np.random.default_rng(seed)
    for name, call in row_entry_points():
        for case, rows, marks in bad_rows(gen):
            assert_refused_without_values(lambda: call(rows), marks, f"{name}, {case}")


@pytest.mark.parametrize("seed", SEEDS)
def test_no_regression_quotes_a_refused_label(seed):
    gen = np.random.default_rng(100 + seed)
    x = np.full((3, 2), 0.25)
    for case, y, marks in bad_labels(gen):
        model = PrivateLinearRegression(epsilon=1, bound=1, label_bound=1)
        assert_refused_without_values(lambda: model.fit(x, y), marks, f"y, {case}")


def test_the_descriptions_name_the_fix():
    model = PrivateLinearRegression(epsilon=1, bound=1, label_bound=1)
    with pytest.raises(ValueError, match=r"must be 2-D .* X.reshape\(-1, 1\) if it has a single column"):
        model.fit(np.arange(3.0), np.zeros(3))
    with pytest.raises(ValueError, match="holds values that are not numbers"):
        model.fit(np.array([["a", "1"], ["2", "3"]]), np.zeros(2))
    with pytest.raises(ValueError, match="y holds values that are not numbers"):
        model.fit(np.ones((2, 1)), np.array(["a", "b"]))
    with pytest.raises(ValueError, match=r"one value per row of X: X has shape \(3, 1\)"):
        model.fit(np.ones((3, 1)), np.ones(4))
    with pytest.raises(ValueError, match="requires y to be passed"):
        model.fit(np.ones((3, 1)), None)


def test_bounds_of_the_wrong_length_are_named_before_any_release():
    x, y = np.zeros((10, 3)), np.zeros(10)
    with dpcov.BudgetAccountant(epsilon=10, delta=1e-3) as accountant:
        with pytest.raises(dpcov.DimensionError, match=r"bounds\[0\] \(lower\) has shape \(2,\)"
                           r".*one per column \(4: the columns of X, then y\)"):
            PrivateLinearRegression(epsilon=1, bounds=([0, 0], [1, 1])).fit(x, y)
        with pytest.raises(dpcov.DimensionError, match=r"bounds\[1\] \(upper\) has shape \(2,\)"):
            PrivateCovariance(epsilon=1, bounds=([0, 0, 0], [1, 1])).fit(x)
        with pytest.raises(ValueError, match="bounds must be .lower, upper.*; got 3"):
            PrivateLinearRegression(epsilon=1, bounds=3).fit(x, y)
        assert accountant.spent.epsilon == 0


@pytest.mark.parametrize("n_components", [1.5, 0.95, 0, 4, True, "2"])
def test_n_components_is_a_whole_number_of_components_checked_before_the_release(n_components):
    x = np.random.default_rng(2).uniform(-0.5, 0.5, (50, 3))
    with dpcov.BudgetAccountant(epsilon=10, delta=1e-3) as accountant:
        with pytest.raises(ValueError, match=r"n_components must be a whole number in \[1, 3\]"):
            PrivatePCA(n_components=n_components, epsilon=1, bound=1).fit(x)
        assert accountant.spent.epsilon == 0
    assert fitted(PrivatePCA(n_components=np.int64(2), epsilon=1, bound=1, random_state=3),
                  x).n_components_ == 2


@pytest.mark.parametrize("estimator, name, value", [
    (PrivateLinearRegression, "fit_intercept", "no"),
    (PrivateLinearRegression, "intervals", "yes"),
    (PrivateLinearRegression, "intervals", 1),
    (PrivatePCA, "center", "no"),
    (PrivateCovariance, "assume_centered", "False"),
    (PrivateCovariance, "psd", 1),
])
def test_a_switch_that_is_not_a_bool_is_refused_before_the_release(estimator, name, value):
    # 'no' is truthy: read as given it asked for the opposite of what it says.
    x, y = np.random.default_rng(3).uniform(-0.5, 0.5, (50, 2)), np.zeros(50)
    bounds = {"bound": 1.0} if estimator is not PrivateLinearRegression else \
        {"bound": 1.0, "label_bound": 1.0}
    with dpcov.BudgetAccountant(epsilon=10, delta=1e-3) as accountant:
        with pytest.raises(ValueError, match=f"{name} must be True"):
            model = estimator(epsilon=1, **bounds, **{name: value})
            model.fit(x, y) if estimator is PrivateLinearRegression else model.fit(x)
        assert accountant.spent.epsilon == 0


def test_a_bound_that_is_not_a_number_is_named_with_its_choices():
    x = np.zeros((10, 2))
    with pytest.raises(ValueError, match="bound must be a number > 0 or 'auto', got 'autoo'"):
        PrivatePCA(epsilon=1, bound="autoo").fit(x)
    with pytest.raises(ValueError, match="label_bound must be a number > 0, got 'one'"):
        PrivateLinearRegression(epsilon=1, bound=1, label_bound="one").fit(x, np.zeros(10))
