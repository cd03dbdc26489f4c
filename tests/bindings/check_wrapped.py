"""Every exported dpcov_* function is wrapped by each binding, or listed as intentionally not.

For each binding directory (bindings/python, bindings/go, bindings/fortran) every function the
shared library exports (nm -D --defined-only) must occur as a whole word in the binding's sources
(tests excluded), or be listed in bindings/<lang>/not_wrapped.txt, one per line as
`name  # reason`. Entries that are stale (the name is no longer exported, or it is wrapped after
all), repeated, or without a reason are errors too, so the list stays true.

Usage: check_wrapped.py LIBRARY SOURCE_ROOT [LANG ...]   (default: python go fortran)
"""
import pathlib
import re
import subprocess
import sys

SOURCE_SUFFIXES = {".py", ".pyi", ".pyx", ".pxd", ".c", ".h", ".go", ".f90", ".F90", ".f", ".F",
                   ".inc"}
# Python's generated prototype table names every function: a function is wrapped where a module
# calls it. (Fortran's generated interfaces are the wrapping itself, so they count.)
NOT_WRAPPING = {"_generated.py"}


def exported_functions(library):
    out = subprocess.run(["nm", "-D", "--defined-only", library], check=True,
                         capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in ("T", "W") and parts[2].startswith("dpcov_"):
            names.add(parts[2])
    return names


def is_test(path, root):
    rel = path.relative_to(root)
    name = path.name
    return (any(part in ("tests", "test") for part in rel.parts[:-1])
            or name.startswith("test_") or name.endswith("_test.go")
            or name.endswith("_test.f90") or name == "conftest.py")


def binding_text(root):
    text = []
    for path in sorted(root.rglob("*")):
        if (path.is_file() and path.suffix in SOURCE_SUFFIXES and path.name not in NOT_WRAPPING
                and not is_test(path, root)):
            text.append(path.read_text(errors="replace"))
    return "\n".join(text)


def read_not_wrapped(path, errors):
    entries = {}
    if not path.exists():
        return entries
    for number, raw in enumerate(path.read_text().splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        name, _, reason = line.partition("#")
        name, reason = name.strip(), reason.strip()
        where = f"{path}:{number}"
        if not re.fullmatch(r"dpcov_\w+", name):
            errors.append(f"{where}: '{name}' is not a dpcov_* function name")
        elif not reason:
            errors.append(f"{where}: {name} has no reason (write `{name}  # why`)")
        elif name in entries:
            errors.append(f"{where}: {name} is listed twice")
        else:
            entries[name] = reason
    return entries


def list_problems(exported, covered, listed, list_path, missing, covered_word):
    """The exported names neither covered nor listed, and the stale entries of the list."""
    errors = []
    for name in sorted(exported - covered - set(listed)):
        errors.append(f"{name} is exported but {missing} nor listed in {list_path}")
    for name in sorted(listed):
        if name not in exported:
            errors.append(f"{list_path}: {name} is no longer exported (stale)")
        elif name in covered:
            errors.append(f"{list_path}: {name} is {covered_word} after all (stale)")
    return errors


def check(lang, root, exported):
    errors = []
    if not root.is_dir():
        return [f"{root} does not exist: the {lang} binding is missing"]
    text = binding_text(root)
    if not text:
        return [f"{root} holds no {lang} sources"]
    wrapped = {name for name in exported if re.search(r"\b" + re.escape(name) + r"\b", text)}
    listed = read_not_wrapped(root / "not_wrapped.txt", errors)
    errors += list_problems(exported, wrapped, listed, root / "not_wrapped.txt",
                            f"neither wrapped by {root}", "wrapped")
    print(f"{lang}: {len(wrapped)} of {len(exported)} functions wrapped, "
          f"{len(listed)} listed as not wrapped, {len(errors)} problem(s)")
    return errors


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    library, source_root = sys.argv[1], pathlib.Path(sys.argv[2])
    langs = sys.argv[3:] or ["python", "go", "fortran"]
    exported = exported_functions(library)
    if not exported:
        sys.exit(f"FAILED: {library} exports no dpcov_* function")
    errors = []
    for lang in langs:
        errors += check(lang, source_root / "bindings" / lang, exported)
    for e in errors:
        print("FAILED: " + e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
