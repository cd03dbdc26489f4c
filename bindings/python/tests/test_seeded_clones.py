"""An estimator with a fixed seed (an int ``random_state``, or a seeded :class:`dpcov.Rng`) is
reproducible and not private: scikit-learn's ``clone``, ``copy`` and ``pickle`` copy the seed, so
clones fitted on neighbouring datasets draw the same noise and the difference of their releases is
the exact difference of the Gram matrices. Every fit with such a seed says so in one
:class:`dpcov.SeededNoiseWarning` (one line), and the docstrings say so on the line that names the
int seed; a fit from OS entropy (``random_state=None``, ``dpcov.Rng()``) does not warn and its
clones do not cancel their noise (test_rng_copies.py)."""

import copy
import pickle
import warnings

import numpy as np
import pytest
from sklearn.base import clone

import dpcov
from dpcov.learn import PrivateCovariance, PrivateLinearRegression, PrivatePCA

COPIES = {
    "clone": clone,
    "deepcopy": copy.deepcopy,
    "pickle": lambda est: pickle.loads(pickle.dumps(est)),
}


def seed_warnings(fit):
    """The SeededNoiseWarnings that ``fit()`` raised."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fit()
    return [w for w in caught
            if issubclass(w.category, dpcov.SeededNoiseWarning)]


def neighbours(gen):
    X = gen.uniform(-0.5, 0.5, (int(gen.integers(5, 60)), int(gen.integers(1, 4))))
    neighbour = X.copy()
    neighbour[0] = gen.uniform(-0.5, 0.5, X.shape[1])
    return X, neighbour


@pytest.mark.parametrize("name", list(COPIES))
def test_clones_of_a_seeded_estimator_give_away_the_gram_difference(name):
    # The behaviour the warning is about, so that the warning stays true.
    gen = np.random.default_rng(20261124)
    for seed in (7, dpcov.Rng(7)):
        X, neighbour = neighbours(gen)
        est = PrivateCovariance(epsilon=1.0, bound=1.0, assume_centered=True, random_state=seed)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            a = COPIES[name](est).fit(X).second_moment_
            b = COPIES[name](est).fit(neighbour).second_moment_
        # With exact numerics (the default) the difference is that of the Gram matrices of the
        # rows as rounded to the release's grid, which the library's accumulator computes.
        exact = rounded_gram(X) - rounded_gram(neighbour)
        assert np.max(np.abs((a - b) - exact)) < 1e-9, (name, seed)


def rounded_gram(rows):
    gram = dpcov.GramAccumulator.bounded(rows.shape[1], mechanism="analyze_gauss", epsilon=1.0)
    return gram.add_raw_rows(rows).matrix()


@pytest.mark.parametrize("seed", [0, 7, np.int64(3), 2 ** 63 + 1, dpcov.Rng(5), dpcov.Rng(5, 2)])
def test_every_fit_with_a_fixed_seed_warns_on_one_line(seed):
    gen = np.random.default_rng(11)
    X = gen.uniform(-0.5, 0.5, (40, 3))
    y = X @ np.array([0.3, -0.2, 0.1])
    units = np.arange(40) // 2
    box = ([-0.5] * 3, [0.5] * 3)
    # Every way a fit reaches its release: a bound, a chosen bound, public per-column bounds,
    # privacy units.
    fits = [
        lambda: PrivateCovariance(bound=1.0, random_state=seed).fit(X),
        lambda: PrivateCovariance(bound="auto", random_state=seed).fit(X),
        lambda: PrivateCovariance(bounds=box, random_state=seed).fit(X),
        lambda: PrivateCovariance(bound=1.0, max_rows_per_unit=2,
                                  random_state=seed).fit(X, privacy_unit=units),
        lambda: PrivatePCA(n_components=2, bound=1.0, random_state=seed).fit(X),
        lambda: PrivatePCA(n_components=2, bounds=box, random_state=seed).fit(X),
        lambda: PrivateLinearRegression(bound=1.0, label_bound=1.0, epsilon=4.0,
                                        random_state=seed).fit(X, y),
        lambda: PrivateLinearRegression(bounds=([-0.5] * 3 + [-1], [0.5] * 3 + [1]), epsilon=4,
                                        random_state=seed).fit(X, y),
    ]
    for k, fit in enumerate(fits):
        caught = seed_warnings(fit)
        assert len(caught) == 1, (k, [str(w.message) for w in caught])
        message = str(caught[0].message)
        assert "\n" not in message
        for claim in ("reproducible", "not private", "clone", "same noise", "random_state=None"):
            assert claim in message, (claim, message)


def test_a_fit_from_os_entropy_does_not_warn():
    X = np.random.default_rng(12).uniform(-0.5, 0.5, (40, 3))
    for state in (None, dpcov.Rng()):
        assert seed_warnings(lambda: PrivateCovariance(bound=1.0, random_state=state).fit(X)) == []


def test_the_docstrings_say_it_on_the_line_of_the_int_seed():
    import dpcov.learn as learn
    assert any("an int seed" in l for l in learn.__doc__.splitlines())
    for doc in (learn.__doc__, PrivateCovariance.__doc__, PrivatePCA.__doc__ or "",
                PrivateLinearRegression.__doc__ or ""):
        for line in doc.splitlines():
            if "an int seed" in line:
                assert "not private" in line, line
