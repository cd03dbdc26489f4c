#!/usr/bin/env python3
"""Writes the reference pages of the Python, Go and Fortran bindings as Markdown for Doxygen.

Doxygen documents the C headers itself; the bindings are read here from their sources, without
building or importing anything: Python through its syntax tree (signatures and docstrings of every
public function and class), Go through `go doc -all`, Fortran through the module's interface
comments. Usage: bindings_pages.py SOURCE_ROOT OUTPUT_DIR
"""
import ast
import os
import subprocess
import sys


def fenced(text, lang=""):
    # Doxygen reads a fenced block verbatim, so docstrings in reStructuredText stay as written.
    return "```%s\n%s\n```\n" % (lang, text.rstrip().replace("```", "'''"))


def python_signature(node):
    args = ast.unparse(node.args)
    returns = " -> " + ast.unparse(node.returns) if node.returns else ""
    return "%s(%s)%s" % (node.name, args, returns)


def python_page(root):
    package = os.path.join(root, "bindings", "python", "dpcov")
    out = ["# Python binding {#python_binding}", "",
           "The `dpcov` package (`bindings/python/dpcov/`): a ctypes binding over the C ABI plus "
           "scikit-learn style estimators. Every public function and class, module by module, with "
           "its docstring.", ""]
    for name in sorted(os.listdir(package)):
        public = not name.startswith("_") or name in ("__init__.py", "_generated.py")
        if not name.endswith(".py") or not public:
            continue
        tree = ast.parse(open(os.path.join(package, name), encoding="utf-8").read())
        module = "dpcov" if name == "__init__.py" else "dpcov." + name[:-3]
        items = []
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
                items.append(node)
        doc = ast.get_docstring(tree)
        if not items and not doc:
            continue
        out += ["## %s" % module, ""]
        if doc:
            out += [fenced(doc)]
        for node in items:
            if isinstance(node, ast.ClassDef):
                bases = ", ".join(ast.unparse(b) for b in node.bases)
                out += ["### class %s%s" % (node.name, "(%s)" % bases if bases else ""), ""]
                body = [ast.get_docstring(node) or ""]
                for member in node.body:
                    if isinstance(member, ast.FunctionDef) and (
                            not member.name.startswith("_") or member.name == "__init__"):
                        body.append("\n" + python_signature(member))
                        if ast.get_docstring(member):
                            body.append("    " + ast.get_docstring(member).replace("\n", "\n    "))
                out += [fenced("\n".join(body).strip() or "(no docstring)")]
            else:
                out += ["### %s" % node.name, "",
                        fenced(python_signature(node) + "\n\n" + (ast.get_docstring(node) or ""),
                               "")]
    return "\n".join(out) + "\n"


def go_page(root):
    folder = os.path.join(root, "bindings", "go")
    text = subprocess.run(["go", "doc", "-all", "."], cwd=folder, check=True, capture_output=True,
                          text=True, env=dict(os.environ, CGO_ENABLED="1")).stdout
    return ("# Go binding {#go_binding}\n\nThe Go package (`bindings/go/`), as `go doc -all` prints "
            "it.\n\n" + fenced(text, "go"))


def fortran_page(root):
    # dpcov.f90 and the declarations it includes, generated from the headers.
    lines = []
    for name in ("dpcov.f90", "dpcov_interfaces.inc"):
        path = os.path.join(root, "bindings", "fortran", name)
        lines += open(path, encoding="utf-8").read().splitlines()
    out = ["# Fortran binding {#fortran_binding}", "",
           "The `dpcov` Fortran module (`bindings/fortran/dpcov.f90`): every procedure, constant and "
           "type it declares, with the comments that precede it.", ""]
    block, comments = [], []
    for line in lines:
        stripped = line.strip()
        lower = stripped.lower()
        if stripped.startswith("!"):
            comments.append(stripped)
            continue
        starts = (lower.startswith(("function ", "subroutine ", "integer, parameter", "type,",
                                    "type ", "real(c_double), parameter")) or
                  " function " in lower.split("(")[0] or " subroutine " in lower.split("(")[0])
        if starts and not lower.startswith(("end ", "type(")):
            block += comments + [stripped, ""]
        comments = []
    out.append(fenced("\n".join(block), "fortran"))
    return "\n".join(out) + "\n"


def main():
    root, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    for name, page in (("python_binding.md", python_page), ("go_binding.md", go_page),
                       ("fortran_binding.md", fortran_page)):
        with open(os.path.join(outdir, name), "w", encoding="utf-8") as f:
            f.write(page(root))


if __name__ == "__main__":
    main()
