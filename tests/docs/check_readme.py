#!/usr/bin/env python3
"""The README stays a page a newcomer reads top to bottom, and still points at everything:

  * it is at most 10 KB;
  * it holds the test command `.ci/run` runs (`scripts/test`, in a shell block);
  * its Layout table names every top-level folder of the repository, and only folders that exist;
  * every page of docs/ can be reached from it by following Markdown links.

Prints one line per problem and exits 1 if there is any. Usage: check_readme.py SOURCE_ROOT
"""
import os
import re
import subprocess
import sys

MAX_BYTES = 10 * 1024
LINK = re.compile(r"\]\(([^)#\s]+\.md)(?:#[^)]*)?\)")
LAYOUT_PATH = re.compile(r"^\| `([^`]+)/`(?:, `([^`]+)/`)? \|")


def section(text, title):
    m = re.search(r"^## " + re.escape(title) + r"\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    return m.group(1) if m else ""


def top_level_folders(root):
    files = subprocess.run(["git", "-C", root, "ls-files"], check=True, capture_output=True,
                           text=True).stdout.split()
    return {f.split("/")[0] for f in files if "/" in f and not f.startswith(".")}


def reachable_pages(root):
    seen, todo = set(), ["README.md"]
    while todo:
        page = todo.pop()
        if page in seen or not os.path.isfile(os.path.join(root, page)):
            continue
        seen.add(page)
        with open(os.path.join(root, page), encoding="utf-8") as f:
            for target in LINK.findall(f.read()):
                todo.append(os.path.normpath(os.path.join(os.path.dirname(page), target)))
    return seen


def problems(root):
    found = []
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        text = f.read()
    size = len(text.encode("utf-8"))
    if size > MAX_BYTES:
        found.append(f"README.md is {size} bytes, over {MAX_BYTES}: move detail to a docs/ page")
    if not re.search(r"^```sh\n(?:.*\n)*?scripts/test\b", text, re.M):
        found.append("README.md has no shell block with scripts/test, the command .ci/run runs")
    listed = set()
    for line in section(text, "Layout").splitlines():
        m = LAYOUT_PATH.match(line)
        if m:
            listed.update(p for p in m.groups() if p)
    for folder in sorted(listed):
        if not os.path.isdir(os.path.join(root, folder)):
            found.append(f"README.md Layout lists {folder}/, which is not a folder of the repository")
    for folder in sorted(top_level_folders(root) - listed):
        found.append(f"README.md Layout does not list {folder}/")
    pages = reachable_pages(root)
    for name in sorted(os.listdir(os.path.join(root, "docs"))):
        if name.endswith(".md") and os.path.join("docs", name) not in pages:
            found.append(f"docs/{name} cannot be reached by links from README.md")
    return found


def main():
    found = problems(sys.argv[1] if len(sys.argv) > 1 else ".")
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
