"""The library's mechanism registry (dpcov/mechanism.h, ``dpcov_mechanism_info``): what each
mechanism is, read from the library rather than probed."""

from __future__ import annotations

from ctypes import byref
from dataclasses import dataclass

from ._generated import (DPCOV_MECHANISM_NEIGHBOURS_ADD_REMOVE,
                         DPCOV_MECHANISM_NEIGHBOURS_REPLACE_ONE, DPCOV_MECHANISM_NUMERICS_EXACT,
                         DPCOV_MECHANISM_NUMERICS_IDEALIZED, MechanismFamily, MechanismInference,
                         MechanismInput, MechanismOption, MechanismOutput, MechanismPrivacy)
from ._lib import C, MechanismEntryC, _check, new_struct


def _names(values) -> dict:
    """The lower-case name of each value of a generated enum (or bit of a bit set)."""
    return {member.value: member.name.lower() for member in values}


_FAMILIES = _names(MechanismFamily)
_PRIVACY_MODELS = _names(MechanismPrivacy)
_INPUTS = _names(MechanismInput)
_OUTPUTS = _names(MechanismOutput)
_NEIGHBOURS = ((DPCOV_MECHANISM_NEIGHBOURS_REPLACE_ONE, "replace_one"),
               (DPCOV_MECHANISM_NEIGHBOURS_ADD_REMOVE, "add_remove"))
_NUMERICS = ((DPCOV_MECHANISM_NUMERICS_IDEALIZED, "idealized"),
             (DPCOV_MECHANISM_NUMERICS_EXACT, "exact"))
_OPTIONS = tuple(_names(MechanismOption).items())
_INFERENCE = tuple(_names(MechanismInference).items())


@dataclass(frozen=True)
class MechanismInfo:
    """One registry entry (``dpcov_mechanism_entry``), its enums and bit sets as names."""

    id: int
    name: str
    family: str
    privacy_model: str
    neighbours: tuple[str, ...]
    numerics: tuple[str, ...]
    input: str
    output: str
    theorem: str
    exact_theorem: str
    proof: str
    header: str
    unit_proof: str  # the proof at the level of privacy units, "" for row level only
    options: tuple[str, ...]  # the mechanism-specific options it reads (dpcov_mechanism_option)
    audit_dataset: int  # the standard audit's pair for dpcov_audit_run, -1 where it has none
    audit_neighbour_kind: int
    summary: str  # one line: what it releases
    preconditions: str  # one line, in words
    # The inference its release supports (dpcov_mechanism_inference).
    inference: tuple[str, ...] = ()
    # Why it is refused with privacy units, "" when ``unit_proof`` names a proof.
    unit_refusal: str = ""


def _info(entry: MechanismEntryC) -> MechanismInfo:
    return MechanismInfo(
        id=entry.id, name=entry.name.decode(), family=_FAMILIES[entry.family],
        privacy_model=_PRIVACY_MODELS[entry.privacy_model],
        neighbours=tuple(n for bit, n in _NEIGHBOURS if entry.neighbours & bit),
        numerics=tuple(n for bit, n in _NUMERICS if entry.numerics & bit),
        input=_INPUTS[entry.input], output=_OUTPUTS[entry.output],
        theorem=entry.theorem.decode(), exact_theorem=entry.exact_theorem.decode(),
        proof=entry.proof.decode(), header=entry.header.decode(),
        unit_proof=entry.unit_proof.decode(),
        options=tuple(n for bit, n in _OPTIONS if entry.options & bit),
        audit_dataset=entry.audit_dataset, audit_neighbour_kind=entry.audit_neighbour_kind,
        summary=entry.summary.decode(), preconditions=entry.preconditions.decode(),
        inference=tuple(n for bit, n in _INFERENCE if entry.inference & bit),
        unit_refusal=entry.unit_refusal.decode())


def mechanisms() -> list[MechanismInfo]:
    """Every mechanism the library releases, in id order (``dpcov_mechanism_count`` entries of
    ``dpcov_mechanism_info``)."""
    out = []
    for index in range(C.dpcov_mechanism_count()):
        entry = new_struct(MechanismEntryC)
        _check(C.dpcov_mechanism_info(index, byref(entry)))
        out.append(_info(entry))
    return out


def mechanism_info(mechanism: int) -> MechanismInfo:
    """The registry entry of a mechanism id (``dpcov_mechanism_info_by_id``);
    ``InvalidArgumentError`` for an id the library does not know."""
    entry = new_struct(MechanismEntryC)
    _check(C.dpcov_mechanism_info_by_id(mechanism, byref(entry)))
    return _info(entry)
