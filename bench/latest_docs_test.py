"""The figures docs/benchmarks.md ("Latest results") and the README quote from the last full
scripts/bench run are that run's: every table row of the section is a row of
bench/results/latest.md, the run's time span and commit are the summary's machine line's, and the
README's `dpcov release` figures (CPU ratio, peak RSS) are latest.json's. Catches a hand-typed or
stale figure left behind when bench/results/latest.* is regenerated.
Usage: latest_docs_test.py REPOSITORY
"""

from __future__ import annotations

import json
import pathlib
import re
import sys

ROOT = pathlib.Path(sys.argv[1]).resolve()


def check(condition: bool, what: str) -> None:
    if not condition:
        print(f"FAIL: {what}")
        sys.exit(1)


def main() -> None:
    latest = (ROOT / "bench" / "results" / "latest.md").read_text().splitlines()
    saved = json.loads((ROOT / "bench" / "results" / "latest.json").read_text())
    docs = (ROOT / "docs" / "benchmarks.md").read_text()
    section = re.search(r"^## Latest results\n(.*?)(?=^## )", docs, re.M | re.S)
    check(section is not None, "docs/benchmarks.md has a Latest results section")
    rows = [line for line in section.group(1).splitlines()
            if line.startswith("| ") and not line.startswith("|---")]
    check(len(rows) > 1, "the section quotes the targets table")
    for row in rows:
        check(row in latest, f"docs/benchmarks.md row not in bench/results/latest.md: {row}")
    start, end = saved["environment_start"], saved["environment_end"]
    span = f"{start['utc']}-{end['utc'][-5:]} UTC"
    check(span in section.group(1).replace("\n", " "), f"the section names the run's time ({span})")
    check(start["commit"] in section.group(1), "the section names the run's commit")

    readme = (ROOT / "README.md").read_text().replace("\n  ", " ")
    quoted = re.search(r"exact, in ([\d.]+)x the idealized CPU time and (\d+) MB", readme)
    check(quoted is not None, "the README quotes the file release's figures")
    release = next(t for t in saved["targets"]
                   if t["target"].startswith("exact release from a file"))
    rss = [r["peak_rss_mb"] for r in saved["release_rows"]
           if r["mechanism"] == "analyze_gauss" and r["numerics"] == "exact"]
    check(quoted.group(1) == f"{release['ratio']:.2f}", "the README's CPU ratio is the run's")
    check(quoted.group(2) == f"{sorted(rss)[len(rss) // 2]:.0f}",
          "the README's peak RSS is the run's")
    print(f"ok: {len(rows)} rows")


if __name__ == "__main__":
    main()
