"""The C ABI as the public headers declare it, read with libclang into plain data."""

from __future__ import annotations

import dataclasses
import re

# The C types the ABI is allowed to use (conventions: <stdint.h>/<stddef.h> only), by spelling.
SCALARS = ("double", "int32_t", "int64_t", "uint64_t", "size_t", "char", "uint8_t")


@dataclasses.dataclass(frozen=True)
class CType:
    """One C type: a scalar (``name`` among SCALARS), ``void``, a struct (``name`` its tag,
    ``opaque`` when the headers never define it), a pointer to ``target`` or an array of
    ``length`` ``target`` (``length_name`` the macro that spells it in the header, if any)."""

    kind: str
    name: str = ""
    const: bool = False
    target: "CType | None" = None
    opaque: bool = False
    length: int = 0
    length_name: str = ""


@dataclasses.dataclass
class Param:
    name: str
    type: CType
    doc: str
    direction: str = ""  # Doxygen's [in], [out] or [in,out], if stated


@dataclasses.dataclass
class Function:
    header: str
    name: str
    result: CType
    params: list
    comment: str  # the Doxygen block, without comment markers


@dataclasses.dataclass
class Struct:
    header: str
    name: str
    fields: list


@dataclasses.dataclass
class Constant:
    header: str
    name: str
    value: object
    enum: str  # the enum's tag, or "" for a #define


@dataclasses.dataclass
class Enum:
    header: str
    name: str
    brief: str  # the first sentence of its Doxygen block
    members: list  # Constant


@dataclasses.dataclass
class Api:
    headers: list
    constants: list
    structs: list
    functions: list
    enums: list


def _ctype(ci, t, length_name="") -> CType:
    const = t.is_const_qualified()
    kind = t.kind
    if kind == ci.TypeKind.POINTER:
        return CType("pointer", const=const, target=_ctype(ci, t.get_pointee()))
    if kind in (ci.TypeKind.CONSTANTARRAY,):
        return CType("array", target=_ctype(ci, t.element_type), length=t.element_count,
                     length_name=length_name)
    spelling = re.sub(r"\bconst\b", "", t.spelling).strip()
    if spelling in SCALARS:
        return CType("scalar", spelling, const)
    if kind == ci.TypeKind.VOID:
        return CType("void", "void", const)
    if kind in (ci.TypeKind.ELABORATED, ci.TypeKind.TYPEDEF, ci.TypeKind.RECORD,
                ci.TypeKind.ENUM):
        canonical = t.get_canonical()
        if canonical.kind == ci.TypeKind.ENUM:  # a C enum object is an int: int32_t here
            return CType("scalar", "int32_t", const)
        if canonical.kind == ci.TypeKind.RECORD:
            decl = canonical.get_declaration()
            return CType("struct", decl.spelling, const, opaque=decl.get_definition() is None)
        if kind == ci.TypeKind.TYPEDEF or t.get_declaration().kind == ci.CursorKind.TYPEDEF_DECL:
            inner = _ctype(ci, t.get_declaration().underlying_typedef_type)
            return dataclasses.replace(inner, const=const or inner.const)
    raise ValueError(f"unsupported C type in the public headers: {t.spelling}")


def _comment_text(raw: str | None) -> str:
    """A Doxygen block without its comment markers."""
    if not raw:
        return ""
    text = re.sub(r"^\s*/\*\*<?|\*/\s*$", "", raw, flags=re.M)
    return re.sub(r"^\s*\*(?!/) ?", "", text, flags=re.M)


def _brief(raw: str | None) -> str:
    """The first sentence of a Doxygen block."""
    text = " ".join(_comment_text(raw).split())
    text = re.sub(r"(\w)::(\w)", r"\1.\2", text).replace("::", "")
    return re.split(r"(?<=\.)\s", text, 1)[0].rstrip(".") if text else ""


def _param_docs(raw: str | None) -> dict:
    """@param name -> (direction, text) of a function's Doxygen block."""
    docs = {}
    pattern = (r"@param(\[[a-z, ]+\])?\s+(\w+)\s+(.*?)"
               r"(?=@param|@return|@retval|@note|@see|@proof|@warning|@pre|\Z)")
    for m in re.finditer(pattern, _comment_text(raw), re.S):
        docs[m.group(2)] = ((m.group(1) or "").strip("[]").replace(" ", ""),
                            " ".join(m.group(3).split()))
    return docs


def _macro_value(tokens: list):
    """The number a ``#define NAME <literal>`` or ``(-<literal>)`` stands for, else None."""
    body = [t for t in tokens[1:] if t not in ("(", ")")]
    text = "".join(body)
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    if re.fullmatch(r"-?\d+\.\d*(e[+-]?\d+)?", text, re.I):
        return float(text)
    return None


def _array_length_name(cursor) -> str:
    names = [t.spelling for t in cursor.get_tokens() if t.spelling.startswith("DPCOV_")]
    return names[0] if names else ""


def _header_order(umbrella) -> list:
    """The umbrella's headers in its order, then any it reaches only through them, by name."""
    listed = re.findall(r'#include "dpcov/(\w+\.h)"', umbrella.read_text())
    others = sorted(p.name for p in (umbrella.parent / "dpcov").glob("*.h") if p.name not in listed)
    return listed + others


def read_api(ci, include_dir) -> Api:
    """Every constant, enum, struct and function of ``include_dir/dpcov.h``."""
    umbrella = include_dir / "dpcov.h"
    headers = _header_order(umbrella)
    unit = ci.Index.create().parse(
        str(umbrella), args=["-x", "c", "-std=c99", f"-I{include_dir}"],
        options=ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD)
    errors = [str(d) for d in unit.diagnostics if d.severity >= ci.Diagnostic.Error]
    if errors:
        raise SystemExit("generate-bindings: the headers do not parse:\n" + "\n".join(errors))
    api = Api(headers, [], [], [], [])
    for cursor in unit.cursor.get_children():
        location = cursor.location.file
        name = location.name.replace("\\", "/") if location else ""
        header = name.rsplit("/", 1)[-1]
        if "/dpcov/" in name and header in headers:
            _read_cursor(ci, api, header, cursor)
    # Structs stay in the order C defines them (a struct may hold an earlier one); the rest is
    # grouped by header, in the umbrella's order.
    for items in (api.constants, api.enums, api.functions):
        items.sort(key=lambda item: headers.index(item.header))
    return api


def _read_cursor(ci, api, header, cursor) -> None:
    kind = cursor.kind
    if kind == ci.CursorKind.MACRO_DEFINITION and cursor.spelling.startswith("DPCOV_"):
        value = _macro_value([t.spelling for t in cursor.get_tokens()])
        if value is not None:
            api.constants.append(Constant(header, cursor.spelling, value, ""))
    elif kind == ci.CursorKind.ENUM_DECL and cursor.is_definition():
        members = [Constant(header, m.spelling, m.enum_value, cursor.spelling)
                   for m in cursor.get_children()]
        api.constants += members
        api.enums.append(Enum(header, cursor.spelling, _brief(cursor.raw_comment), members))
    elif kind == ci.CursorKind.STRUCT_DECL and cursor.is_definition() and not any(
            s.name == cursor.spelling for s in api.structs):
        fields = [Param(f.spelling, _ctype(ci, f.type, _array_length_name(f)), "")
                  for f in cursor.get_children() if f.kind == ci.CursorKind.FIELD_DECL]
        api.structs.append(Struct(header, cursor.spelling, fields))
    elif kind == ci.CursorKind.TYPEDEF_DECL:
        for child in cursor.get_children():
            _read_cursor(ci, api, header, child)
    # A function defined in a header is a static inline convenience over an export (the
    # `*_default` initialisers): the library has no such symbol for a binding to load.
    elif (kind == ci.CursorKind.FUNCTION_DECL and cursor.spelling.startswith("dpcov_")
          and not cursor.is_definition()):
        docs = _param_docs(cursor.raw_comment)
        params = []
        for a in cursor.get_arguments():
            direction, doc = docs.get(a.spelling, ("", ""))
            params.append(Param(a.spelling, _ctype(ci, a.type), doc, direction))
        api.functions.append(Function(header, cursor.spelling, _ctype(ci, cursor.result_type),
                                      params, _comment_text(cursor.raw_comment)))
