"""The row-level budget of a release of privacy units by group privacy (dpcov/unit_budget.h;
proofs/unit_group_privacy.md): a unit of at most k rows is k row steps (added or removed; its rows
all replaced under replace-one with units padded to k rows) or 2 k (replaced, a mechanism private
under add/remove), and the mechanism runs at epsilon / m, delta / sum_{i<m} e^{i epsilon / m} or
rho / m^2."""

from __future__ import annotations

from ctypes import byref, c_double

from ._lib import C, _check
from .adassp import NEIGHBOURS, _choice


def _relation(value, name: str) -> int:
    return _choice(value, NEIGHBOURS, name)


def unit_row_budget(unit_neighbour, row_neighbour, max_rows_per_unit: int, epsilon: float,
                    delta: float) -> tuple[float, float]:
    """(epsilon_r, delta_r) a row-level mechanism runs at so that the release is (epsilon,
    delta)-DP for units of at most ``max_rows_per_unit`` rows (``dpcov_unit_row_budget``).
    Relations as ``"replace_one"``/``"add_remove"`` or ``Neighbour`` values."""
    row_epsilon, row_delta = c_double(), c_double()
    _check(C.dpcov_unit_row_budget(_relation(unit_neighbour, "unit_neighbour"),
                                   _relation(row_neighbour, "row_neighbour"),
                                   max_rows_per_unit, epsilon, delta,
                                   byref(row_epsilon), byref(row_delta)))
    return row_epsilon.value, row_delta.value


def unit_row_rho(unit_neighbour, row_neighbour, max_rows_per_unit: int, rho: float) -> float:
    """rho_r = rho / m^2 a zCDP mechanism on rows runs at so that the release is rho-zCDP for
    units of at most ``max_rows_per_unit`` rows (``dpcov_unit_row_rho``; Bun-Steinke 2016,
    Prop. 27)."""
    out = c_double()
    _check(C.dpcov_unit_row_rho(_relation(unit_neighbour, "unit_neighbour"),
                                _relation(row_neighbour, "row_neighbour"),
                                max_rows_per_unit, rho, byref(out)))
    return out.value
