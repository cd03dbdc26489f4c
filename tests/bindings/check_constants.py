"""No module of the Python binding writes a number of its own at module level.

A constant that decides what a release does (a share of the budget, a quantile, a grid, a default
number of draws) or mirrors a C enum belongs to the library's headers, which the generated module
(`_generated.py`) carries into Python: written again in a binding, it can drift from the command
line's and the other bindings'. Every module-level assignment of bindings/python/dpcov whose value
holds a number literal must therefore be listed in bindings/python/literal_constants.txt as
`module.NAME  # reason` (a number of the binding's own, e.g. a chunk size); a listed entry that no
longer holds one, a repeated one or one without a reason is an error too, so the list stays true.

Usage: check_constants.py SOURCE_ROOT
"""
import ast
import pathlib
import re
import sys

GENERATED = "_generated.py"


def literal_constants(package):
    """``module.NAME`` of each module-level assignment whose value holds a number literal."""
    found = set()
    for path in sorted(package.glob("*.py")):
        if path.name == GENERATED:
            continue
        module = path.stem
        for node in ast.parse(path.read_text(), str(path)).body:
            if isinstance(node, ast.Assign):
                targets, value = node.targets, node.value
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                targets, value = [node.target], node.value
            else:
                continue
            numbers = [n for n in ast.walk(value) if isinstance(n, ast.Constant)
                       and isinstance(n.value, (int, float)) and not isinstance(n.value, bool)]
            if not numbers:
                continue
            for target in targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        found.add(f"{module}.{name.id}")
    return found


def listed(path):
    """The allow list's entries; malformed, repeated or unexplained lines are errors."""
    entries, errors = set(), []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        match = re.fullmatch(r"(\w+\.\w+)\s+#\s*(\S.*)", line.strip())
        if not match:
            errors.append(f"{path}:{number}: expected 'module.NAME  # reason', got {line!r}")
            continue
        if match.group(1) in entries:
            errors.append(f"{path}:{number}: {match.group(1)} listed twice")
        entries.add(match.group(1))
    return entries, errors


def main(root):
    root = pathlib.Path(root)
    found = literal_constants(root / "bindings" / "python" / "dpcov")
    allowed, errors = listed(root / "bindings" / "python" / "literal_constants.txt")
    for name in sorted(found - allowed):
        errors.append(f"{name} writes a number at module level: take it from the library's "
                      "headers (_generated.py), or list it in literal_constants.txt with a reason")
    for name in sorted(allowed - found):
        errors.append(f"literal_constants.txt lists {name}, which holds no number literal "
                      "(remove the entry)")
    for error in errors:
        print(error, file=sys.stderr)
    print(f"{len(found)} module-level numbers, each listed with its reason" if not errors else
          f"{len(errors)} problems")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
