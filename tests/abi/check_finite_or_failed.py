"""Every export that writes doubles to caller memory has a finite-or-failed property test.

The contract (docs/error-model.md): an entry point never returns DPCOV_OK with a non-finite value and
leaves its outputs untouched on error. An exported function writes doubles to caller memory when
its prototype in the public headers (capi/include) has a non-const `double *` parameter or a
non-const pointer to a struct with a double field (a receipt, summary, result, info or params).
Each such function must occur as a whole word in a finite-or-failed property test (a
tests/property/*.cpp whose opening comment says "finite or failed", the tests that call it at
extreme scales and check OK => every output finite, failure => canary untouched), or be listed in
tests/property/not_finite_checked.txt as `name  # reason`. Stale, repeated or unexplained entries
are errors, as for the bindings' not_wrapped.txt (the same reader). A new export fails this check
until a property test covers it, and an export missing from the headers is an error too (the
header reader would have missed it).

Usage: check_finite_or_failed.py LIBRARY SOURCE_ROOT
"""
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "bindings"))
from check_wrapped import exported_functions, list_problems, read_not_wrapped  # noqa: E402


def prototypes(include_dir):
    """Maps each DPCOV_API function of the headers to its parameters that write doubles."""
    text = "\n".join(p.read_text() for p in sorted(include_dir.rglob("*.h")))
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    with_double = {m.group(2) for m in re.finditer(
        r"typedef\s+struct\s+\w*\s*\{([^{}]*)\}\s*(\w+)\s*;", text)
        if re.search(r"\bdouble\b", m.group(1))}
    result = {}
    for m in re.finditer(r"DPCOV_API\s+[\w\s*]+?\b(dpcov_\w+)\s*\(([^)]*)\)\s*;", text):
        writes = []
        for param in m.group(2).split(","):
            param = " ".join(param.split())
            pointee = param.split("*")[0] if "*" in param else ""
            if not pointee or "const" in pointee.split():
                continue
            if pointee.split()[-1] == "double" or pointee.split()[-1] in with_double:
                writes.append(param)
        result[m.group(1)] = writes
    return result


def opening_comment(path):
    """The leading // lines of a source file, joined."""
    lines = []
    for line in path.read_text(errors="replace").splitlines():
        if not line.startswith("//"):
            break
        lines.append(line[2:])
    return " ".join(" ".join(lines).split())


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    library, root = sys.argv[1], pathlib.Path(sys.argv[2])
    exported = exported_functions(library)
    if not exported:
        sys.exit(f"FAILED: {library} exports no dpcov_* function")
    declared = prototypes(root / "capi" / "include")
    errors = [f"{name} is exported but no prototype in capi/include declares it"
              for name in sorted(exported - set(declared))]
    writers = {name for name in exported if declared.get(name)}
    tests = [p for p in sorted((root / "tests" / "property").glob("*.cpp"))
             if re.search(r"finite or failed", opening_comment(p), re.I)]
    text = "\n".join(p.read_text(errors="replace") for p in tests)
    covered = {name for name in writers if re.search(r"\b" + re.escape(name) + r"\b", text)}
    list_path = root / "tests" / "property" / "not_finite_checked.txt"
    listed = read_not_wrapped(list_path, errors)
    for name in sorted(set(listed) & (exported - writers)):
        errors.append(f"{list_path}: {name} writes no double to caller memory (stale)")
    checked = {name: reason for name, reason in listed.items() if name not in exported - writers}
    errors += list_problems(writers, covered, checked, list_path,
                            "called by no finite-or-failed property test (tests/property/)",
                            "covered by a finite-or-failed property test")
    print(f"finite or failed: {len(writers)} of {len(exported)} exports write doubles; "
          f"{len(covered)} covered by {len(tests)} property tests "
          f"({', '.join(p.name for p in tests)}), {len(listed)} listed as not covered, "
          f"{len(errors)} problem(s)")
    for e in errors:
        print("FAILED: " + e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
