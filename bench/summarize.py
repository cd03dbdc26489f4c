"""Turns the raw outputs of scripts/bench into one Markdown table (stdout) and one JSON file.

Usage: summarize.py RAW_DIR OUT_JSON. RAW_DIR holds Google Benchmark JSON files (release, iev,
random, exact), the text outputs of bench/gram_ab.sh on one and two OpenBLAS threads (gram_ab_t1,
gram_ab_t2), of bench/csv_parse.sh (csv_10, csv_50), of the Python overhead script
(python_overhead), of bench/iev_vs_reference.py (iev_vs_reference), of bench/release_rows.sh
(release_rows), of bench/stream_rows.sh (stream_rows) and of build/bench/exact_accuracy at 20 and
1000 releases (exact_accuracy.md, exact_accuracy_long.md; 5 and 50 in a --quick run), of
build/bench/fma_peak (fma_peak: one core's FMA peak, the roofline's ceiling), and
bench/environment.py's JSON at the start and the end of the run (environment_start,
environment_end). Times are wall-clock
(real_time), medians where the benchmark was repeated, except in gram_ab (medians over rounds,
wall and CPU), iev_vs_reference (thread CPU time) and release_rows / stream_rows (wall and CPU
time of the process).
The summary ends with issue 36's targets (bench/targets.py) and the machine they were measured on.
"""

from __future__ import annotations

import json
import pathlib
import re
import sys

import targets


def load(raw: pathlib.Path, name: str) -> list[dict]:
    path = raw / f"{name}.json"
    if not path.exists():
        return []
    runs = json.loads(path.read_text())["benchmarks"]
    medians = [b for b in runs if b.get("aggregate_name") == "median"]
    return medians or [b for b in runs if b.get("run_type", "iteration") == "iteration"]


def ms(b: dict, clock: str = "real_time") -> float:
    scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b["time_unit"]]
    return b[clock] * scale


def args(b: dict) -> list[str]:
    return b["run_name"].split("/")[1:] if "run_name" in b else b["name"].split("/")[1:]


def gram_rows(raw: pathlib.Path) -> list[dict]:
    """bench/gram_ab.sh on one and two OpenBLAS threads (gram_ab_t1.txt, gram_ab_t2.txt): per size
    the medians over rounds of each call's times and of add_rows / the bare dsyrk of its own round
    (wall, the calling thread's CPU, the process's CPU), and the calling thread's CPU and the wall
    time of all rounds over those of their dsyrk calls (ratio_cpu_all, ratio_wall_all; None in
    outputs without those columns), the figures of a size whose calls do not each close a kernel
    block."""
    rows = []
    for threads in (1, 2):
        load, size, dsyrk = None, None, None
        for line in text(raw, f"gram_ab_t{threads}").splitlines():
            if found := re.match(r"load ([\d.]+)", line):
                load = float(found.group(1))
            elif found := re.match(r"n = (\d+), d = (\d+), OpenBLAS threads \d+, (\d+) rounds",
                                   line):
                size = {"threads": threads, "n": int(found.group(1)), "d": int(found.group(2)),
                        "rounds": int(found.group(3)), "load": load}
            elif found := re.match(r"(dsyrk|lib 0) +(\d+)% +" + " +".join([r"([\d.]+)"] * 6)
                                   + r"(?: +([\d.]+) +([\d.]+))?", line):
                wall, cpu, process, r_wall, r_cpu, r_process = map(float, found.groups()[2:8])
                r_cpu_all, r_wall_all = (float(g) if g else None for g in found.groups()[8:10])
                if found.group(1) == "dsyrk":
                    dsyrk = {"dsyrk_ms": wall, "dsyrk_cpu_ms": cpu}
                    continue
                rows.append({**size, **dsyrk, "clipped_percent": int(found.group(2)),
                             "add_rows_ms": wall, "add_rows_cpu_ms": cpu,
                             "add_rows_process_ms": process, "ratio_wall": r_wall,
                             "ratio_cpu": r_cpu, "ratio_process": r_process,
                             "ratio_cpu_all": r_cpu_all, "ratio_wall_all": r_wall_all})
    return rows


def release_rows(raw: pathlib.Path) -> list[dict]:
    runs = load(raw, "release")
    gram = {args(b)[0]: ms(b) * 10 for b in runs if b["name"].startswith("BM_GramRows")}
    rows = []
    for b in runs:
        if b["name"].startswith("BM_GramRows"):
            continue
        d = args(b)[0]
        rows.append({"mechanism": b["name"].split("/")[0].removeprefix("BM_"), "d": int(d),
                     "release_ms": ms(b), "gram_1e6_ms": gram.get(d),
                     "percent_of_gram": 100 * ms(b) / gram[d] if d in gram else None})
    for b in load(raw, "iev"):
        rows.append({"mechanism": b["name"].split("/")[0].removeprefix("BM_"),
                     "d": int(args(b)[0]), "release_ms": ms(b), "gram_1e6_ms": None,
                     "percent_of_gram": None})
    return rows


def sampler_rows(raw: pathlib.Path) -> list[dict]:
    rows = []
    for b in load(raw, "random"):
        row = {"benchmark": b["name"], "ms": ms(b)}
        for key in ("items_per_second", "acceptance"):
            if key in b:
                row[key] = b[key]
        rows.append(row)
    return rows


def numerics_rows(raw: pathlib.Path) -> list[dict]:
    """bench_exact: every mechanism from n = 5000 rows, idealized and (where it exists) exact,
    and Analyze Gauss streamed from 2^20 rows (the Stream benchmarks, n in their name)."""
    rows = []
    for b in load(raw, "exact"):
        kind, d, which = b["name"].split("/")[:3]
        n = int(re.search(r"/rows:(\d+)", b["name"]).group(1)) if "/rows:" in b["name"] else 5000
        if kind == "BM_IdealizedOnly":
            mechanism, numerics = b.get("label", which), "idealized"
        else:
            mechanism = "laplace_sym" if which.endswith(":1") else "analyze_gauss"
            numerics = ("exact" if kind.startswith("BM_Exact") else
                        "idealized, bounded" if kind == "BM_IdealizedBounded" else "idealized")
        rows.append({"mechanism": mechanism, "d": int(d.split(":")[1]), "n": n,
                     "numerics": numerics, "ms": ms(b), "cpu_ms": ms(b, "cpu_time")})
    idealized = {(r["mechanism"], r["d"], r["n"]): r["ms"] for r in rows
                 if r["numerics"] == "idealized"}
    bounded = {(r["mechanism"], r["d"], r["n"]): r["ms"] for r in rows
               if r["numerics"] == "idealized, bounded"}
    for r in rows:
        key = (r["mechanism"], r["d"], r["n"])
        base, base_bounded = idealized.get(key), bounded.get(key)
        exact = r["numerics"] == "exact"
        r["exact_over_idealized"] = r["ms"] / base if exact and base else None
        r["exact_over_bounded"] = r["ms"] / base_bounded if exact and base_bounded else None
    return rows


def text(raw: pathlib.Path, name: str) -> str:
    path = raw / f"{name}.txt"
    return path.read_text() if path.exists() else ""


def csv_rows(raw: pathlib.Path) -> list[dict]:
    # csv_COLUMNS.txt: make_csv's shortest round-trip numbers; csv_COLUMNS_g9.txt: %.9g numbers.
    rows = []
    for columns in (10, 50):
        for suffix, number_format in (("", "shortest"), ("_g9", "%.9g")):
            out = text(raw, f"csv_{columns}{suffix}")
            size = re.search(r"input (\d+) MB", out)
            speed = re.search(r"(\d+) MB/s of wall time, (\d+) MB/s of cpu time; peak RSS ([\d.]+) MB",
                              out)
            if size and speed:
                row = {"columns": columns, "format": number_format,
                       "megabytes": int(size.group(1)),
                       "mb_per_s_wall": int(speed.group(1)), "mb_per_s_cpu": int(speed.group(2)),
                       "peak_rss_mb": float(speed.group(3))}
                # cat of the same file, the reader alone, fast_float alone and the reader's number
                # parsers alone, in the same run.
                for name in ("cat", "reader", "fast_float", "numbers"):
                    found = re.search(rf"^{name}: (\d+) MB/s of wall time, (\d+) MB/s of cpu time",
                                      out, re.M)
                    row[f"{name}_mb_per_s_cpu"] = int(found.group(2)) if found else None
                rows.append(row)
    return rows


def cli_release_rows(raw: pathlib.Path, name: str = "release_rows") -> list[dict]:
    """bench/release_rows.sh (or stream_rows.sh): one line per `dpcov release` run."""
    rows = []
    for line in text(raw, name).splitlines():
        fields = line.split()
        if len(fields) == 6 and not line.startswith("#"):
            rows.append({"mechanism": fields[0], "numerics": fields[1], "rows": int(fields[2]),
                         "wall_s": float(fields[3]), "cpu_s": float(fields[4]),
                         "peak_rss_mb": int(fields[5]) / 1024})
    return rows


def environment(raw: pathlib.Path, when: str) -> dict:
    path = raw / f"environment_{when}.json"
    return json.loads(path.read_text()) if path.exists() else {}


def accuracy(raw: pathlib.Path, name: str) -> tuple[str, int | None]:
    """build/bench/exact_accuracy's Markdown and its number of releases."""
    path = raw / f"{name}.md"
    found = path.read_text().strip() if path.exists() else ""
    releases = re.search(r"median of (\d+) releases", found)
    return found, int(releases.group(1)) if releases else None


def fma_peak(raw: pathlib.Path) -> float | None:
    """build/bench/fma_peak's GFLOP/s (None where not measured)."""
    found = re.search(r"fma peak: ([\d.]+) GFLOP/s", text(raw, "fma_peak"))
    return float(found.group(1)) if found else None


def roofline_rows(gram: list[dict], peak: float | None) -> list[dict]:
    """The one-thread Gram rows as flop rates (n d (d + 1) flops: the upper triangle's
    multiply-adds) of CPU time and as fractions of one core's FMA peak. add_rows's time is all
    rounds' where bench_gram_ab gives it (below a kernel block of rows a median call either only
    keeps its rows pending or closes a block), as the clipped-Gram target reads it."""
    rows = []
    for r in gram:
        if r["threads"] != 1:
            continue
        flops = r["n"] * r["d"] * (r["d"] + 1)
        add_rows_ms = (r["ratio_cpu_all"] * r["dsyrk_cpu_ms"] if r.get("ratio_cpu_all")
                       else r["add_rows_cpu_ms"])
        dsyrk, add_rows = flops / r["dsyrk_cpu_ms"] * 1e-6, flops / add_rows_ms * 1e-6
        rows.append({"n": r["n"], "d": r["d"], "clipped_percent": r["clipped_percent"],
                     "dsyrk_gflops": dsyrk, "add_rows_gflops": add_rows,
                     "dsyrk_of_peak": dsyrk / peak if peak else None,
                     "add_rows_of_peak": add_rows / peak if peak else None})
    return rows


def collect(raw: pathlib.Path) -> dict:
    accuracy_text, releases = accuracy(raw, "exact_accuracy")
    accuracy_long, releases_long = accuracy(raw, "exact_accuracy_long")
    result = {"environment_start": environment(raw, "start"),
              "environment_end": environment(raw, "end"),
              "gram_vs_dsyrk": gram_rows(raw), "release": release_rows(raw),
              "samplers": sampler_rows(raw), "numerics": numerics_rows(raw),
              "release_rows": cli_release_rows(raw),
              "stream_rows": cli_release_rows(raw, "stream_rows"), "csv_parse": csv_rows(raw),
              "python_overhead": text(raw, "python_overhead").strip(),
              "iev_vs_reference": text(raw, "iev_vs_reference").strip(),
              "exact_accuracy": accuracy_text, "exact_releases": releases,
              "exact_accuracy_long": accuracy_long, "exact_releases_long": releases_long,
              "fma_peak_gflops": fma_peak(raw)}
    result["roofline"] = roofline_rows(result["gram_vs_dsyrk"], result["fma_peak_gflops"])
    result["targets"] = targets.all_targets(result)
    return result


def print_cli_release(result: dict) -> None:
    print("\n### `dpcov release` from a file of rows (bench/release_rows.sh) and from rows piped "
          "to it (bench/stream_rows.sh), d = 50, OpenBLAS on one thread\n")
    print("| mechanism | numerics | input | rows | wall s | CPU s | peak RSS MB |")
    print("|---|---|---|---|---|---|---|")
    runs = ([(r, "file") for r in result["release_rows"]]
            + [(r, "piped") for r in result["stream_rows"]])
    for r, source in runs:
        print(f"| {r['mechanism']} | {r['numerics']} | {source} | {r['rows']:.0e} | "
              f"{r['wall_s']:.2f} | {r['cpu_s']:.2f} | {r['peak_rss_mb']:.1f} |")


def print_machine(result: dict) -> None:
    start, end = result["environment_start"], result["environment_end"]
    if not start:
        return
    load = ", ".join(f"{x:.1f}" for x in start["load_average"])
    load_end = ", ".join(f"{x:.1f}" for x in end.get("load_average", []))
    print(f"\nMachine: {start['cpu_model']}, {start['cores']} cores, "
          f"{'with' if start['avx512'] else 'without'} AVX-512; {start['openblas']}, on one "
          "thread except the two-thread Gram rows; commit " + start["commit"] + "; run from "
          f"{start['utc']} to {end.get('utc', '?')} UTC; load average (1, 5, 15 min) {load} at "
          f"the start, {load_end or '?'} at the end.")


def main() -> None:
    raw = pathlib.Path(sys.argv[1])
    result = collect(raw)
    pathlib.Path(sys.argv[2]).write_text(json.dumps(result, indent=1) + "\n")
    print_sections(result)
    print_cli_release(result)
    for key in ("exact_accuracy", "exact_accuracy_long"):
        if result[key]:
            print("\n" + re.sub(r"^#+ ", "### ", result[key], flags=re.M))
    print("\n### Issue 36's targets, each a ratio to its baseline in this run\n")
    targets.print_table(result["targets"])
    print_machine(result)


def print_roofline(result: dict) -> None:
    peak = result["fma_peak_gflops"]
    print("\n### The Gram against the machine's peak (roofline): one core, OpenBLAS on one thread, "
          "GFLOP/s of CPU time (n d (d + 1) flops), as fractions of the core's FMA peak "
          f"(build/bench/fma_peak: {f'{peak:.1f} GFLOP/s' if peak else 'not measured'})\n")
    print("| n | d | rows clipped | dsyrk GFLOP/s | add_rows GFLOP/s | dsyrk / peak | "
          "add_rows / peak |")
    print("|---|---|---|---|---|---|---|")

    def share(value: float | None) -> str:
        return f"{value:.3f}" if value is not None else "-"
    for r in sorted(result["roofline"], key=lambda r: (r["n"], r["d"], r["clipped_percent"])):
        print(f"| {r['n']:.0e} | {r['d']} | {r['clipped_percent']}% | {r['dsyrk_gflops']:.1f} | "
              f"{r['add_rows_gflops']:.1f} | {share(r['dsyrk_of_peak'])} | "
              f"{share(r['add_rows_of_peak'])} |")


def print_sections(result: dict) -> None:
    print("### Gram accumulation vs bare dsyrk (bench/gram_ab.sh; target: add_rows / dsyrk <= 1.1 "
          "with half of the rows clipped): medians over rounds, each round timing dsyrk and "
          "add_rows on the same rows back to back; the ratios are medians of each call over the "
          "dsyrk of its own round (CPU: the calling thread's, which misses OpenBLAS's second "
          "thread on two)\n")
    print("| threads | n | d | rows clipped | rounds | load | dsyrk ms | add_rows ms | "
          "dsyrk CPU ms | add_rows CPU ms | add_rows / dsyrk, wall | add_rows / dsyrk, CPU |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in sorted(result["gram_vs_dsyrk"],
                    key=lambda r: (r["threads"], r["n"], r["d"], r["clipped_percent"])):
        print(f"| {r['threads']} | {r['n']:.0e} | {r['d']} | {r['clipped_percent']}% | "
              f"{r['rounds']} | {r['load']} | {r['dsyrk_ms']:.2f} | {r['add_rows_ms']:.2f} | "
              f"{r['dsyrk_cpu_ms']:.2f} | {r['add_rows_cpu_ms']:.2f} | {r['ratio_wall']:.3f} | "
              f"{r['ratio_cpu']:.3f} |")
    print_roofline(result)
    print("\n### Release time (targets: additive mechanisms at d = 1000 under 10% of the Gram time "
          "for n = 1e6; IEV under 10 ms at d = 100, under 2 s at d = 500)\n")
    print("| mechanism | d | release ms | Gram n = 1e6 ms | release / Gram |")
    print("|---|---|---|---|---|")
    for r in result["release"]:
        gram = f"{r['gram_1e6_ms']:.0f}" if r["gram_1e6_ms"] else "-"
        share = f"{r['percent_of_gram']:.2f}%" if r["percent_of_gram"] is not None else "-"
        print(f"| {r['mechanism']} | {r['d']} | {r['release_ms']:.3f} | {gram} | {share} |")
    print("\n### Samplers\n")
    print("| benchmark | ms per iteration | items/s | acceptance |")
    print("|---|---|---|---|")
    for r in result["samplers"]:
        items = f"{r['items_per_second']:.3g}" if "items_per_second" in r else "-"
        acc = f"{r['acceptance']:.3f}" if "acceptance" in r else "-"
        print(f"| {r['benchmark']} | {r['ms']:.4g} | {items} | {acc} |")
    print("\n### Release from rows, idealized vs exact numerics (targets: exact at most 2x "
          "idealized at d = 10, 1.5x at d = 100 and 1000, against the bounded idealized path)\n")
    print("| mechanism | d | n | numerics | release ms | CPU ms | exact / idealized | "
          "exact / idealized, bounded |")
    print("|---|---|---|---|---|---|---|---|")
    for r in sorted(result["numerics"],
                    key=lambda r: (r["mechanism"], r["n"], r["d"], r["numerics"])):
        ratio = f"{r['exact_over_idealized']:.2f}" if r["exact_over_idealized"] else "-"
        ratio_bounded = f"{r['exact_over_bounded']:.2f}" if r["exact_over_bounded"] else "-"
        print(f"| {r['mechanism']} | {r['d']} | {r['n']} | {r['numerics']} | {r['ms']:.4g} | "
              f"{r['cpu_ms']:.4g} | {ratio} | {ratio_bounded} |")
    print("\n### CSV parse, one core (target: >= 800 MB/s), against cat, the reader alone, "
          "fast_float alone and the reader's number parsers alone on the same file\n")
    print("| columns | numbers | MB | gram MB/s (wall) | gram MB/s (cpu) | cat MB/s (cpu) | "
          "gram / cat | reader MB/s (cpu) | fast_float MB/s (cpu) | number parsers MB/s (cpu) | "
          "gram / number parsers | peak RSS MB |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in result["csv_parse"]:
        def figure(name: str) -> str:
            value = r[f"{name}_mb_per_s_cpu"]
            return str(value) if value else "-"

        def ratio(name: str) -> str:
            value = r[f"{name}_mb_per_s_cpu"]
            return f"{r['mb_per_s_cpu'] / value:.3f}" if value else "-"
        print(f"| {r['columns']} | {r['format']} | {r['megabytes']} | {r['mb_per_s_wall']} | "
              f"{r['mb_per_s_cpu']} | {figure('cat')} | {ratio('cat')} | {figure('reader')} | "
              f"{figure('fast_float')} | {figure('numbers')} | {ratio('numbers')} | "
              f"{r['peak_rss_mb']:.1f} |")
    print("\n### Python binding overhead\n")
    print("```\n" + result["python_overhead"] + "\n```")
    print("\n### IEV against its NumPy reference, thread CPU time (targets: release >= 20x at "
          "d = 50-200, one Bingham draw >= 10x at d = 100)\n")
    print(result["iev_vs_reference"])


if __name__ == "__main__":
    main()
