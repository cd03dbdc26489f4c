"""A norm bound B chosen from the data, eps-DP, when none is public (``dpcov/private_bound.h``,
proofs/private_bound.md), over a public geometric grid, aiming at a public target number of rows
above B: by the sparse vector scan upward from the smallest candidate (:func:`scan`, the default)
or by the exponential mechanism (:func:`select`), whose many candidates above the data share one
utility, so that at small n it often lands far above the data."""

from __future__ import annotations

from ctypes import byref, c_double, c_int64

import numpy as np

from . import _arrays
from ._generated import (DPCOV_AUTO_BOUND_HIGH, DPCOV_AUTO_BOUND_LOW, DPCOV_AUTO_BOUND_QUANTILE,
                         DPCOV_AUTO_BOUND_RATIO, DPCOV_BOUND_STEP_SHARE, DPCOV_TIGHTEN_STEPS)
from ._lib import C, _check
from .ledger import active_accountant, charged_if_drawn, ledger_charge

__all__ = ["AUTO_BOUND_GRID", "AUTO_BOUND_QUANTILE", "BOUND_STEP_SHARE", "bound_step_rest",
           "quantile_target", "grid", "histogram", "row_histogram", "norm_cells", "unit_histogram",
           "select", "scan", "choose_bound", "choose_bound_from", "below_grid", "tighten_bound",
           "tighten_bound_rows"]


BOUND_STEP_SHARE = DPCOV_BOUND_STEP_SHARE
"""The share of epsilon a private bound step spends where none is named (``bound="auto"``,
AdaSSP without intervals; the command line's ``--bound auto`` and ``regress --no-intervals``)."""

AUTO_BOUND_GRID = {"lo": DPCOV_AUTO_BOUND_LOW, "hi": DPCOV_AUTO_BOUND_HIGH,
                   "ratio": DPCOV_AUTO_BOUND_RATIO}
"""The public grid of an automatic bound on every surface (``bound="auto"``, the Dask releases,
the command line's ``--bound auto``), as keyword arguments of :func:`choose_bound`."""

AUTO_BOUND_QUANTILE = DPCOV_AUTO_BOUND_QUANTILE
"""The quantile of the rows' norms an automatic bound aims at by default."""


def quantile_target(quantile: float, n: int) -> int:
    """The number of rows above the bound that aims at the ``quantile`` of ``n`` row norms,
    floor((1 - quantile) n) (``dpcov_private_bound_quantile_target``). Uses n: replace-one."""
    target = c_int64()
    _check(C.dpcov_private_bound_quantile_target(quantile, n, byref(target)))
    return target.value


def bound_step_rest(epsilon: float, bound_epsilon: float) -> float:
    """The epsilon left to the release after a bound step of ``bound_epsilon`` out of ``epsilon``
    (``dpcov_bound_step_rest``): the largest double r with bound_epsilon + r <= epsilon exactly,
    so that the two steps never sum above epsilon (basic composition)."""
    rest = c_double()
    _check(C.dpcov_bound_step_rest(epsilon, bound_epsilon, byref(rest)))
    return rest.value


def grid(lo: float = DPCOV_AUTO_BOUND_LOW, hi: float = DPCOV_AUTO_BOUND_HIGH,
         ratio: float = DPCOV_AUTO_BOUND_RATIO) -> np.ndarray:
    """The public candidates lo * ratio^k up to the first >= hi (``dpcov_private_bound_grid``);
    by default the automatic bound's grid (:data:`AUTO_BOUND_GRID`)."""
    count = c_int64()
    _check(C.dpcov_private_bound_grid(lo, hi, ratio, None, 0, byref(count)))
    out = np.empty(count.value)
    _check(C.dpcov_private_bound_grid(lo, hi, ratio, out.ctypes.data,
                                      count.value, byref(count)))
    return out


def histogram(norms, candidates: np.ndarray) -> np.ndarray:
    """Counts of row norms per cell: cell k holds the norms in (b_{k-1}, b_k], the last cell
    those above every candidate. Private: pass it only to :func:`select`."""
    cells = np.searchsorted(candidates, np.asarray(norms, dtype=float), side="left")
    return np.bincount(cells, minlength=len(candidates) + 1).astype(np.int64)


def row_histogram(x, candidates: np.ndarray) -> np.ndarray:
    """The histogram of :func:`histogram` from the rows of the 2-D array ``x`` themselves, their
    norms measured by the library (``dpcov_private_bound_histogram``: no over- or underflow; a
    norm above the largest double lands above every candidate). Private: pass it only to
    :func:`select` or :func:`scan`."""
    m = _arrays.matrix(x, "x")
    cand = _arrays.vector(np.ascontiguousarray(candidates, dtype=np.float64), "candidates")
    counts = np.zeros(cand.shape[0] + 1, dtype=np.int64)
    _check(C.dpcov_private_bound_histogram(_arrays.ptr(cand), cand.shape[0], m.layout, m.rows,
                                           m.cols, m.ptr, m.ld, counts.ctypes.data))
    return counts


def norm_cells(x, candidates: np.ndarray) -> np.ndarray:
    """The cell of each row of the 2-D array ``x`` over the candidates, as :func:`row_histogram`
    and :func:`unit_histogram` count it (``dpcov_private_bound_norm_cells``): int64 in [0, K], K
    for a non-finite row or a norm above every candidate. The largest cell of a unit's rows is
    its cell in :func:`unit_histogram`, wherever its rows were measured. Private: count them only
    into a histogram for :func:`select` or :func:`scan`."""
    m = _arrays.matrix(x, "x")
    cand = _arrays.vector(np.ascontiguousarray(candidates, dtype=np.float64), "candidates")
    cells = np.empty(m.rows, dtype=np.int64)
    _check(C.dpcov_private_bound_norm_cells(_arrays.ptr(cand), cand.shape[0], m.layout, m.rows,
                                            m.cols, m.ptr, m.ld, cells.ctypes.data))
    return cells


UNIT_SLICE_ROWS = 1 << 16
"""Rows per call of :func:`unit_histogram` on sorted ids (whole units: a larger unit in one)."""


def unit_slices(ids: np.ndarray, rows: int):
    """``(start, end)`` of consecutive slices of the sorted ``ids`` that hold whole units, each
    of about ``rows`` rows (a unit of more rows in a slice of its own)."""
    start, n = 0, len(ids)
    while start < n:
        end = min(start + rows, n)
        if end < n:  # back to the first row of the unit that row `end` belongs to
            end = int(np.searchsorted(ids, ids[end], side="left"))
            if end <= start:  # that unit began the slice: the slice ends with it
                end = int(np.searchsorted(ids, ids[start], side="right"))
        yield start, end
        start = end


def unit_histogram(x, units, candidates: np.ndarray) -> np.ndarray:
    """The histogram of privacy units over the candidates: each unit once, in the cell of the
    largest norm among its rows (``dpcov_private_bound_unit_histogram``, norms measured as
    :func:`row_histogram` measures them), row i of the 2-D array ``x`` belonging to the unit of
    int64 id ``units[i]``. The library holds one entry per unit of a call: with the ids sorted
    (each unit's rows together, as :func:`dpcov.gram.unit_ids` orders them) the rows go in
    slices of whole units (:func:`unit_slices`), so it holds at most UNIT_SLICE_ROWS units at a
    time; otherwise every unit at once. Private: pass it only to :func:`select` or
    :func:`scan`, whose target is then a number of units."""
    rows = _arrays.matrix(x, "x").array
    ids = np.ascontiguousarray(units, dtype=np.int64)
    if ids.shape != (rows.shape[0],):
        raise ValueError(f"units has shape {ids.shape} for {rows.shape[0]} rows")
    cand = _arrays.vector(np.ascontiguousarray(candidates, dtype=np.float64), "candidates")
    counts = np.zeros(cand.shape[0] + 1, dtype=np.int64)
    sorted_ids = np.all(ids[1:] >= ids[:-1])
    slices = unit_slices(ids, UNIT_SLICE_ROWS) if sorted_ids else [(0, len(ids))]
    for start, end in slices:
        m = _arrays.matrix(rows[start:end], "x")  # a view: a slice of rows keeps the layout
        _check(C.dpcov_private_bound_unit_histogram(_arrays.ptr(cand), cand.shape[0], m.layout,
                                                    m.rows, m.cols, m.ptr, m.ld,
                                                    ids[start:end].ctypes.data,
                                                    counts.ctypes.data))
    return counts


def _choose(function, counts, candidates: np.ndarray, target_clipped: int, epsilon: float, rng):
    """``(index, bound)`` from ``function`` (a C selection of dpcov/private_bound.h), charged as
    :func:`_charged_choice` charges."""
    g = _arrays.vector(candidates, "candidates")
    h = np.ascontiguousarray(counts, dtype=np.int64)
    if h.shape != (len(g) + 1,):
        raise _arrays.dimension_error(f"counts must have {len(g) + 1} cells (one per candidate and "
                                      f"the overflow cell), got shape {h.shape}")
    index, bound = c_int64(), c_double()
    _charged_choice(epsilon, rng, lambda: function(
        _arrays.ptr(g), len(g), h.ctypes.data, int(target_clipped), float(epsilon), rng,
        byref(index), byref(bound)))
    return index.value, bound.value


def _charged_choice(epsilon: float, rng, call) -> None:
    """Runs ``call`` (a C choice of a bound, eps-DP, drawing from ``rng``), an active
    :class:`~dpcov.BudgetAccountant` checked for the pure epsilon before the draw and charged
    it after (:func:`~dpcov.ledger.charged_if_drawn`: a bad argument is not charged)."""
    budget = active_accountant()
    statement = None
    if budget is not None:
        statement = ledger_charge(epsilon, 0.0)
        budget.check(statement)
    with charged_if_drawn(budget, statement, rng):
        _check(call())
    if budget is not None:
        budget.charge(statement)


def select(counts, candidates: np.ndarray, target_clipped: int, epsilon: float, rng):
    """``(index, bound)``: the candidate chosen eps-DP from the histogram ``counts`` by the
    exponential mechanism (``dpcov_private_bound_select``). An active
    :class:`~dpcov.BudgetAccountant` is charged the pure epsilon (checked before the draw)."""
    return _choose(C.dpcov_private_bound_select, counts, candidates, target_clipped, epsilon, rng)


def scan(counts, candidates: np.ndarray, target_clipped: int, epsilon: float, rng):
    """``(index, bound)``: the first candidate whose noisy count of rows above it is at most the
    noisy ``target_clipped``, eps-DP under both neighbour relations (``dpcov_private_bound_scan``).
    An active :class:`~dpcov.BudgetAccountant` is charged the pure epsilon (checked before the
    draw)."""
    return _choose(C.dpcov_private_bound_scan, counts, candidates, target_clipped, epsilon, rng)


RULES = {"scan": scan, "exponential": select}
"""The selection rules by name: the sparse vector scan (default) and the exponential mechanism."""


def choose_bound(x, epsilon: float, rng, quantile: float = AUTO_BOUND_QUANTILE,
                 lo: float = DPCOV_AUTO_BOUND_LOW, hi: float = DPCOV_AUTO_BOUND_HIGH,
                 ratio: float = DPCOV_AUTO_BOUND_RATIO, clipped=None, rule: str = "scan") -> float:
    """B for the rows of ``x``, eps-DP. By default as the automatic bound of every surface
    chooses it (``bound="auto"``, ``--bound auto``): the grid :data:`AUTO_BOUND_GRID`, aiming at
    the :data:`AUTO_BOUND_QUANTILE` of the rows' norms: the target number of rows above B is
    floor((1 - quantile) n), which uses n (replace-one only).
    With ``clipped`` the target is that public number of rows itself, which needs no n, so the
    choice is eps-DP under add/remove too. ``rule`` is ``"scan"`` (:func:`scan`) or
    ``"exponential"`` (:func:`select`)."""
    rows = np.asarray(x, dtype=float)
    if rows.ndim == 1:
        rows = rows[:, None]
    # A norm above the largest double lands in the cell above every candidate, silently.
    return choose_bound_from(lambda candidates: row_histogram(rows, candidates), rows.shape[0],
                             epsilon, rng, quantile, lo, hi, ratio, clipped, rule)


def choose_bound_from(histogram_of, n, epsilon: float, rng, quantile: float = AUTO_BOUND_QUANTILE,
                      lo: float = DPCOV_AUTO_BOUND_LOW, hi: float = DPCOV_AUTO_BOUND_HIGH,
                      ratio: float = DPCOV_AUTO_BOUND_RATIO, clipped=None,
                      rule: str = "scan") -> float:
    """:func:`choose_bound` for ``n`` rows whose histogram over the candidates is
    ``histogram_of(candidates)`` (e.g. the sum of :func:`row_histogram` over partitions of the
    rows, which the same generator turns into the same B). ``n`` None: the number the histogram
    counts (the units of :func:`unit_histogram`, each counted once)."""
    if rule not in RULES:
        raise ValueError(f"rule must be one of {sorted(RULES)}, got {rule!r}")
    candidates = grid(lo, hi, ratio)
    if clipped is not None and (isinstance(clipped, (bool, np.bool_))
                                or int(clipped) != clipped or clipped < 0):
        raise ValueError(f"clipped must be a whole number >= 0, got {clipped!r}")
    counts = histogram_of(candidates)
    if clipped is None:
        target = quantile_target(quantile, int(np.sum(counts)) if n is None else n)
    else:
        target = int(clipped)
    return RULES[rule](counts, candidates, target, epsilon, rng)[1]


TIGHTEN_STEPS = DPCOV_TIGHTEN_STEPS
"""Candidates below a public bound B in :func:`below_grid`: B / 1.25^12 to B (13 in all)."""


def below_grid(bound: float) -> np.ndarray:
    """The public candidates bound / 1.25^k, k = 12, ..., 1, then ``bound`` itself, in increasing
    order (``dpcov_private_bound_below_grid``): a function of the public bound only. The top
    candidate is ``bound``, so a choice from this grid never loosens the bound."""
    count = c_int64()
    out = np.empty(TIGHTEN_STEPS + 1)
    _check(C.dpcov_private_bound_below_grid(bound, out.ctypes.data, len(out),
                                            byref(count)))
    return out


def _tighten(counts: np.ndarray, bound: float, n: int, quantile: float, epsilon: float,
             rng) -> float:
    """The library's choice (``dpcov_private_bound_tighten``) from ``counts`` over
    :func:`below_grid`, charged as :func:`_charged_choice` charges."""
    h = np.ascontiguousarray(counts, dtype=np.int64)
    chosen = c_double()
    _charged_choice(epsilon, rng, lambda: C.dpcov_private_bound_tighten(
        bound, h.ctypes.data, n, quantile, epsilon, rng, byref(chosen)))
    return chosen.value


def tighten_bound_rows(x, bound: float, epsilon: float, rng,
                       quantile: float = AUTO_BOUND_QUANTILE) -> float:
    """:func:`tighten_bound` for the rows of ``x``, their norms measured by the library
    (:func:`row_histogram`); a row over ``bound`` counts on it, as the fit clips it there."""
    rows = np.asarray(x, dtype=float)
    return _tighten(row_histogram(rows, below_grid(bound)), bound, rows.shape[0], quantile,
                    epsilon, rng)


def tighten_bound(norms, bound: float, epsilon: float, rng,
                  quantile: float = AUTO_BOUND_QUANTILE) -> float:
    """A bound <= ``bound`` at about the ``quantile`` of ``norms``, chosen eps-DP under
    replace-one (n public) from :func:`below_grid` (``dpcov_private_bound_tighten``; a norm over
    ``bound`` counts on it). A public worst-case bound (e.g. sqrt(d) for columns mapped to
    [-1, 1]) is often far above the rows' norms; the mechanisms' noise scales with the bound
    (squared for second moments), so clipping the few rows above a private quantile costs less
    than the worst case at small n (proofs/private_bound.md, "Tightening a public bound")."""
    values = np.asarray(norms, dtype=float)
    return _tighten(histogram(values, below_grid(bound)), bound, values.shape[0], quantile,
                    epsilon, rng)
