"""AdaSSP regression over Dask arrays: X'X, X'y and y'y bounded in the partitions, released once.

Each partition hands its raw rows [x, y] to a bounded accumulator of the library
(:meth:`dpcov.GramAccumulator.bounded` with ``label_bound`` and ``balanced``, and a constant column
of 1 in front for the intercept): x is bounded in norm by B, |y| by B_y, there, not in NumPy, and
the rows balanced to [1, x sqrt(d) / B, y / B_y] (proofs/balanced_rows.md), so that the fit does
not depend on the units of x and y. The accumulators' saved states merge up the reduction tree;
the driver reads the merged Gram matrix of the balanced rows, whose blocks are X'X, X'y and y'y,
makes the one AdaSSP release (:func:`dpcov.adassp_fit`) with its generator, and maps the
coefficients to the data's units by the public factors of :func:`dpcov.coefficient_factors`.
The result equals the single-process fit from one accumulator of all the rows with the same
generator: the same receipt, the statistics (and so the coefficients) up to the rounding of the
compensated floating-point sums.

With privacy units (:func:`dask_adassp_units`) the rows [x, y] go through the unit groupby of
:mod:`dpcov.dask_units` instead: each unit's rows gathered in one group, at most k of them kept
and bounded there by the library's accumulator of units, the groups' states merged, and the one
fit of :func:`dpcov.adassp_units_fit` made here (k in its params and receipt).
"""

from __future__ import annotations

import dask.array as da
import numpy as np

import dpcov
from . import adassp_units, dask_frame, dask_units
from .dask import exact_state


def adassp_rows(x: da.Array, y: da.Array) -> da.Array:
    """The rows [x, y] of the n x p Dask array ``x`` and the length-n Dask array ``y``, row
    chunks aligned to ``x``'s."""
    if x.ndim != 2 or y.ndim != 1:
        raise ValueError(f"x must be 2-D and y 1-D, got {x.ndim} and {y.ndim} dimensions")
    if np.isfinite(x.shape[0]) and np.isfinite(y.shape[0]) and x.shape[0] != y.shape[0]:
        raise ValueError(f"y has {y.shape[0]} values for {x.shape[0]} rows of x")
    return da.concatenate([x, y.rechunk((x.chunks[0],))[:, None]], axis=1)


def adassp_spec(bound: float, label_bound: float, fit_intercept: bool = True,
                policy: str = "clip", neighbour: str = "replace_one") -> dict:
    """The bounded accumulator of AdaSSP's balanced rows [1, x sqrt(d) / B, y / B_y] (the
    keyword arguments of :meth:`dpcov.GramAccumulator.bounded` after ``cols``)."""
    return {"bound": bound, "policy": policy, "neighbour": neighbour,
            "constant": 1.0 if fit_intercept else 0.0, "label_bound": label_bound,
            "balanced": True}


def adassp_statistics(gram: dpcov.GramAccumulator, fit_intercept: bool) -> tuple:
    """``(matrix, label, features, bound_x)`` of AdaSSP's fit from an accumulator of
    :func:`adassp_spec`: its Gram matrix, the label's index (last), the regressors' (the constant
    first with an intercept) and their norm bound (the balanced rows', the same for every B; the
    label's is 1)."""
    matrix = gram.matrix()
    label = matrix.shape[0] - 1
    regressors = label - (1 if fit_intercept else 0)
    bound_x = adassp_units.balanced_x_bound(regressors, fit_intercept)
    return matrix, label, np.arange(label, dtype=np.int64), bound_x


def unit_inputs(x, y, privacy_unit, columns=None) -> tuple:
    """``(rows, units, columns)`` for :func:`dpcov.dask_units.unit_state`: AdaSSP's rows
    [x, y] and their unit ids, Dask arrays (``privacy_unit`` a Dask or NumPy array, one id per
    row); or for a DataFrame ``x`` the frame itself, the unit column's name ``privacy_unit``
    and the columns [regressors, response ``y``], which the groupby reads in the partitions."""
    if not dask_frame.is_frame(x):
        rows = adassp_rows(x, y)
        return rows, da.asarray(privacy_unit), None
    if not (np.isscalar(y) and np.isscalar(privacy_unit)) or y == privacy_unit:
        raise ValueError("with a DataFrame, y and privacy_unit name its response and unit "
                         "columns, two different ones")
    names = dask_frame.numeric_columns(x, columns, exclude=(y, privacy_unit))
    dask_frame.numeric_columns(x, [y])
    return x, privacy_unit, names + [y]


def dask_adassp_units(x, y, privacy_unit, max_rows_per_unit: int, bound: float,
                      label_bound: float, epsilon: float, delta: float, rng,
                      fit_intercept: bool = True, policy: str = "clip",
                      neighbour: str = "replace_one", calibration="joint_analytic",
                      rho: float = 0.05, columns=None, release_label_square: bool = False,
                      **groupby) -> adassp_units.AdasspUnitsFit:
    """:func:`dpcov.adassp_units_fit` over Dask: the rows [x, y] grouped by ``privacy_unit``
    through the unit groupby of :func:`dpcov.dask_units.unit_state` (``groupby``: its
    ``groups``, ``shuffle``, ``split_every``, ``spill_dir``, ``memory_budget``), at most
    ``max_rows_per_unit`` rows of each unit kept and bounded by the library in the group that
    holds it, the groups' states merged, and the one fit made here with ``rng`` and k in its
    params: the same receipt (it states k; n is not in it) and, with no unit over k rows, the
    same fit as :func:`dpcov.adassp_units_fit` (the statistics to the rounding of their
    compensated sums). The rows are balanced and the coefficients in the data's units, as
    there (:class:`dpcov.adassp_units.AdasspUnitsFit`). The plan, and an active accountant, are
    checked before anything is computed or drawn. A fit of units has no intervals, so
    ``release_label_square`` is refused (``UNITS_NO_INTERVALS``)."""
    if release_label_square:
        raise ValueError("release_label_square releases y'y for intervals: "
                         + adassp_units.UNITS_NO_INTERVALS)
    rows, units, names = unit_inputs(x, y, privacy_unit, columns)
    regressors = len(names) - 1 if names else int(rows.shape[1]) - 1
    plan = adassp_units.unit_fit_plan(regressors, max_rows_per_unit, bound, label_bound,
                                      epsilon, delta, fit_intercept, neighbour, calibration, rho)
    spec = {**adassp_spec(bound, label_bound, fit_intercept, policy, neighbour),
            "max_rows_per_unit": plan.k}
    with dpcov.GramAccumulator.bounded(regressors + 1, **spec):
        pass  # the driver refuses a spec the groups would (a policy, a bound) before they run
    state = dask_units.unit_state(rows, units, spec, rng, columns=names, **groupby)
    with dpcov.GramAccumulator.from_bytes(state) as gram:
        return adassp_units.unit_fit(gram, plan, rng)


def dask_adassp(x: da.Array, y: da.Array, bound: float, label_bound: float, epsilon: float,
                delta: float, rng, fit_intercept: bool = True, policy: str = "clip",
                neighbour: str = "replace_one", split_every: int = 2, columns=None,
                privacy_unit=None, max_rows_per_unit=None, **options):
    """AdaSSP's regression of ``y`` on ``x`` (Dask arrays, n x p and n; or a DataFrame ``x``,
    its response column named ``y``, its regressors ``columns``), ``||x|| <= bound`` and
    ``|y| <= label_bound`` enforced by the library in each partition, the statistics summed up a
    tree and released once here with ``rng`` (``dpcov_adassp_fit``; ``options`` are its
    ``calibration``, ``rho``, ``release_label_square``). With ``fit_intercept`` the first
    coefficient is the intercept. Spends (epsilon, delta) once; an active
    :class:`dpcov.BudgetAccountant` is checked and charged as :func:`dpcov.adassp_fit` does.
    Returns a :class:`dpcov.AdasspFit` of the balanced rows (module docstring) whose
    ``coefficients`` are in the data's units: ``released_xtx``, ``released_xty`` (and the
    receipt's bounds) are the balanced rows', and ``coefficients == solve(released_xtx + ridge I,
    released_xty) * dpcov.coefficient_factors(p + 1, bound, constant, label_bound,
    balanced=True)`` (p the columns of x, constant 1 with an intercept and 0 without); intervals
    computed from the fit are the balanced rows' and map back by the same factors.

    With ``privacy_unit`` (a Dask array of whole-number ids, one per row; with a DataFrame the
    unit column's name) and ``max_rows_per_unit`` k, the fit is at the level of units through
    the unit groupby (:func:`dask_adassp_units`, which ``options`` also configure) and returns
    a :class:`dpcov.adassp_units.AdasspUnitsFit`."""
    dask_units.check_unit_options(privacy_unit, max_rows_per_unit)
    if privacy_unit is not None:
        return dask_adassp_units(x, y, privacy_unit, max_rows_per_unit, bound, label_bound,
                                 epsilon, delta, rng, fit_intercept, policy, neighbour,
                                 columns=columns, split_every=split_every, **options)
    spec = adassp_spec(bound, label_bound, fit_intercept, policy, neighbour)
    rows = dask_frame.adassp_rows(x, y, columns) if dask_frame.is_frame(x) else adassp_rows(x, y)
    # Refuses a bad bound or label bound before the partitions run.
    factors = adassp_units.balanced_factors(rows.shape[1] - 1, bound, label_bound, fit_intercept)
    with dpcov.GramAccumulator.from_bytes(exact_state(rows, spec, split_every)) as gram:
        matrix, label, features, bound_x = adassp_statistics(gram, fit_intercept)
    fit = dpcov.adassp_fit(matrix, label, features, bound_x, 1.0, epsilon, delta, rng,
                           neighbour=neighbour, **options)
    return adassp_units.in_data_units(fit, factors)
