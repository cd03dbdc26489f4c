#!/usr/bin/env python3
"""Runs the shell, Python and C blocks of README.md and docs/*.md as a reader would copy them.

Each page's blocks run in order in a scratch folder of their own that holds the repository's
folders (links to the source tree) and `build` (a link to the build tree), so that a block may use
what an earlier block of the same page wrote. Shell blocks run under `bash -e -o pipefail`,
Python blocks under the interpreter that runs this script (the package from bindings/python, the
library from the build tree), and C blocks that define main() are compiled against the built
library and run. A block preceded by the line

    <!-- doc-block: skip (REASON) -->

is not run and is reported with its reason; a reason is required. Blocks in other languages, or
with none (program output), are not code to run.

Usage: run_doc_blocks.py SOURCE_ROOT BUILD_ROOT [PAGE...]   (pages relative to SOURCE_ROOT)
       run_doc_blocks.py --self-test
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^```(\w*)\s*$")
SKIP = re.compile(r"^<!-- doc-block: skip \((.+)\) -->$")
SKIP_WITHOUT_REASON = re.compile(r"^<!-- doc-block: skip")
RUNNABLE = {"sh": "sh", "bash": "sh", "console": None, "python": "python", "c": "c"}
TIMEOUT = 240


def blocks(text):
    """(line, language, code, skip reason or None) of each fenced block of a Markdown text."""
    lines = text.split("\n")
    found, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        start, language = i, m.group(1)
        j = i + 1
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        before = lines[start - 1] if start > 0 else ""
        skip = SKIP.match(before)
        if SKIP_WITHOUT_REASON.match(before) and not skip:
            raise SystemExit(f"line {start}: a doc-block skip needs a reason in parentheses")
        found.append((start + 1, language, "\n".join(lines[i + 1:j]) + "\n",
                      skip.group(1) if skip else None))
        i = j + 1
    return found


def scratch_folder(source, build):
    """A folder that looks like the repository root, with build/ the build tree."""
    folder = tempfile.mkdtemp(prefix="dpcov-doc-blocks-")
    for name in os.listdir(source):
        if name in ("build", ".git") or name.startswith("build-"):
            continue
        os.symlink(os.path.join(source, name), os.path.join(folder, name))
    os.symlink(build, os.path.join(folder, "build"))
    return folder


def environment(source, build):
    env = dict(os.environ)
    env["DPCOV_LIBRARY"] = os.path.join(build, "capi", "libdpcov.so.0")
    env["PYTHONPATH"] = os.path.join(source, "bindings", "python")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    # pkg-config finds dpcov-uninstalled.pc, which points at the build tree, for `dpcov`.
    env["PKG_CONFIG_PATH"] = os.path.join(build, "meson-uninstalled")
    env["LD_LIBRARY_PATH"] = os.path.join(build, "capi")
    return env


def command_for(kind, code, folder, source, build, number):
    if kind == "sh":
        return ["bash", "-e", "-o", "pipefail", "-c", code]
    if kind == "python":
        return [sys.executable, "-c", code]
    program = os.path.join(folder, f"block{number}")
    with open(program + ".c", "w", encoding="utf-8") as f:
        f.write(code)
    return ["sh", "-c", f"cc -std=c99 -Wall -Werror {program}.c -I{source}/capi/include "
            f"-L{build}/capi -ldpcov -lm -o {program} && {program}"]


def run_page(source, build, page):
    """Runs one page's blocks; returns (ran, skipped lines, failures)."""
    with open(os.path.join(source, page), encoding="utf-8") as f:
        found = blocks(f.read())
    ran, skipped, failures = 0, [], []
    if not any(RUNNABLE.get(language) for _, language, _, _ in found):
        return ran, skipped, failures
    folder = scratch_folder(source, build)
    try:
        for number, (line, language, code, reason) in enumerate(found):
            kind = RUNNABLE.get(language)
            if kind is None or (kind == "c" and "main(" not in code):
                continue
            if reason:
                skipped.append(f"{page}:{line}: {reason}")
                continue
            command = command_for(kind, code, folder, source, build, number)
            try:
                result = subprocess.run(command, cwd=folder, env=environment(source, build),
                                        capture_output=True, text=True, timeout=TIMEOUT)
                status = result.returncode
                output = result.stdout[-2000:] + result.stderr[-3000:]
            except subprocess.TimeoutExpired:
                status, output = "timeout", f"more than {TIMEOUT} s"
            ran += 1
            if status != 0:
                failures.append(f"{page}:{line}: {language} block failed ({status}):\n{code}\n"
                                f"--- output ---\n{output}")
    finally:
        shutil.rmtree(folder)
    return ran, skipped, failures


def pages_of(source):
    return ["README.md"] + sorted(os.path.relpath(p, source)
                                  for p in glob.glob(os.path.join(source, "docs", "*.md")))


def self_test():
    """The extraction finds each kind of block, honours a skip and refuses a skip with no reason."""
    text = ("```sh\necho a\n```\n<!-- doc-block: skip (needs MPI) -->\n```python\nx = 1\n```\n"
            "```\noutput\n```\n")
    got = blocks(text)
    assert [(g[1], g[3]) for g in got] == [("sh", None), ("python", "needs MPI"), ("", None)], got
    try:
        blocks("<!-- doc-block: skip -->\n```sh\necho\n```\n")
    except SystemExit:
        return 0
    raise AssertionError("a skip without a reason was accepted")


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    source, build = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    pages = sys.argv[3:] or pages_of(source)
    ran, skipped, failures = 0, [], []
    for page in pages:
        r, s, f = run_page(source, build, page)
        ran, skipped, failures = ran + r, skipped + s, failures + f
    for line in skipped:
        print("SKIP " + line)
    for failure in failures:
        print("FAIL " + failure)
    print(f"{ran} blocks run ({len(failures)} failed), {len(skipped)} skipped with a reason")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
