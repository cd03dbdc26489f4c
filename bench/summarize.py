"""Turns the raw outputs of scripts/bench into one Markdown table (stdout) and one JSON file.

Usage: summarize.py RAW_DIR OUT_JSON. RAW_DIR holds Google Benchmark JSON files (gram_t1, gram_t2,
release, iev, random, exact) and the text outputs of bench/csv_parse.sh (csv_10, csv_50) and of the
Python overhead script (python_overhead) and bench/iev_vs_reference.py (iev_vs_reference). Times
are wall-clock (real_time), medians where the benchmark was repeated, except in iev_vs_reference
(thread CPU time).
"""

from __future__ import annotations

import json
import os
import pathlib
import platform
import re
import sys


def load(raw: pathlib.Path, name: str) -> list[dict]:
    path = raw / f"{name}.json"
    if not path.exists():
        return []
    runs = json.loads(path.read_text())["benchmarks"]
    medians = [b for b in runs if b.get("aggregate_name") == "median"]
    return medians or [b for b in runs if b.get("run_type", "iteration") == "iteration"]


def ms(b: dict) -> float:
    scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b["time_unit"]]
    return b["real_time"] * scale


def args(b: dict) -> list[str]:
    return b["run_name"].split("/")[1:] if "run_name" in b else b["name"].split("/")[1:]


def gram_rows(raw: pathlib.Path) -> list[dict]:
    rows = []
    for threads in (1, 2):
        runs = load(raw, f"gram_t{threads}")
        bare = {tuple(args(b)[:2]): ms(b) for b in runs if b["name"].startswith("BM_BareDsyrk")}
        for b in runs:
            if not b["name"].startswith("BM_GramAddRows"):
                continue
            n, d, over = args(b)[:3]
            base = bare.get((n, d))
            if base is None:
                continue
            rows.append({"threads": threads, "n": int(n), "d": int(d), "clipped_percent": int(over),
                         "dsyrk_ms": base, "add_rows_ms": ms(b), "ratio": base / ms(b)})
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
        scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b["time_unit"]]
        rows.append({"mechanism": mechanism, "d": int(d.split(":")[1]), "n": n,
                     "numerics": numerics, "ms": ms(b), "cpu_ms": b["cpu_time"] * scale})
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


def main() -> None:
    raw = pathlib.Path(sys.argv[1])
    result = {"machine": platform.processor() or platform.machine(),
              "cpus": os.cpu_count(), "load_average": os.getloadavg(),
              "gram_vs_dsyrk": gram_rows(raw), "release": release_rows(raw),
              "samplers": sampler_rows(raw), "numerics": numerics_rows(raw),
              "csv_parse": csv_rows(raw),
              "python_overhead": text(raw, "python_overhead").strip(),
              "iev_vs_reference": text(raw, "iev_vs_reference").strip()}
    pathlib.Path(sys.argv[2]).write_text(json.dumps(result, indent=1) + "\n")

    print(f"Machine: {result['machine']}, {result['cpus']} CPUs; load average at the end: "
          + ", ".join(f"{x:.1f}" for x in result["load_average"]) + "\n")
    print("### Gram accumulation vs bare dsyrk (target: ratio >= 0.9)\n")
    print("| threads | n | d | rows clipped | dsyrk ms | add_rows ms | ratio |")
    print("|---|---|---|---|---|---|---|")
    for r in sorted(result["gram_vs_dsyrk"],
                    key=lambda r: (r["threads"], r["n"], r["d"], r["clipped_percent"])):
        print(f"| {r['threads']} | {r['n']:.0e} | {r['d']} | {r['clipped_percent']}% | "
              f"{r['dsyrk_ms']:.2f} | {r['add_rows_ms']:.2f} | {r['ratio']:.3f} |")
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
    print("\n### Release from rows, idealized vs exact numerics (target: exact within 3x of "
          "idealized at d = 1000 for the CLI default)\n")
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
