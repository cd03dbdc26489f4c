"""AdaSSP regression over Dask arrays: X'X, X'y and y'y bounded in the partitions, released once.

Each partition hands its raw rows [x, y] to a bounded accumulator of the library
(:meth:`dpcov.GramAccumulator.bounded` with ``label_bound``, and a constant column of 1 in front
for the intercept): x is bounded in norm by B, |y| by B_y, there, not in NumPy. The accumulators'
saved states merge up the reduction tree; the driver reads the merged Gram matrix of [1, x, y],
whose blocks are X'X, X'y and y'y, and makes the one AdaSSP release
(:func:`dpcov.adassp_fit`) with its generator. The result equals the single-process fit from one
accumulator of all the rows with the same generator: the same receipt, the statistics (and so the
coefficients) up to the rounding of the compensated floating-point sums.
"""

from __future__ import annotations

import dask.array as da
import numpy as np

import dpcov
from . import dask_frame
from .dask import exact_state


def adassp_rows(x: da.Array, y: da.Array) -> da.Array:
    """The rows [x, y] of the n x p Dask array ``x`` and the length-n Dask array ``y``, row
    chunks aligned to ``x``'s."""
    if x.ndim != 2 or y.ndim != 1:
        raise ValueError(f"x must be 2-D and y 1-D, got {x.ndim} and {y.ndim} dimensions")
    return da.concatenate([x, y.rechunk((x.chunks[0],))[:, None]], axis=1)


def adassp_spec(bound: float, label_bound: float, fit_intercept: bool = True,
                policy: str = "clip", neighbour: str = "replace_one") -> dict:
    """The bounded accumulator of AdaSSP's rows [x, y] (the keyword arguments of
    :meth:`dpcov.GramAccumulator.bounded` after ``cols``)."""
    return {"bound": bound, "policy": policy, "neighbour": neighbour,
            "constant": 1.0 if fit_intercept else 0.0, "label_bound": label_bound}


def adassp_statistics(gram: dpcov.GramAccumulator, fit_intercept: bool, bound: float) -> tuple:
    """``(matrix, label, features, bound_x)`` of AdaSSP's fit from an accumulator of
    :func:`adassp_spec`: its Gram matrix, the label's index (last), the regressors' (the constant
    first with an intercept) and their norm bound."""
    matrix = gram.matrix()
    label = matrix.shape[0] - 1
    bound_x = dpcov.constant_column_norm_bound(1.0, bound) if fit_intercept else float(bound)
    return matrix, label, np.arange(label, dtype=np.int64), bound_x


def refuse_units(privacy_unit, options: dict) -> None:
    """Refuses a fit at the level of privacy units: this path sums every row, with no unit's rows
    cut to k, so a receipt stating k would claim a protection the statistics do not have."""
    if privacy_unit is not None or options.get("max_rows_per_unit"):
        raise ValueError("dask_adassp is a row-level fit: privacy_unit= and max_rows_per_unit= "
                         "are not supported on Dask; fit privacy units in one process with "
                         "dpcov.adassp_units_fit or PrivateLinearRegression(max_rows_per_unit=k)"
                         ".fit(X, y, privacy_unit=ids)")


def dask_adassp(x: da.Array, y: da.Array, bound: float, label_bound: float, epsilon: float,
                delta: float, rng, fit_intercept: bool = True, policy: str = "clip",
                neighbour: str = "replace_one", split_every: int = 2, columns=None,
                privacy_unit=None, **options) -> dpcov.AdasspFit:
    """AdaSSP's regression of ``y`` on ``x`` (Dask arrays, n x p and n; or a DataFrame ``x``,
    its response column named ``y``, its regressors ``columns``), ``||x|| <= bound`` and
    ``|y| <= label_bound`` enforced by the library in each partition, the statistics summed up a
    tree and released once here with ``rng`` (``dpcov_adassp_fit``; ``options`` are its
    ``calibration``, ``rho``, ``release_label_square``). With ``fit_intercept`` the first
    coefficient is the intercept. Spends (epsilon, delta) once; an active
    :class:`dpcov.BudgetAccountant` is checked and charged as :func:`dpcov.adassp_fit` does.
    ``privacy_unit`` (or ``max_rows_per_unit``) is refused with a ValueError before anything is
    computed or drawn (:func:`refuse_units`)."""
    refuse_units(privacy_unit, options)
    spec = adassp_spec(bound, label_bound, fit_intercept, policy, neighbour)
    rows = dask_frame.adassp_rows(x, y, columns) if dask_frame.is_frame(x) else adassp_rows(x, y)
    with dpcov.GramAccumulator.from_bytes(exact_state(rows, spec, split_every)) as gram:
        matrix, label, features, bound_x = adassp_statistics(gram, fit_intercept, bound)
    return dpcov.adassp_fit(matrix, label, features, bound_x, label_bound, epsilon, delta, rng,
                            neighbour=neighbour, **options)
