"""The Gram accumulator (dpcov/gram.h): G = A^T A over a stream of norm-bounded rows."""

from __future__ import annotations

from ctypes import byref, c_size_t, c_void_p, create_string_buffer, sizeof

import numpy as np

from . import _arrays
from ._generated import Numerics
from ._handle import Handle
from ._lib import C, GramInfoC, RowBoundingC, RowRefusalC, _check, new_struct
from .errors import DpcovError, rows_of_caller
from .exact import exact_grid_value
from .mechanism import release_gram
from .registry import mechanism_info
from .types import BoundPolicy, GramInfo, Neighbour, enum_value, mechanism_id

NUMERICS = {member.name.lower(): member.value for member in Numerics}
"""The ``dpcov_numerics`` values by name: ``"exact"`` (floating-point-safe: integer grid, exact
integer Gram, discrete noise) or ``"idealized"`` (floating-point noise)."""


def numerics_value(numerics) -> int:
    """The ``dpcov_numerics`` of ``numerics`` (a name, or 0 / 1); ValueError otherwise."""
    if isinstance(numerics, str) and numerics.strip().lower() in NUMERICS:
        return NUMERICS[numerics.strip().lower()]
    if not isinstance(numerics, str) and numerics in NUMERICS.values():
        return int(numerics)
    raise ValueError(f"numerics must be 'exact' or 'idealized', got {numerics!r}")


def _row_bounding(cols, bound, policy, neighbour, constant, lower, upper, label_bound,
                  release=None, max_rows_per_unit=0, balanced=False):
    """A ``dpcov_row_bounding`` and the arrays its pointers address (kept alive by the caller
    for the call). ``release``: None, or (mechanism, epsilon, delta, numerics) of the release
    the accumulator is for. ``max_rows_per_unit``: 0, or k for privacy units."""
    spec = new_struct(RowBoundingC)
    _check(C.dpcov_row_bounding_init(byref(spec), sizeof(spec)))
    spec.max_rows_per_unit = int(max_rows_per_unit)
    if not isinstance(balanced, (bool, np.bool_)):
        raise TypeError(f"balanced must be True or False, got {type(balanced).__name__}")
    spec.balanced = 1 if balanced else 0
    if release is not None:
        mechanism, epsilon, delta, numerics = release
        spec.mechanism = mechanism_id(mechanism)
        spec.epsilon = epsilon
        spec.delta = delta
        spec.numerics = numerics_value(numerics)
    spec.bound = bound
    spec.policy = enum_value(BoundPolicy, policy)
    spec.neighbour = enum_value(Neighbour, neighbour)
    spec.constant = constant
    spec.label_bound = label_bound
    keep = []
    if lower is not None or upper is not None:
        for name, value in (("lower", lower), ("upper", upper)):
            vec = _arrays.per_column(value, name, int(cols))
            keep.append(vec)
            setattr(spec, name, _arrays.ptr(vec))
    return spec, keep


def _has_exact_numerics(mechanism) -> bool:
    """Whether the registry gives the mechanism floating-point-safe numerics, which an accumulator
    then holds exactly."""
    return "exact" in mechanism_info(mechanism_id(mechanism)).numerics


def _created(cols, spec):
    """A new ``dpcov_gram_create_bounded`` handle of ``spec``."""
    handle = c_void_p()
    _check(C.dpcov_gram_create_bounded(byref(handle), cols, byref(spec)))
    return handle


def _with_refusal(call, refusal) -> None:
    """``_check(call())``, the error given ``row`` (the refused row's 0-based index in the chunk,
    or None) and ``refusal`` (the ``dpcov_row_refusal``)."""
    try:
        _check(call())
    except DpcovError as e:
        e.row = refusal.row if refusal.row >= 0 else None
        e.refusal = refusal
        raise


def bound_rows(a, bound: float = 1.0, policy="clip", neighbour="replace_one",
               constant: float = 0.0, lower=None, upper=None, label_bound: float = 0.0,
               balanced: bool = False):
    """The raw rows of the 2-D array ``a`` bounded by the library as
    :meth:`GramAccumulator.bounded` would bound them (``dpcov_row_bounding_apply``), without
    accumulating them. Returns ``(rows, info)``: the kept rows (a new C-order array) and the
    counters (dim, rows kept, clipped, dropped, clamped, and bound, the rows' norm bound). A
    refused row raises as :meth:`GramAccumulator.add_raw_rows` does."""
    m = _arrays.matrix(a, "a")
    spec, keep = _row_bounding(m.cols, bound, policy, neighbour, constant, lower, upper,
                               label_bound, balanced=balanced)
    width = m.cols + 1
    out = np.empty((m.rows, width))
    info = new_struct(GramInfoC)
    refusal = new_struct(RowRefusalC)
    _with_refusal(lambda: C.dpcov_row_bounding_apply(
        byref(spec), m.layout, m.rows, m.cols, m.ptr, m.ld, _arrays.ptr(out), width,
        byref(info), byref(refusal)), refusal)
    del keep
    return np.ascontiguousarray(out[:info.rows, :info.dim]), GramInfo(info)


def coefficient_factors(cols: int, bound: float, constant: float = 0.0,
                        label_bound: float = 0.0, balanced: bool = False) -> np.ndarray:
    """The public factors that map a regression on rows bounded as
    :meth:`GramAccumulator.bounded` with these arguments bounds them back to the raw rows' units
    (``dpcov_row_bounding_coefficient_factors``): one per regressor ([constant,] x, the label
    left out), by which coefficients, standard errors and interval ends are multiplied. With
    ``balanced`` (rows [1, x sqrt(d) / B, y / B_y]): B_y for the intercept and sqrt(d) B_y / B for
    each slope; otherwise the constant and ones."""
    spec, keep = _row_bounding(cols, bound, "clip", "replace_one", constant, None, None,
                               label_bound, balanced=balanced)
    count = int(cols) + (1 if constant else 0) - (1 if label_bound else 0)
    out = np.empty(max(count, 0))
    _check(C.dpcov_row_bounding_coefficient_factors(byref(spec), cols, _arrays.ptr(out),
                                                    count))
    del keep
    return out


def constant_column_norm_bound(constant: float, bound: float) -> float:
    """The norm bound of rows [c, x] with ||x|| <= ``bound`` as the library's row bounding computes
    it (the bound an accumulator with that constant column reports): for the regression's
    intercept, c = 1, sqrt(1 + B^2) with room for rounding, never below its exact value."""
    return bound_rows(np.empty((0, 1)), bound, constant=constant)[1].bound


def unit_ids(privacy_unit) -> tuple:
    """``(order, ids)`` for the privacy-unit column ``privacy_unit`` (one value per row, of any
    hashable type: integers, strings, tuples): a stable order of the rows that puts each unit's
    rows together, units in order of their first row, and the int64 id of each row in that
    order (0, 1, ... per unit): the library's order of units (``dpcov_gram_add_unit_rows``), the
    command line's too, so a seed keeps the same rows on both. The grouping is in memory, as the
    rows already are: O(n log n)."""
    values = _unit_values(privacy_unit)
    try:
        _, first, inverse = np.unique(values, return_index=True, return_inverse=True)
        # Units numbered by their first row, so that a dataset already grouped keeps its order.
        rank = np.empty(len(first), dtype=np.int64)
        rank[np.argsort(first, kind="stable")] = np.arange(len(first), dtype=np.int64)
        ids = rank[inverse.reshape(-1)]
    except TypeError:  # values numpy cannot order (mixed types): numbered by hashing instead
        codes: dict = {}
        ids = np.fromiter((codes.setdefault(v, len(codes)) for v in values), dtype=np.int64,
                          count=len(values))
    order = np.argsort(ids, kind="stable")
    return order, np.ascontiguousarray(ids[order], dtype=np.int64)


def check_unit_column(privacy_unit, rows: int) -> None:
    """Refuse a privacy-unit column that is not one value per row of the ``rows`` rows: a
    generator or iterator (which has no length and would be read once) or a column of another
    length, each in words that name what was given."""
    if not hasattr(privacy_unit, "__len__") or isinstance(privacy_unit, (str, bytes)):
        raise TypeError(f"privacy_unit must hold one value per row (a list, an array or a "
                        f"pandas Series), got {type(privacy_unit).__name__}")
    if len(privacy_unit) != rows:
        raise ValueError(f"privacy_unit has {len(privacy_unit)} values for {rows} rows")


def _unit_values(privacy_unit) -> np.ndarray:
    """The unit column as a 1-D array: as numpy reads it, or one object per row when numpy would
    read the values as a table (tuples)."""
    if isinstance(privacy_unit, np.ndarray):
        values = privacy_unit
    else:
        values = np.asarray(privacy_unit)
        if values.ndim != 1:
            values = np.empty(len(privacy_unit), dtype=object)
            for i, value in enumerate(privacy_unit):
                values[i] = value
    if values.ndim != 1:
        raise ValueError(f"privacy_unit must be one value per row, got shape {values.shape}")
    missing = _missing(values)
    if missing.any():
        # A missing id names no unit: taken as one unit or as one per row, it would merge people
        # or give one person several allowances of k rows.
        raise ValueError(f"privacy_unit is missing (None or NaN) at row "
                         f"{int(np.argmax(missing))} (0-based); every row needs its unit's id")
    return values


def _missing(values: np.ndarray) -> np.ndarray:
    """Where the ids ``values`` are missing: NaN in a float column; None, NaN or a pandas NA in
    an object column."""
    if values.dtype.kind == "f":
        return np.isnan(values)
    if values.dtype.kind != "O":
        return np.zeros(len(values), dtype=bool)
    return np.fromiter((v is None or (isinstance(v, float) and v != v) or
                        type(v).__name__ in ("NAType", "NaTType") for v in values),
                       dtype=bool, count=len(values))


def release_rows(mechanism, a, bound: float, epsilon: float, delta: float, rng, policy="clip",
                 numerics="exact", order: str = "C", privacy_unit=None, max_rows_per_unit=None,
                 **params):
    """Release ``mechanism`` from the raw rows of the 2-D array ``a``, bounded in norm by
    ``bound`` under ``policy`` by the library, through one :meth:`GramAccumulator.bounded` made
    for this release (the rows streamed into it, never held): exact numerics for
    ``"analyze_gauss"`` and ``"laplace_sym"`` unless ``numerics="idealized"``, idealized for
    every other mechanism; the receipt's ``numerics`` says which (1 exact, 0 idealized).
    ``params`` are the mechanism's options (:func:`dpcov.mechanism_params`), ``neighbour``
    included. Returns a :class:`~dpcov.Release`.

    ``privacy_unit``: None (every row its own unit), or one value per row naming its privacy
    unit (a person): then ``max_rows_per_unit`` (k, required) rows of each unit at most are kept,
    chosen at random with ``rng``, and the guarantee is on units, for the mechanisms whose
    registry entry names a unit proof (``"analyze_gauss"``, ``"laplace_sym"``,
    ``"inverse_gauss"`` at the unit bound; ``"wishart_additive"``, ``"jl_ridge"``,
    ``"inverse_wishart"`` by group privacy at a per-row budget; docs/privacy-units.md); the
    receipt's n is the number of units and its ``max_rows_per_unit`` is k."""
    m = _arrays.matrix(a, "a")
    neighbour = params.get("neighbour", "replace_one")
    if privacy_unit is not None:
        if max_rows_per_unit is None:
            raise ValueError("privacy_unit needs max_rows_per_unit (k, the rows kept per unit)")
        rows_order, ids = unit_ids(privacy_unit)
        if len(ids) != m.rows:
            raise ValueError(f"privacy_unit has {len(ids)} values for {m.rows} rows")
        with GramAccumulator.bounded(m.cols, bound, policy, neighbour, mechanism=mechanism,
                                     epsilon=epsilon, delta=delta, numerics=numerics,
                                     max_rows_per_unit=max_rows_per_unit) as gram:
            with rows_of_caller(lambda row: int(rows_order[row])):
                gram.add_unit_rows(np.asarray(a, dtype=np.float64)[rows_order], ids, rng)
            gram.finish_units()
            return gram.release(mechanism, epsilon, delta, rng, order=order, **params)
    with GramAccumulator.bounded(m.cols, bound, policy, neighbour, mechanism=mechanism,
                                 epsilon=epsilon, delta=delta, numerics=numerics) as gram:
        gram.add_raw_rows(a)
        return gram.release(mechanism, epsilon, delta, rng, order=order, **params)


class GramAccumulator(Handle):
    """Accumulates G = sum_i b(a_i) b(a_i)^T over chunks of rows (``dpcov_gram``).

    Each row is checked (NaN/Inf refused) and bounded in Euclidean norm by B under a
    :class:`~dpcov.types.BoundPolicy`; clipped and dropped rows are counted. Partial accumulators
    combine with :meth:`merge` (compensated sums: the result does not depend, beyond a few units
    in the last place, on how the rows were split). Memory is O(d^2) whatever the number of rows.

    Args:
        dim: number of columns d, 1 <= d <= 46340.
    """

    _destroy = staticmethod(C.dpcov_gram_destroy)

    def __init__(self, dim: int):
        """Create an empty accumulator (``dpcov_gram_create``)."""
        handle = c_void_p()
        _check(C.dpcov_gram_create(byref(handle), dim))
        super().__init__(handle)

    @classmethod
    def from_state(cls, matrix, rows: int, bound: float, clipped: int = 0,
                   dropped: int = 0) -> "GramAccumulator":
        """An accumulator holding a state summed elsewhere (``dpcov_gram_create_from_state``):
        the d x d Gram matrix ``matrix`` (read in place, copied by the library) of ``rows``
        rows bounded by ``bound``, with the clipped and dropped counters. The sums of G and of
        the counters over accumulators with one bound are the state of their merge, so partial
        results from other processes or machines combine into one accumulator.

        The library checks what such a matrix satisfies (symmetric, finite, diagonal >= 0,
        trace <= rows B^2) but not where it came from: privacy rests on every row behind it
        having been bounded, as :meth:`add_rows` does.
        """
        g = _arrays.square(matrix, "matrix")
        info = new_struct(GramInfoC)
        info.dim = g.rows
        info.rows = int(rows)
        info.clipped = int(clipped)
        info.dropped = int(dropped)
        info.bound = bound
        handle = c_void_p()
        _check(C.dpcov_gram_create_from_state(byref(handle), byref(info), g.layout, g.ptr, g.ld))
        return cls._adopt(handle)

    @classmethod
    def bounded(cls, cols: int, bound: float = 1.0, policy="clip", neighbour="replace_one",
                constant: float = 0.0, lower=None, upper=None, label_bound: float = 0.0,
                mechanism=None, epsilon: float = 1.0, delta: float = 1e-6,
                numerics="exact", max_rows_per_unit: int = 0,
                balanced: bool = False) -> "GramAccumulator":
        """An accumulator that bounds raw rows itself (``dpcov_gram_create_bounded``): add them
        with :meth:`add_raw_rows`. Rows of ``cols`` columns are [x] or, with ``label_bound`` > 0,
        [x, y]; x is bounded in norm by ``bound`` under ``policy``, y by |y| <= ``label_bound``;
        ``constant`` > 0 puts a column of that value in front; ``lower``/``upper`` (public
        per-column ranges) give rows [1, z] instead. ``policy="drop"`` is refused under
        ``neighbour="replace_one"``, where n is public. The accumulator's dimension and bound are
        those of the bounded rows (:meth:`info`).

        ``mechanism``, ``epsilon``, ``delta``: the release the rows are for. For
        ``"analyze_gauss"`` and ``"laplace_sym"`` the accumulator then has exact numerics by
        default (``info().numerics == 1``): the rows are rounded to that release's grid and summed
        in exact integers, and :meth:`release` (with the same budget and neighbour relation)
        releases with floating-point-safe noise; ``numerics="idealized"`` keeps the
        floating-point Gram matrix. Other mechanisms (and ``mechanism=None``) are idealized.

        ``max_rows_per_unit`` = k > 0: the rows belong to privacy units, added with
        :meth:`add_unit_rows`; at most k rows of each unit are kept and the accumulator's bound
        is the unit bound (docs/privacy-units.md).

        ``balanced=True`` (with ``constant`` 0 or 1): the bounded rows are
        [1, x sqrt(d) / B, y / B_y], the same whatever the units of x and y, so that a fit on them
        does not depend on the units; :func:`coefficient_factors` maps it back."""
        exact = numerics_value(numerics) == NUMERICS["exact"]
        if (mechanism is not None and exact and max_rows_per_unit == 0 and
                _has_exact_numerics(mechanism)):
            return cls._planned(cols, bound, policy, neighbour, constant, lower, upper,
                                label_bound, (mechanism, epsilon, delta), balanced)
        release = None if mechanism is None else (mechanism, epsilon, delta, numerics)
        spec, keep = _row_bounding(cols, bound, policy, neighbour, constant, lower, upper,
                                   label_bound, release, max_rows_per_unit, balanced)
        handle = _created(cols, spec)
        del keep
        return cls._adopt(handle)

    @classmethod
    def _planned(cls, cols, bound, policy, neighbour, constant, lower, upper, label_bound,
                 release, balanced=False) -> "GramAccumulator":
        """:meth:`bounded` with exact numerics, planned once (``dpcov/plan.h``): the plan of
        ``release`` (mechanism, epsilon, delta) at the bounded rows' d and bound searches the
        grid, the accumulator is made on it (``dpcov_gram_create_planned``), and :meth:`release`
        with the same release draws with its constants instead of planning again."""
        from .plan import Plan
        spec, keep = _row_bounding(cols, bound, policy, neighbour, constant, lower, upper,
                                   label_bound, balanced=balanced)
        # The bounded rows' d and norm bound, from an idealized accumulator of the same spec
        # (it plans nothing).
        with cls._adopt(_created(cols, spec)) as shape:
            info = shape.info()
        mechanism, epsilon, delta = release
        plan = Plan(mechanism, info.dim, 0, info.bound, epsilon, delta, exact=True,
                    neighbour=neighbour)
        handle = c_void_p()
        _check(C.dpcov_gram_create_planned(byref(handle), cols, byref(spec), plan))
        del keep
        gram = cls._adopt(handle)
        grid = plan.exact_grid()
        gram._grid = (grid.bits, info.bound)
        gram._plan = (plan, mechanism_id(mechanism), float(epsilon), float(delta),
                      enum_value(Neighbour, neighbour))
        return gram

    _grid = None  # (bits, bound) of an accumulator with exact numerics
    # (plan, mechanism id, epsilon, delta, neighbour) of an accumulator made on a plan
    _plan = None

    def kept_plan(self, mechanism, epsilon, delta, params):
        """The plan this accumulator was made on, if it is the plan of this release (the same
        mechanism, epsilon and delta, no parameter but the same neighbour), else None."""
        if self._plan is None or set(params) - {"neighbour"}:
            return None
        plan, kept_id, kept_epsilon, kept_delta, kept_neighbour = self._plan
        neighbour = enum_value(Neighbour, params.get("neighbour", "replace_one"))
        if (mechanism_id(mechanism), float(epsilon), float(delta), neighbour) != (
                kept_id, kept_epsilon, kept_delta, kept_neighbour):
            return None
        return plan

    def held_constant(self, value: float) -> float:
        """The value a constant column of ``value`` holds in the accumulated rows: ``value``, or
        with exact numerics ``value`` rounded to the grid as every coordinate is (to nearest,
        ties to even), so that the release's (const, const) entry estimates its square times n
        and the centring and the intercept divide by it."""
        if self._grid is None:
            return float(value)
        bits, bound = self._grid
        return exact_grid_value(bound, bits, value)

    @property
    def exact(self) -> bool:
        """Whether a release from this accumulator has exact numerics."""
        return self.info().numerics == NUMERICS["exact"]

    def add_raw_rows(self, a) -> "GramAccumulator":
        """Bound the raw rows of the 2-D array ``a`` as :meth:`bounded` said and add them
        (``dpcov_gram_add_raw_rows``). On a refused row the error (NonFiniteError,
        NormBoundError) has ``row``, the row's 0-based index in ``a``, and ``refusal``, the
        ``dpcov_row_refusal`` (label, norm_rest, norm_exponent); the accumulator is unchanged.
        Returns ``self``."""
        m = _arrays.matrix(a, "a")
        refusal = new_struct(RowRefusalC)
        _with_refusal(lambda: C.dpcov_gram_add_raw_rows(self, m.layout, m.rows, m.cols, m.ptr,
                                                        m.ld, byref(refusal)), refusal)
        return self

    def add_unit_rows(self, a, units, rng) -> "GramAccumulator":
        """Add the raw rows of ``a`` with the int64 ids of their privacy units (``units``, one
        per row: each unit's rows together, ids increasing across calls) to an accumulator made
        with ``max_rows_per_unit`` (``dpcov_gram_add_unit_rows``); ``rng`` is the release's
        generator, which picks the k rows kept of a larger unit. Call :meth:`finish_units` after
        the last rows. Returns ``self``."""
        m = _arrays.matrix(a, "a")
        ids = _arrays.int64_vector(units, "units")
        if ids.shape[0] != m.rows:
            raise ValueError(f"units must have one id per row: {m.rows} rows, {ids.shape[0]} ids")
        refusal = new_struct(RowRefusalC)
        _with_refusal(lambda: C.dpcov_gram_add_unit_rows(self, rng, m.layout, m.rows, m.cols,
                                                         m.ptr, m.ld, _arrays.ptr(ids),
                                                         byref(refusal)), refusal)
        return self

    def finish_units(self) -> "GramAccumulator":
        """Close the open privacy unit (``dpcov_gram_finish_units``), as a release or a merge
        needs. Returns ``self``."""
        _check(C.dpcov_gram_finish_units(self))
        return self

    @classmethod
    def _adopt(cls, handle: c_void_p) -> "GramAccumulator":
        """An accumulator owning a handle created by a C function."""
        obj = cls.__new__(cls)
        Handle.__init__(obj, handle)
        return obj

    def state(self) -> dict:
        """The exported state: ``{"matrix", "rows", "clipped", "dropped", "bound"}``, plain data
        that :meth:`from_state` turns back into an accumulator and that sums across partitions."""
        info = self.info()
        return {"matrix": self.matrix(), "rows": info.rows, "clipped": info.clipped,
                "dropped": info.dropped, "bound": info.bound}

    def to_bytes(self) -> bytes:
        """The accumulator's whole state as bytes (``dpcov_gram_export_state``): versioned,
        checksummed and little-endian, with the exact integers (or the floating-point sums), the
        counters, the drop policy and the bounding spec, so that :meth:`from_bytes` in another
        process continues it and merges of such states equal one accumulator of all the rows
        (bit for bit with exact numerics). Not a release: the curator's statistic."""
        size = c_size_t()
        _check(C.dpcov_gram_export_state(self, None, 0, byref(size)))
        buf = create_string_buffer(size.value)
        _check(C.dpcov_gram_export_state(self, buf, size.value, byref(size)))
        return buf.raw[:size.value]

    @classmethod
    def from_bytes(cls, data) -> "GramAccumulator":
        """The accumulator :meth:`to_bytes` wrote (``dpcov_gram_import_state``); refuses bytes
        that are not such a state, of another format or library version, truncated or
        corrupted."""
        data = bytes(data)
        handle = c_void_p()
        _check(C.dpcov_gram_import_state(byref(handle), data, len(data)))
        return cls._adopt(handle)

    def __reduce__(self):
        # Pickling (e.g. to move a partial accumulator between Dask worker processes) goes
        # through the saved state, exact integers and spec included.
        """Pickle through :meth:`to_bytes`."""
        return (GramAccumulator.from_bytes, (self.to_bytes(),))

    def add_rows(self, a, bound: float, policy="clip") -> "GramAccumulator":
        """Add the rows of the 2-D array ``a`` (any row count, ``dim`` columns, row- or
        column-major, read in place) with norm bound ``bound`` (``dpcov_gram_add_rows``).

        ``policy`` is ``"clip"`` (default), ``"reject"`` or ``"drop"`` (or a
        :class:`~dpcov.types.BoundPolicy`). The whole chunk is validated first: on any error the
        accumulator is exactly as it was. Returns ``self``.
        """
        m = _arrays.matrix(a, "a")
        _check(C.dpcov_gram_add_rows(self, m.layout, m.rows, m.cols, m.ptr, m.ld, bound,
                                     enum_value(BoundPolicy, policy)))
        return self

    def merge(self, other: "GramAccumulator") -> "GramAccumulator":
        """Add everything ``other`` accumulated to this accumulator (``dpcov_gram_merge``);
        ``other`` is unchanged. Returns ``self``."""
        _check(C.dpcov_gram_merge(self, other))
        return self

    def matrix(self, order: str = "C"):
        """G as a new d x d array in ``order`` ("C" or "F"), exactly symmetric
        (``dpcov_gram_get_matrix``)."""
        info = self.info()
        out = _arrays.empty(info.dim, info.dim, _arrays.order_layout(order))
        _check(C.dpcov_gram_get_matrix(self, out.layout, out.ptr, out.ld))
        return out.array

    def info(self) -> GramInfo:
        """The counters: dim, rows, clipped, dropped, bound (``dpcov_gram_get_info``)."""
        info = new_struct(GramInfoC)
        _check(C.dpcov_gram_get_info(self, byref(info)))
        return GramInfo(info)

    @property
    def dim(self) -> int:
        """Number of columns d."""
        return self.info().dim

    @property
    def rows(self) -> int:
        """Rows included in G (clipped included, dropped not)."""
        return self.info().rows

    def release(self, mechanism, epsilon: float, delta: float, rng, order: str = "C",
                **params):
        """Release ``mechanism`` applied to this accumulator's G; see
        :func:`dpcov.mechanism.release_gram`."""
        return release_gram(mechanism, self, epsilon, delta, rng, order=order, **params)
