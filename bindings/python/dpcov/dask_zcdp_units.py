"""Dong-Liang-Yi and CoinPress with privacy units over Dask: the unit groupby keeps the rows, the passes read them.

As in one process (:mod:`dpcov.unit_rows`), every unit keeps exactly k rows (a uniformly random k
of its rows, or all of them and zero rows up to k), so that n = k U is public under replace-one
and a unit's rows all replaced are k rows replaced; the mechanism runs at rho / k^2. Here the rows
reach their unit's group through the spill files of :mod:`dpcov.dask_units`; each group chooses
its units' k rows (``dpcov_unit_rows_keep``) with its own sampling key and writes them to a file
of kept rows in the same private directory, and the passes of
:func:`dpcov.dask.dask_zcdp_release` read those files as their row blocks. The driver receives
the files' paths and n = k U (a tree sum of the files' lengths), never a row; the files are
removed with the directory when the release returns or fails. A DataFrame names its unit
column: whole-number ids take the same path, string ids that of :mod:`dpcov.dask_string_units`
(grouped by a fixed-key hash of the id, each group numbering its distinct ids).
"""

from __future__ import annotations

import functools
import os

import dask
import numpy as np

import dpcov
from . import _arrays, dask_frame
from .coinpress import zcdp_epsilon
from .dask import ZCDP_MECHANISMS, dask_zcdp_release
from .dask_spill import spill_directory
from .dask_units import MEMORY_BUDGET, grouped
from .ledger import ZcdpCharge, _active, active_accountant
from .unit_budget import unit_row_rho
from .unit_rows import keep_unit_rows


def kept_rows_file(paths: list, group: int, k: int, sampler: bytes, directory: str,
                   units_of) -> str:
    """Group ``group``'s units (``units_of(paths, group)``: its rows read from the spill files
    ``paths`` and their sorted unit ids), each cut or padded to k rows with the generator whose
    state is ``sampler``, written to a file of kept rows; returns its path."""
    x, ids = units_of(paths, group)
    kept = x  # a group the hash left empty keeps no row
    if len(ids):
        with dpcov.Rng.from_state(sampler) as rng:
            kept, _ = keep_unit_rows(x, ids, k, rng)
    path = os.path.join(directory, f"kept-{group:08d}.npy")
    np.save(path, kept)
    return path


def kept_rows(x, units, k: int, rng, groups, directory: str, memory_budget: int,
              columns=None):
    """The Dask array of the rows the units keep, one block per group, read from the kept
    rows' files (written when this returns); a DataFrame's unit column and ``columns`` named
    (:func:`dpcov.dask_units.grouped`)."""
    keep = functools.partial(kept_rows_file, k=k, directory=directory)
    files, cols = grouped(x, units, {}, rng, groups, directory, memory_budget, columns, keep)
    paths = dask.compute(*files)
    return dask_frame.blocks_array([dask.delayed(np.load)(p) for p in paths], cols)


# A stand-in number of rows for checking a release's settings before its rows are grouped: the
# settings' own checks do not read n (those that do run at the release, on the kept rows).
SETTINGS_ROWS = 1 << 20


def _check_pass_settings(x, units, columns, mechanism: str, row_rho: float, delta: float,
                         params: dict) -> None:
    """The passes' settings (radius, k_bound, beta, ...) checked by the library's plan before
    the groupby reads any row or the accountant is charged: a bad one is a refusal that spends
    nothing, as in memory."""
    if dask_frame.is_frame(x):
        unit = (units,) if np.isscalar(units) else ()
        cols = len(dask_frame.numeric_columns(x, columns, exclude=unit))
    else:
        cols = int(x.shape[1])
    if mechanism == "coinpress":
        dpcov.coinpress_plan(SETTINGS_ROWS, cols, rho=row_rho, delta=delta, **params)
    elif mechanism in ZCDP_MECHANISMS:
        dpcov.dly_plan(SETTINGS_ROWS, cols, ZCDP_MECHANISMS[mechanism], rho=row_rho,
                       delta=delta, **params)
    else:
        raise ValueError(f"mechanism must be one of {', '.join(map(repr, ZCDP_MECHANISMS))}, "
                         f"got {mechanism!r}")


def dask_zcdp_unit_release(x, units, max_rows_per_unit: int, rng, mechanism: str, rho: float,
                           delta: float, groups=None, split_every: int = 2, spill_dir=None,
                           memory_budget: int = MEMORY_BUDGET, shuffle: bool = True,
                           columns=None, **params):
    """:func:`dpcov.zcdp_unit_release` of ``mechanism`` (a :func:`dpcov.dask.dask_zcdp_release`
    one) over the Dask array ``x`` and its whole-number unit ids ``units``, or over the
    ``columns`` of a DataFrame ``x`` and its unit column named ``units`` (whole numbers or
    strings), through the groupby's spill files (``shuffle=False`` is refused): rho-zCDP for
    units of at most ``max_rows_per_unit`` rows under replace-one (module description). An active
    :class:`dpcov.BudgetAccountant` is checked before the groupby runs and charged the
    unit-level rho once (also when the passes fail, as their noise may have been drawn). The
    receipt states the unit-level rho and epsilon and ``privacy_unit`` (k and the row rho)."""
    if not shuffle:
        raise ValueError("privacy units for the zCDP passes go through the unit groupby: no "
                         "shuffle=False")
    row_rho = unit_row_rho("replace_one", "replace_one", max_rows_per_unit, rho)
    charge = ZcdpCharge(float(rho), zcdp_epsilon(rho, delta), float(delta))
    k = _arrays.whole_number(max_rows_per_unit, "max_rows_per_unit")
    _check_pass_settings(x, units, columns, mechanism, row_rho, delta, params)
    budget = active_accountant()
    if budget is not None:
        budget.check(charge)
    with spill_directory(spill_dir) as directory:
        rows = kept_rows(x, units, k, rng, groups, directory, memory_budget, columns)
        token = _active.set(None)  # the passes are charged here, at the unit level
        try:
            result = dask_zcdp_release(rows, rng, mechanism, split_every, rho=row_rho,
                                       delta=delta, **params)
        except BaseException:
            if budget is not None:
                budget.charge(charge)
            raise
        finally:
            _active.reset(token)
    if budget is not None:
        budget.charge(charge)
    result.receipt.update(rho=charge.rho, epsilon=charge.epsilon,
                          privacy_unit={"max_rows_per_unit": k, "row_rho": row_rho})
    return result
