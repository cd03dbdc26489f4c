"""Enumerations of the C ABI and Python views of its result structs (receipts, counters, ...)."""

from __future__ import annotations

import ctypes
from ctypes import byref

# The C enums, generated from the headers (dpcov/_generated.py) and re-exported here.
from ._generated import (AuditDataset, AuditFinding, AuditNeighbour, AuditNoise,
                         AuditRowsMechanism, AuditVerdict, BlackBoxStatistic, BoundPolicy,
                         BudgetSplit, Calibration, GlassoStart, LambdaMinScope, Layout, Mechanism,
                         Neighbour, SensitivityNorm)
from ._generated import DPCOV_RECEIPT_N_WITHHELD, Generator
from ._lib import C, ReceiptC, ReceiptPrefixC


def mechanism_name(mechanism: int) -> str:
    """The library's name of a mechanism id (``dpcov_mechanism_name``), ``"unknown"`` if none."""
    return C.dpcov_mechanism_name(mechanism).decode()


_MECHANISM_IDS: dict[str, int] = {}


def mechanism_id(mechanism) -> int:
    """A mechanism id from a :class:`Mechanism`, an int, or a name such as ``"analyze_gauss"``
    (the library's ``dpcov_mechanism_name``, or the enum member's name in any case).

    Unknown names raise ``KeyError``; unknown numbers are passed on for the library to refuse.
    """
    if isinstance(mechanism, str):
        if not _MECHANISM_IDS:
            for m in Mechanism:
                _MECHANISM_IDS[mechanism_name(m)] = int(m)
                _MECHANISM_IDS[m.name.lower()] = int(m)
        key = mechanism.strip().lower()
        try:
            return _MECHANISM_IDS[key]
        except KeyError:
            raise KeyError(f"unknown mechanism name {mechanism!r}; known: "
                           + ", ".join(mechanism_name(m) for m in Mechanism)) from None
    return int(mechanism)


def enum_value(enum_cls, value) -> int:
    """An enum field's integer from a member, an int, or a member name (case-insensitive, '-' for
    '_' as the command line spells it: "add-remove")."""
    if isinstance(value, str):
        try:
            return int(enum_cls[value.strip().upper().replace("-", "_")])
        except KeyError:
            names = ", ".join(repr(m.name.lower()) for m in enum_cls)
            raise ValueError(f"{enum_cls.__name__} must be one of {names}, got "
                             f"{value!r}") from None
    return int(value)


def struct_fields(struct, names=None) -> dict:
    """The fields ``names`` of a ctypes struct (all but ``struct_size`` when None), in C order,
    char arrays as ``str``: how every receipt view and receipt dict reads its struct, so the
    common prefix (:data:`RECEIPT_PREFIX_FIELDS`) has the same keys, order and values in each."""
    out = {}
    for field, _ in struct._fields_:
        if field == "struct_size" or (names is not None and field not in names):
            continue
        value = getattr(struct, field)
        out[field] = value.decode("utf-8", "replace") if isinstance(value, bytes) else value
    return out


_PLAIN_FIELDS: dict = {}


def _plain_fields(struct_type) -> frozenset:
    """The fields of a ctypes struct type that read as a number or a char array (``bytes``),
    which :func:`struct_fields` returns as they are or decoded; empty for None."""
    names = _PLAIN_FIELDS.get(struct_type)
    if names is None:
        fields = getattr(struct_type, "_fields_", ())
        names = frozenset(field for field, ctype in fields if field != "struct_size" and (
            issubclass(ctype, ctypes._SimpleCData)
            or (issubclass(ctype, ctypes.Array) and ctype._type_ is ctypes.c_char)))
        _PLAIN_FIELDS[struct_type] = names
    return names


class StructView:
    """Read-only Python view of a C result struct: attribute access, :meth:`to_dict`, equality.

    ``struct_size`` is dropped; char arrays become ``str``. The fields are converted from the
    ctypes struct on first use, so a view that is never read costs nothing.
    """

    __slots__ = ("_struct", "_extra", "_cache")

    # The ctypes struct a view passes back to C (a receipt), rebuilt from the fields when the view
    # is unpickled; None for a view that is only read.
    _struct_type = None

    def __init__(self, struct=None, **values):
        """Wrap ``struct`` (a ctypes result struct, or None) and extra ``values``."""
        object.__setattr__(self, "_struct", struct)
        object.__setattr__(self, "_extra", values)
        object.__setattr__(self, "_cache", None)

    def _derived(self, data: dict) -> None:
        """Subclasses add computed fields to ``data``."""

    @property
    def _values(self) -> dict:
        """The fields as a dict, converted from the struct once."""
        cache = self._cache
        if cache is None:
            cache = {}
            struct = self._struct
            if struct is not None:
                cache.update(struct_fields(struct))
            cache.update(self._extra)
            self._derived(cache)
            object.__setattr__(self, "_cache", cache)
        return cache

    def __getattr__(self, name):
        """A field by attribute name. A number or string field of the struct is read on its own
        until the view is converted whole: a caller that reads one field of a receipt (its
        proposals, its sigma) skips converting all fifty (about 25 us, 2% of a release at
        d = 50)."""
        if self._cache is None and name in _plain_fields(type(self._struct)) \
                and name not in self._extra:
            value = getattr(self._struct, name)
            return value.decode("utf-8", "replace") if isinstance(value, bytes) else value
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"{type(self).__name__} has no field {name!r}") from None

    def __setattr__(self, name, value):
        """Views are read-only."""
        raise AttributeError(f"{type(self).__name__} is read-only")

    def __getitem__(self, name):
        """A field by key."""
        return self._values[name]

    def __iter__(self):
        """The field names."""
        return iter(self._values)

    def __eq__(self, other):
        """Equal when of the same type with equal fields."""
        return type(self) is type(other) and self._values == other._values

    def __hash__(self):
        """Hash of the fields."""
        return hash(tuple(sorted(self._values.items())))

    def __repr__(self):
        """The view with every field."""
        inner = ", ".join(f"{k}={v!r}" for k, v in self._values.items())
        return f"{type(self).__name__}({inner})"

    def __reduce__(self):
        """Pickle as the fields."""
        return (_rebuild_view, (type(self), self.to_dict()))

    def keys(self):
        """Field names, in C order."""
        return self._values.keys()

    def to_dict(self) -> dict:
        """The fields as a plain dict (a copy)."""
        return dict(self._values)


def _rebuild_view(cls, values):
    """Unpickle a view from its fields, with its struct rebuilt where C reads it again (a
    receipt: the intervals of an unpickled estimator read its release's receipt)."""
    struct_type = cls._struct_type
    if struct_type is None:
        return cls(None, **values)
    from ._lib import new_struct
    struct = new_struct(struct_type)
    fields = _plain_fields(struct_type)
    for field in fields:
        value = values[field]
        setattr(struct, field, value.encode("utf-8") if isinstance(value, str) else value)
    return cls(struct, **{k: v for k, v in values.items() if k not in fields})


class PrefixedReceipt(StructView):
    """A view of a receipt of any family: its fields start with the common prefix
    (:data:`RECEIPT_PREFIX_FIELDS`), to which it adds ``mechanism_name`` and ``generator_name``
    ("none" in a plan, "pcg64" for a seed, "chacha20" from OS entropy)."""

    __slots__ = ()

    _GENERATOR_NAMES = {int(g): g.name.lower() for g in Generator}

    def _derived(self, data: dict) -> None:
        """Add the mechanism and generator names to the fields."""
        if "mechanism" in data and "mechanism_name" not in data:
            data["mechanism_name"] = mechanism_name(data["mechanism"])
        if "generator" in data and "generator_name" not in data:
            data["generator_name"] = self._GENERATOR_NAMES.get(data["generator"], "unknown")


class Receipt(PrefixedReceipt):
    """A ``dpcov_receipt``: which mechanism ran under which theorem, the privacy spent and every
    constant it derived. Fields as in dpcov/receipt.h (``sigma``, ``scale``, ``dof``,
    ``theorem``, ``generator``, ``numerics``, ...), plus ``mechanism_name``,
    ``generator_name`` ("none" in a plan, "pcg64" for a seed, "chacha20" from OS entropy),
    ``differentially_private`` (False for a mechanism known not to be, and for a seeded release:
    anyone who knows the seed can remove its noise) and ``privacy_claim`` (the same in words:
    "reproducible: not private if the seed is known" for a seeded release)."""

    __slots__ = ()
    _struct_type = ReceiptC

    def _derived(self, data: dict) -> None:
        """Add the names and the privacy claim to the fields."""
        super()._derived(data)
        if "not_dp" in data and "seed_fixed" in data and "privacy_claim" not in data:
            seeded = bool(data["seed_fixed"])
            data["differentially_private"] = not data["not_dp"] and not seeded
            data["privacy_claim"] = ("not private: known counterexample" if data["not_dp"] else
                                     "reproducible: not private if the seed is known" if seeded
                                     else "plan: nothing released" if not data.get("generator")
                                     else "private")

    def public(self) -> "Receipt":
        """The part of this receipt that may be published (``dpcov_receipt_public``): ``n`` is
        ``RECEIPT_N_WITHHELD`` (-1) under add/remove neighbours, where n is private, and the Bingham
        proposal counts are 0. A release's own receipt is the curator's: publish this one."""
        from ._lib import ReceiptC, _check, new_struct
        shown = new_struct(ReceiptC)
        _check(C.dpcov_receipt_public(self.to_struct(), shown))
        return Receipt(shown)

    def to_struct(self):
        """A ``dpcov_receipt`` ctypes struct with these fields."""
        from ._lib import ReceiptC, new_struct
        full = new_struct(ReceiptC)
        for field, _ in ReceiptC._fields_:
            if field != "struct_size":
                value = self._values[field]
                setattr(full, field, value.encode("utf-8") if isinstance(value, str) else value)
        return full


RECEIPT_PREFIX_FIELDS = tuple(name for name, _ in ReceiptPrefixC._fields_ if name != "struct_size")
"""The members every receipt family starts with (``dpcov_receipt_prefix``), in order."""


def receipt_prefix(struct) -> dict:
    """The common prefix of any family's receipt struct (``dpcov_receipt_prefix``): mechanism,
    privacy_model, neighbour, numerics, generator, seed_fixed, epsilon, delta, rho, bound, n,
    theorem, with the same keys and values for every family. Read by
    ``dpcov_receipt_prefix_of``, which checks them."""
    from ._lib import _check, new_struct
    out = new_struct(ReceiptPrefixC)
    _check(C.dpcov_receipt_prefix_of(byref(struct), out))
    return struct_fields(out)


RECEIPT_N_WITHHELD = DPCOV_RECEIPT_N_WITHHELD
"""``DPCOV_RECEIPT_N_WITHHELD``: the n of a public receipt when n is private (add/remove)."""


class GramInfo(StructView):
    """``dpcov_gram_info``: dim, rows, clipped, dropped, bound, clamped and numerics (0
    idealized, 1 exact: what a release from it uses) of an accumulator or sketch."""

    __slots__ = ()


class RegressionSummary(StructView):
    """``dpcov_regression_summary``: num_coefficients, dof, rss, residual_variance, t_critical,
    rss_clamped."""

    __slots__ = ()


class GlassoInfo(StructView):
    """``dpcov_glasso_info``: iterations, kkt_residual, duality_gap, start."""

    __slots__ = ()


class SupportRecovery(StructView):
    """``dpcov_support_recovery``: confusion counts, precision and recall of an edge set."""

    __slots__ = ()


class AuditResult(StructView):
    """``dpcov_audit_result``: verdict, findings and the statistics of an audit."""

    __slots__ = ()

    @property
    def violation(self) -> bool:
        """True if the audit found a violation of the claimed guarantee."""
        return self._values["verdict"] == AuditVerdict.VIOLATION


class BlackBoxResult(StructView):
    """``dpcov_black_box_result``: verdict and the bounds of a black-box audit."""

    __slots__ = ()

    @property
    def violation(self) -> bool:
        """True if the audit found a violation of the claimed guarantee."""
        return self._values["verdict"] == AuditVerdict.VIOLATION


class CoinpressMeanAuditResult(StructView):
    """``dpcov_coinpress_mean_audit_result``: verdict, findings and bounds of the exact audit of
    CoinPress mean estimation."""

    __slots__ = ()

    @property
    def violation(self) -> bool:
        """True if the audit found a violation of the claimed guarantee."""
        return self._values["verdict"] == AuditVerdict.VIOLATION


class RowsExactAuditResult(StructView):
    """``dpcov_rows_exact_audit_result``: verdict, findings and bounds of the exact-density audit
    of a Gaussian release on the rows."""

    __slots__ = ()

    @property
    def violation(self) -> bool:
        """True if the audit found a violation of the claimed guarantee."""
        return self._values["verdict"] == AuditVerdict.VIOLATION
