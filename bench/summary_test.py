"""The summary scripts/bench prints, on a canned run (bench/testdata/quick/: the raw outputs of one
`scripts/bench --quick`, read, not rerun): it ends with issue 36's targets table, each target once
and in order, with ratios this test recomputes from the raw files by its own reading of them, then
the machine and load line. Catches a target dropped from the table, a ratio taken against the
wrong baseline or clock (the Gram's per-round ratios: thread CPU on one OpenBLAS thread, wall on
two), a pass/fail inverted, a figure the run did not measure shown as met.
Usage: summary_test.py BENCH_DIR
"""

from __future__ import annotations

import json
import pathlib
import statistics
import subprocess
import sys
import tempfile

BENCH = pathlib.Path(sys.argv[1]).resolve()
RAW = BENCH / "testdata" / "quick"
sys.path.insert(0, str(BENCH))
import targets  # noqa: E402

DATA = ("wine", "diabetes", "breast_cancer", "digits")
EXPECTED = (["exact release from rows, d = 10", "exact release from rows, d = 100",
             "exact release from rows, d = 1000", "exact release from a file, 1e+05 x 50",
             "dly_adaptive in bounded memory", "coinpress in bounded memory",
             "coinpress_center in bounded memory", "coinpress_mean in bounded memory",
             "exact release of a piped stream of 1e+06 x 50 in bounded memory",
             "clipped Gram, OpenBLAS on 1 thread", "clipped Gram, OpenBLAS on 2 threads",
             "IEV release, d = 50", "IEV release, d = 100", "IEV release, d = 200",
             "one Bingham draw, d = 100 (What to build)"]
            + [f"exact Analyze Gauss error, {name}" for name in DATA]
            + [f"exact Analyze Gauss error, {name}, 50 releases" for name in DATA]
            + ["CSV parse, one core (What to build)"])


def check(condition: bool, what: str) -> None:
    if not condition:
        print(f"FAIL: {what}")
        sys.exit(1)


def expected_gram_ratio(threads: int, column: int) -> float:
    """Worst median per-round add_rows / dsyrk with half of the rows clipped: bench_gram_ab's
    lines `lib 0 50% wall thread process r_wall r_thread r_process`."""
    ratios = [float(f[column]) for f in map(str.split, (RAW / f"gram_ab_t{threads}.txt")
                                             .read_text().splitlines())
              if f[:3] == ["lib", "0", "50%"]]
    return max(ratios)


def expected_file_ratio() -> float:
    cpu = {"exact": [], "idealized": []}
    for line in (RAW / "release_rows.txt").read_text().splitlines():
        f = line.split()
        if f[0] == "analyze_gauss":
            cpu[f[1]].append(float(f[4]))
    return statistics.median(cpu["exact"]) / statistics.median(cpu["idealized"])


def expected_stream_ratio() -> float:
    """Peak RSS of the piped release over the median of the exact releases from the file."""
    piped = (RAW / "stream_rows.txt").read_text().splitlines()[-1].split()
    from_file = [float(f[5]) for f in map(str.split, (RAW / "release_rows.txt").read_text()
                                           .splitlines()) if f[:2] == ["analyze_gauss", "exact"]]
    return float(piped[5]) / statistics.median(from_file)


def expected_accuracy_ratio(name: str, long: bool) -> float:
    """Worst ratio over epsilon for one data set: exact / paired idealized at the short run's
    releases (column 11), exact / independent idealized at the long run's (column 6)."""
    path = RAW / ("exact_accuracy_long.md" if long else "exact_accuracy.md")
    cells = [[c.strip() for c in line.strip().strip("|").split("|")]
             for line in path.read_text().splitlines() if line.startswith(f"| {name} |")]
    return max(float(c[5] if long else c[10]) for c in cells)


def expected_dsyrk_of_peak() -> dict[tuple[int, int], float]:
    """Per (n, d) on one thread: n d (d + 1) flops over the bare dsyrk's thread CPU time, over the
    GFLOP/s fma_peak printed."""
    peak = float((RAW / "fma_peak.txt").read_text().split()[2])
    found, size = {}, None
    for f in map(str.split, (RAW / "gram_ab_t1.txt").read_text().splitlines()):
        if f[:2] == ["n", "="]:
            size = (int(f[2].rstrip(",")), int(f[5].rstrip(",")))
        elif f[:1] == ["dsyrk"]:
            n, d = size
            found[size] = n * d * (d + 1) / float(f[3]) * 1e-6 / peak
    return found


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run([sys.executable, str(BENCH / "summarize.py"), str(RAW),
                              str(pathlib.Path(tmp) / "latest.json")],
                             capture_output=True, text=True, check=True).stdout
        saved = json.loads((pathlib.Path(tmp) / "latest.json").read_text())
    lines = out.rstrip("\n").splitlines()
    headers = [k for k, line in enumerate(lines) if line.startswith("### ")]
    check(lines[headers[-1]].startswith("### Issue 36's targets"), "the targets come last")
    table = [line for line in lines[headers[-1]:] if line.startswith("| ")][1:]
    check([row.split(" | ")[0].removeprefix("| ") for row in table] == EXPECTED,
          "one row per target, in order")
    check(lines[-1].startswith("Machine: ") and all(
        word in lines[-1] for word in ("cores", "AVX-512", "OpenBLAS", "commit", "at the end")),
          "the machine, OpenBLAS, commit and both loads end the summary")

    found = {t["target"]: t for t in saved["targets"]}
    gram = found["clipped Gram, OpenBLAS on 1 thread"]
    check(gram["ratio"] == expected_gram_ratio(1, 7), "clipped Gram ratio (thread CPU, one thread)")
    gram = found["clipped Gram, OpenBLAS on 2 threads"]
    check(gram["ratio"] == expected_gram_ratio(2, 6), "clipped Gram ratio (wall, two threads)")
    release = found["exact release from a file, 1e+05 x 50"]
    check(abs(release["ratio"] - expected_file_ratio()) < 1e-12, "file release ratio")
    stream = found["exact release of a piped stream of 1e+06 x 50 in bounded memory"]
    check(abs(stream["ratio"] - expected_stream_ratio()) < 1e-12, "stream peak RSS ratio")
    check(all("95% interval" in found[f"exact Analyze Gauss error, {name}{suffix}"]["figure"]
              for name in DATA for suffix in ("", ", 50 releases")), "accuracy intervals shown")
    check(all(found[f"exact Analyze Gauss error, {name}{suffix}"]["ratio"]
              == expected_accuracy_ratio(name, long)
              for name in DATA for suffix, long in (("", False), (", 50 releases", True))),
          "accuracy: paired releases at the target's count, independent ones at the long run's")
    roofline = {(r["n"], r["d"]): r["dsyrk_of_peak"] for r in saved["roofline"]}
    check(roofline and all(abs(roofline[k] - v) < 1e-12 * v
                           for k, v in expected_dsyrk_of_peak().items()),
          "the roofline: dsyrk's flop rate of thread CPU over the FMA peak, every one-thread size")
    check(any(line.startswith("### The Gram against the machine's peak") for line in lines),
          "the roofline section is printed")
    missing = found["exact release from rows, d = 1000"]  # --quick stops at d = 100
    check(missing["ratio"] is None and missing["passed"] is None, "unmeasured is not met")
    check(any(row.startswith("| exact release from rows, d = 1000 |")
              and "not measured" in row and row.endswith("| - |") for row in table),
          "unmeasured printed as such")
    check(targets.target("t", "f", "b", 1.2, 1.1)["passed"] is False, "<= rejects over")
    check(targets.target("t", "f", "b", 1.1, 1.1)["passed"] is True, "<= keeps the limit")
    check(targets.target("t", "f", "b", 19.9, 20, ">=")["passed"] is False, ">= rejects under")
    check(all((t["passed"] is None) == (t["ratio"] is None) for t in saved["targets"]),
          "every measured target has a verdict")
    print(f"ok: {len(table)} targets")


if __name__ == "__main__":
    main()
