"""Every public release path of the binding charges the active BudgetAccountant, and is refused
before it draws anything when the cap cannot afford it.

The paths are enumerated, not listed by hand: every public function of ``dpcov`` (and of its
public submodules) and every public method of its public classes that takes a generator
(``rng`` or ``random_state``), and every estimator (a class with ``fit``), must appear either in RELEASES, with a
call that runs it, or in NOT_RELEASES, with the reason it spends no privacy. A new release path
that forgets the accountant fails here, and so does one that is added without being classified.

Each release runs twice: under a generous cap it must be charged (and, for AdaSSP, CoinPress and
Dong-Liang-Yi, under zCDP accounting too: its rho); under a cap of 1e-9 it must raise
PreconditionError with the generator's state and the ledger unchanged. The same seed gives the
same result twice (every draw of a seeded path comes from its generator).
"""

import inspect
import warnings

import numpy as np
import pytest

import dpcov
import dpcov.dask
import dpcov.dask_adassp
import dpcov.dask_zcdp_units
import dpcov.private_bound

MODULES = (dpcov, dpcov.dask, dpcov.dask_adassp, dpcov.dask_zcdp_units, dpcov.private_bound)


def _rows():
    gen = np.random.default_rng(12)
    return gen.normal(size=(400, 3)) * 0.2


def _xy():
    x = _rows()
    return x, np.clip(x @ [1.0, -0.5, 0.2] + 0.05 * np.random.default_rng(3).normal(size=400),
                      -1, 1)


def _gram(x, bound=1.0):
    g = dpcov.GramAccumulator(x.shape[1])
    g.add_rows(x, bound)
    return g


def _g_with_label():
    x, y = _xy()
    a = np.column_stack([np.ones(len(y)), x, y])
    return a.T @ a, len(y)


def _dask(rng):
    import dask.array as da
    return dpcov.dask.dask_release(da.from_array(_rows(), chunks=(100, 3)), 1.0, 1.0, 1e-6, rng)


def _dask_adassp(rng, units):
    import dask.array as da
    x, y = _xy()
    lazy = (lambda a: da.from_array(a, chunks=(100,) + a.shape[1:]))
    by_unit = {"privacy_unit": lazy(np.arange(400) // 3), "max_rows_per_unit": 2} if units else {}
    return dpcov.dask_adassp.dask_adassp(lazy(x), lazy(y), 1.0, 1.0, 1.0, 1e-6, rng, **by_unit)


def _dask_zcdp_units(rng):
    # A substream, as for _dask_zcdp: the session closes the generator it takes.
    import dask.array as da
    return dpcov.dask_zcdp_units.dask_zcdp_unit_release(
        da.from_array(_rows(), chunks=(100, 3)), da.from_array(np.arange(400) // 3, chunks=100),
        2, rng.substream(0), "dly_adaptive", 0.5, 1e-6)


def _planned(rng):
    with dpcov.Plan("analyze_gauss", 3, 0, 1.0, 1.0, 1e-6) as plan, \
            plan.accumulator(3, 1.0) as gram:
        return plan.release(gram.add_raw_rows(_rows()), rng)


def _planned_matrix(rng):
    with dpcov.Plan("analyze_gauss", 3, 400, 1.0, 1.0, 1e-6, exact=False) as plan:
        return plan.release_matrix(_rows().T @ _rows(), rng)


def _dask_zcdp(rng):
    # The session takes the generator it is given (closing it), so the path gets a substream:
    # the caller's generator stays open for the checks below, and the substream is drawn from
    # only after the accountant has checked the plan.
    import dask.array as da
    return dpcov.dask.dask_zcdp_release(da.from_array(_rows(), chunks=(100, 3)),
                                        rng.substream(0), "dly_adaptive")


def _sketch(rng):
    with dpcov.Rng(77) as sketch_rng:
        sketch = dpcov.Sketch(3, 40, sketch_rng)
        sketch.add_rows(_rows(), 0, 1.0)
        return sketch.release("jl_ridge", 1.0, 1e-6, rng)


def _ols(fn, epsilon, **extra):
    def run(rng):
        # Many well-spread rows, so that the private test passes and the release is positive
        # definite.
        gen = np.random.default_rng(4)
        x = gen.uniform(-1, 1, size=(20000, 3))
        y = np.clip(x @ [0.5, -0.3, 0.1] + 0.5 * gen.normal(size=len(x)), -1, 1)
        a = np.column_stack([np.ones(len(x)), x, y])
        return fn(a.T @ a, len(x), 2.5, epsilon, 1e-6, rng, 4, [1, 2, 3], intercept_column=0,
                  **extra)
    return run


def _adassp(rng):
    g, _ = _g_with_label()
    return dpcov.adassp_fit(g, 4, [0, 1, 2, 3], 2.0, 1.0, 1.0, 1e-6, rng)


def _fit(estimator, with_y=False):
    def run(rng):
        x, y = _xy()
        model = estimator(rng)
        return model.fit(x, y) if with_y else model.fit(x)
    return run


# name -> (call(rng), also stated in zCDP). Names: "function" or "Class.method"; estimators by
# class name.
RELEASES = {
    "release": (lambda rng: dpcov.release("analyze_gauss", _rows().T @ _rows(), 400, 1.0, 1.0,
                                          1e-6, rng), False),
    "release_gram": (lambda rng: dpcov.release_gram("laplace_sym", _gram(_rows()), 1.0, 0.0, rng),
                     False),
    "GramAccumulator.release": (
        lambda rng: _gram(_rows()).release("analyze_gauss", 1.0, 1e-6, rng), False),
    "exact_release_rows": (lambda rng: dpcov.exact_release_rows("analyze_gauss", _rows(), 1.0,
                                                                1.0, 1e-6, rng), False),
    "ExactGram.release": (lambda rng: dpcov.ExactGram("laplace_sym", 3, 1.0, 1.0, 0.0)
                          .add_rows(_rows()).release(rng), False),
    "release_rows": (lambda rng: dpcov.release_rows("analyze_gauss", _rows(), 1.0, 1.0, 1e-6,
                                                    rng), False),
    "Plan.release": (_planned, False),
    "Plan.release_matrix": (_planned_matrix, False),
    "dask_release": (_dask, False),
    "dask_zcdp_release": (_dask_zcdp, True),
    "dask_adassp": (lambda rng: _dask_adassp(rng, units=False), True),
    "dask_adassp_units": (lambda rng: _dask_adassp(rng, units=True), True),
    "dask_zcdp_unit_release": (_dask_zcdp_units, True),
    "Sketch.release": (_sketch, False),
    "ols_analyze_gauss": (_ols(dpcov.ols_analyze_gauss, 4.0), False),
    "ols_jl": (_ols(dpcov.ols_jl, 1.0, projection_rows=40), False),
    "private_glasso_release": (
        lambda rng: dpcov.private_glasso_release("analyze_gauss", _rows().T @ _rows(), 400, 1.0,
                                                 1.0, 1e-6, 0.1, rng), False),
    "private_glasso_covariance": (
        lambda rng: dpcov.private_glasso_covariance("laplace_sym", _rows().T @ _rows(), 400, 1.0,
                                                    1.0, 0.0, rng), False),
    "adassp_fit": (_adassp, True),
    "adassp_units_fit": (lambda rng: dpcov.adassp_units_fit(
        *_xy(), np.arange(400) // 3, 2, 1.0, 1.0, 1.0, 1e-6, rng), True),
    "coinpress_release": (lambda rng: dpcov.coinpress_release(_rows() * 5, 10.0, rng), True),
    "coinpress_mean_release": (lambda rng: dpcov.coinpress_mean_release(_rows() + 1.0, 10.0, rng),
                               True),
    "coinpress_centred_release": (
        lambda rng: dpcov.coinpress_centred_release(_rows() + 1.0, 10.0, 10.0, rng), True),
    "dly_release": (lambda rng: dpcov.dly_release(_rows(), rng), True),
    "zcdp_unit_release": (lambda rng: dpcov.zcdp_unit_release(
        dpcov.dly_release, _rows(), np.arange(len(_rows())) // 3, 2, rng, 0.5, 1e-6), True),
    "choose_bound": (lambda rng: dpcov.private_bound.choose_bound(_rows(), 0.5, rng), False),
    "choose_bound_from": (lambda rng: dpcov.private_bound.choose_bound_from(
        lambda grid: dpcov.private_bound.row_histogram(_rows(), grid), len(_rows()), 0.5, rng),
        False),
    "tighten_bound": (lambda rng: dpcov.private_bound.tighten_bound(
        np.linalg.norm(_rows(), axis=1), 2.0, 0.5, rng), False),
    "tighten_bound_rows": (lambda rng: dpcov.private_bound.tighten_bound_rows(
        _rows(), 2.0, 0.5, rng), False),
    "select": (lambda rng: dpcov.private_bound.select(
        dpcov.private_bound.histogram(np.linalg.norm(_rows(), axis=1),
                                      dpcov.private_bound.grid()),
        dpcov.private_bound.grid(), 20, 0.5, rng), False),
    "scan": (lambda rng: dpcov.private_bound.scan(
        dpcov.private_bound.histogram(np.linalg.norm(_rows(), axis=1),
                                      dpcov.private_bound.grid()),
        dpcov.private_bound.grid(), 20, 0.5, rng), False),
    "PrivateCovariance": (_fit(lambda rng: dpcov.PrivateCovariance(bound=2.0,
                                                                   random_state=rng)), False),
    "PrivatePCA": (_fit(lambda rng: dpcov.PrivatePCA(n_components=2, bound=2.0,
                                                     random_state=rng)), False),
    # One release (bound_epsilon=0): advanced accounting refuses the two steps of the default
    # up front (tests/test_ledger.py), which the refusal test below covers.
    "PrivateLinearRegression": (_fit(lambda rng: dpcov.PrivateLinearRegression(
        bound=1.0, label_bound=1.0, bound_epsilon=0, random_state=rng), with_y=True), True),
}

# name -> why it spends no privacy.
NOT_RELEASES = {
    "adassp_bootstrap_intervals": "post-processing of a fit's release",
    "ols_bootstrap_intervals": "post-processing of a release",
    "ols_intervals": "post-processing of one or two releases",
    "ols_sandwich_intervals": "post-processing of two releases",
    "pca_subspace_error_bound": "simulation from the receipt's public noise law",
    "pca_centred_subspace_error_bound": "simulation at the release (post-processing)",
    "Sketch.__init__": "draws the public projection, no data yet",
    "GramAccumulator.add_unit_rows": "chooses which rows of a unit to keep, covered by the "
                                     "unit-level release that follows",
    "PrivateLinearRegression.noise_aware_intervals": "post-processing of the kept release",
    "charged_if_drawn": "the accountant's own charge rule: it reads the generator's state",
    "keep_unit_rows": "chooses which rows of a unit to keep, covered by the unit-level release "
                      "that follows",
    "grouped": "groups the rows by unit and derives each group's one-way sampling key, "
               "covered by the unit-level release that follows",
    "kept_rows": "the units' kept rows, covered by the unit-level release that follows",
}


def _public(name):
    return not name.startswith("_")


def _takes_generator(fn):
    return bool({"rng", "random_state"} & set(inspect.signature(fn).parameters))


def enumerated_paths():
    """Every public callable that takes a generator, and every estimator."""
    names = set()
    for module in MODULES:
        for name, obj in inspect.getmembers(module):
            if not _public(name):
                continue
            if inspect.isfunction(obj) and _takes_generator(obj):
                names.add(name)
            elif inspect.isclass(obj) and obj.__module__.startswith("dpcov"):
                if hasattr(obj, "fit"):
                    names.add(name)
                for method_name, method in inspect.getmembers(obj, inspect.isfunction):
                    if _public(method_name) and _takes_generator(method) or \
                            method_name == "__init__" and "rng" in inspect.signature(method).parameters:
                        names.add(f"{name}.{method_name}")
    return names


def test_every_path_that_takes_a_generator_is_classified():
    paths = enumerated_paths()
    assert paths == set(RELEASES) | set(NOT_RELEASES), (
        f"unclassified: {sorted(paths - set(RELEASES) - set(NOT_RELEASES))}; "
        f"stale: {sorted((set(RELEASES) | set(NOT_RELEASES)) - paths)}")


def _run_quietly(call, rng):
    """``call(rng)`` with warnings (clipping, defaulted bounds) silenced: not what this tests."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return call(rng)


def _numbers(result):
    """Every array and number in a result (tuples, named tuples, dicts, fitted estimators)."""
    if isinstance(result, np.ndarray):
        return [result]
    if isinstance(result, (int, float, np.floating, np.integer)):
        return [np.asarray(result)]
    if isinstance(result, dict):
        return [v for key in sorted(result) for v in _numbers(result[key])]
    if isinstance(result, (tuple, list)):
        return [v for item in result for v in _numbers(item)]
    if hasattr(result, "__dict__"):
        return [v for key in sorted(vars(result)) if key.endswith("_")
                for v in _numbers(vars(result)[key])]
    return []


@pytest.mark.parametrize("name", sorted(RELEASES))
def test_each_release_charges_the_active_accountant(name):
    call, zcdp = RELEASES[name]
    accountings = ["basic", "advanced"] + (["zcdp"] if zcdp else [])
    for accounting in accountings:
        with dpcov.BudgetAccountant(200.0, 1e-3, accounting=accounting) as budget, \
                dpcov.Rng(5) as rng:
            _run_quietly(call, rng)
            spent = budget.spent
            assert spent.charges >= 1, f"{name} did not charge a {accounting} accountant"
            assert spent.epsilon > 0
            if accounting == "zcdp":
                assert spent.rho > 0


@pytest.mark.parametrize("name", sorted(RELEASES))
def test_each_release_is_refused_before_it_draws(name):
    call, _ = RELEASES[name]
    with dpcov.BudgetAccountant(1e-9, 1e-12) as budget, dpcov.Rng(5) as rng:
        state = rng.save_state()
        with pytest.raises(dpcov.PreconditionError, match="cap would be exceeded"):
            _run_quietly(call, rng)
        assert rng.save_state() == state, f"{name} drew noise before the accountant refused"
        assert budget.spent.charges == 0


@pytest.mark.parametrize("name", sorted(RELEASES))
def test_each_release_is_reproducible_from_its_seed(name):
    call, _ = RELEASES[name]
    results = []
    for _ in range(2):
        with dpcov.Rng(5) as rng:
            results.append((_numbers(_run_quietly(call, rng)), rng.save_state()))
    assert results[0][1] == results[1][1]
    assert len(results[0][0]) == len(results[1][0]) > 0
    for a, b in zip(results[0][0], results[1][0]):
        np.testing.assert_array_equal(a, b)
