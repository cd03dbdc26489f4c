"""Every dpcov_* function declared in the public headers is wrapped or listed as not wrapped."""

import re

from conftest import BINDING_DIR, REPO_DIR
from dpcov import WRAPPED_FUNCTIONS

DECLARATION = re.compile(r"DPCOV_API[^;(]*?\b(dpcov_\w+)\s*\(")


def declared_functions():
    names = set()
    for header in (REPO_DIR / "capi" / "include" / "dpcov").glob("*.h"):
        names.update(DECLARATION.findall(header.read_text()))
    return names


def not_wrapped():
    names = set()
    for line in (BINDING_DIR / "not_wrapped.txt").read_text().splitlines():
        name = line.split("#", 1)[0].strip()
        if name:
            names.add(name)
    return names


def test_every_public_function_is_wrapped_or_listed():
    declared = declared_functions()
    assert len(declared) > 60
    assert declared - WRAPPED_FUNCTIONS - not_wrapped() == set()


def test_the_binding_declares_no_function_the_headers_lack():
    assert WRAPPED_FUNCTIONS - declared_functions() == set()


def test_every_wrapped_function_is_called_by_a_public_module():
    """The prototype table alone does not count: each name must appear in the module that uses
    it, so the shared source check finds a real call site."""
    sources = "".join(p.read_text() for p in (BINDING_DIR / "dpcov").glob("*.py")
                      if p.name not in ("_lib.py", "_generated.py"))
    missing = sorted(name for name in WRAPPED_FUNCTIONS
                     if not re.search(rf"C\.{name}\b", sources))
    assert missing == []
