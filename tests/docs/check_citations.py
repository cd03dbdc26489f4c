#!/usr/bin/env python3
"""Every document the repository cites is in the repository.

Scans every tracked text file for
  * paths into the tree (`proofs/iev.md`, `core/check.hpp`, `docs/random.md`, ...): the file must exist,
    relative to the repository root or to the citing file's folder;
  * bare document names (`laplace_sym.md`): some tracked file must have that name;
  * `constants.md section N` / `sections N, M`: proofs/constants.md must have a heading numbered N;
  * anything outside the repository (`../shared/...`, a seed folder): never allowed.
Outputs that commands write (under build/ or bench/results/) are not expected to be tracked.
Prints one line per broken citation and exits 1 if there is any. Usage: check_citations.py ROOT
"""
import os
import re
import subprocess
import sys

TOP_DIRS = ("core", "capi", "bindings", "cli", "tests", "proofs", "docs", "bench", "scripts", "data")
GENERATED = ("build/", "bench/results/", "builddir/")
# Pages that scripts/docs writes into the build tree (docs/bindings_pages.py).
GENERATED_PAGES = {"python_binding.md", "go_binding.md", "fortran_binding.md", "proofs_index.md"}
TEXT_SUFFIXES = (".md", ".h", ".hpp", ".cpp", ".c", ".py", ".go", ".f90", ".sh", ".build", ".txt",
                 ".json", ".toml", ".1", "")  # "" = scripts without an extension
PATH_RE = re.compile(r"(?<![\w./-])((?:\.\./)*(?:%s)/[\w./-]*\w)" % "|".join(TOP_DIRS))
BARE_DOC_RE = re.compile(r"(?<![\w./-])([\w-]+\.md)\b")
SECTION_RE = re.compile(r"constants\.md,?\s+sections?\s+((?:\d+(?:\.\d+)*(?:,\s*|\s+and\s+|-)?)+)")
OUTSIDE_RE = re.compile(r"\.\./shared|shared/spec|shared/seeds")


def tracked_files(root):
    out = subprocess.run(["git", "-C", root, "ls-files"], check=True, capture_output=True, text=True)
    return [f for f in out.stdout.splitlines() if f]


def constants_sections(root):
    path = os.path.join(root, "proofs", "constants.md")
    numbers = set()
    if os.path.exists(path):
        for line in open(path, encoding="utf-8"):
            m = re.match(r"#+\s+(\d+(?:\.\d+)*)\.?\s", line)
            if m:
                numbers.add(m.group(1))
    return numbers


def exists(root, citing, cited):
    cited = cited.rstrip(".")
    if any(ch in cited for ch in "*<>{}"):
        return True  # a pattern, not a file
    if cited.startswith(GENERATED) or "/build/" in cited:
        return True
    if not re.search(r"\.(md|py|cpp|hpp|h|c|sh|json|csv|go|f90|txt|build|ini|abi|map|in|toml|png|svg)$",
                     cited) and not cited.endswith("/"):
        return True  # a program, library or test name (cli/dpcov, proofs/proof_iev), not a document
    bases = [root]
    folder = os.path.dirname(citing)
    while folder:
        bases.append(os.path.join(root, folder))
        folder = os.path.dirname(folder)
    for base in bases:
        p = os.path.normpath(os.path.join(base, cited))
        if os.path.exists(p) or os.path.exists(p.rstrip("/")):
            return True
    # `core/mechanisms/adassp.` style stems ("adassp.{hpp,cpp}") and folders
    stem = os.path.join(root, cited)
    if os.path.isdir(os.path.dirname(stem)):
        name = os.path.basename(stem)
        if any(f.startswith(name) for f in os.listdir(os.path.dirname(stem))):
            return True
    return False


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    files = tracked_files(root)
    names = {os.path.basename(f) for f in files}
    sections = constants_sections(root)
    problems = []
    for f in files:
        if not f.endswith(TEXT_SUFFIXES) or f.startswith(("tests/fuzz/corpus", "data/")) or f.endswith(".abi"):
            continue
        if f == "tests/docs/check_citations.py":
            continue
        try:
            text = open(os.path.join(root, f), encoding="utf-8").read()
        except (UnicodeDecodeError, IsADirectoryError, FileNotFoundError):
            continue
        for lineno, line in enumerate(text.splitlines(), 1):
            where = "%s:%d" % (f, lineno)
            if OUTSIDE_RE.search(line):
                problems.append("%s: cites a file outside the repository: %s" % (where, line.strip()))
            for m in PATH_RE.finditer(line):
                if not exists(root, f, m.group(1)):
                    problems.append("%s: cites %s, which is not in the repository" % (where, m.group(1)))
            for m in BARE_DOC_RE.finditer(line):
                if m.group(1) not in names and m.group(1) not in GENERATED_PAGES:
                    problems.append("%s: cites %s, which is not in the repository" % (where, m.group(1)))
            for m in SECTION_RE.finditer(line):
                for number in re.findall(r"\d+(?:\.\d+)*", m.group(1)):
                    if number not in sections:
                        problems.append("%s: cites constants.md section %s, which has no such heading"
                                        % (where, number))
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
