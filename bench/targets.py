"""Issue 36's targets from one run of scripts/bench: each figure as a ratio to its baseline in the
same run, and whether it meets the target (bench/summarize.py prints the table).

Each function takes the summary dictionary summarize.py builds and returns rows of
{target, figure, baseline, ratio, limit, sense, passed}; `sense` is "<=" or ">=", `ratio` None
when the run did not measure the figure (then `passed` is None too).
"""

from __future__ import annotations

import re
import statistics

# (d, at most exact / idealized): Done means "at most 1.5x the idealized one at d = 100 and 1000
# and at most 2x at d = 10".
EXACT_RELEASE_LIMITS = ((10, 2.0), (100, 1.5), (1000, 1.5))
IEV_DIMS = (50, 100, 200)


def target(name: str, figure: str, baseline: str, ratio: float | None, limit: float,
           sense: str = "<=") -> dict:
    passed = None if ratio is None else (ratio <= limit if sense == "<=" else ratio >= limit)
    return {"target": name, "figure": figure, "baseline": baseline, "ratio": ratio,
            "limit": limit, "sense": sense, "passed": passed}


def exact_release(summary: dict) -> list[dict]:
    """Analyze Gauss from n = 5000 rows (bench_exact, one thread, CPU time: the steadier figure on
    a shared machine): exact against the idealized release that bounds its rows as a release
    from rows does (BM_IdealizedBounded)."""
    cpu = {(r["d"], r["numerics"]): r["cpu_ms"] for r in summary["numerics"]
           if r["mechanism"] == "analyze_gauss" and r["n"] == 5000}
    rows = []
    for d, limit in EXACT_RELEASE_LIMITS:
        exact, base = cpu.get((d, "exact")), cpu.get((d, "idealized, bounded"))
        rows.append(target(f"exact release from rows, d = {d}",
                           "analyze_gauss exact, n = 5000, CPU time", "idealized, rows bounded",
                           exact / base if exact and base else None, limit))
    return rows


def cli_release(summary: dict) -> list[dict]:
    """`dpcov release` on 10^6 x 50 from a file: exact / idealized CPU time (medians), and the
    zCDP row mechanisms' peak RSS at the larger row count over the smaller one."""
    runs = summary["release_rows"]
    cpu = {numerics: [r["cpu_s"] for r in runs
                      if r["mechanism"] == "analyze_gauss" and r["numerics"] == numerics]
           for numerics in ("exact", "idealized")}
    ratio = (statistics.median(cpu["exact"]) / statistics.median(cpu["idealized"])
             if cpu["exact"] and cpu["idealized"] else None)
    n = max((r["rows"] for r in runs), default=0)
    rss = {r["numerics"]: r["peak_rss_mb"] for r in runs if r["mechanism"] == "analyze_gauss"}
    memory = " / ".join(f"{rss[k]:.0f}" for k in ("exact", "idealized") if k in rss)
    rows = [target(f"exact release from a file, {n:.0e} x 50",
                   f"CPU time, median (peak RSS exact / idealized: {memory} MB)",
                   "--numerics idealized", ratio, 1.3)]
    for mechanism in ("dly_adaptive", "coinpress"):
        peaks = sorted((r["rows"], r["peak_rss_mb"]) for r in runs if r["mechanism"] == mechanism)
        growth = peaks[-1][1] / peaks[0][1] if len(peaks) > 1 else None
        sizes = " / ".join(f"{p:.0f} MB at {k:.0e}" for k, p in peaks)
        rows.append(target(f"{mechanism} in bounded memory", f"peak RSS ({sizes})",
                           "the same at 10x fewer rows", growth, 1.1))
    return rows


def clipped_gram(summary: dict) -> list[dict]:
    """The worst add_rows / dsyrk time over every size with half of the rows clipped: CPU time
    on one OpenBLAS thread, wall time on two (the CPU time misses OpenBLAS's second thread)."""
    rows = []
    for threads, clock in ((1, "cpu_ms"), (2, "ms")):
        ratios = [(r[f"add_rows_{clock}"] / r[f"dsyrk_{clock}"], r["n"], r["d"])
                  for r in summary["gram_vs_dsyrk"]
                  if r["threads"] == threads and r["clipped_percent"] == 50]
        worst = max(ratios, default=None)
        where = f"worst at n = {worst[1]:.0e}, d = {worst[2]}" if worst else "not run"
        rows.append(target(f"clipped Gram, OpenBLAS on {threads} thread{'s' * (threads > 1)}",
                           f"add_rows {'CPU' if threads == 1 else 'wall'} time, 50% clipped "
                           f"({where})", "bare dsyrk, same rows", worst[0] if worst else None,
                           1.1))
    return rows


def iev(summary: dict) -> list[dict]:
    """bench/iev_vs_reference.py's rows: | figure | d | dpcov ms | reference ms | ratio | ..."""
    found = {}
    for line in summary["iev_vs_reference"].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 5 and cells[0] in ("release", "draw") and cells[1].isdigit():
            found[(cells[0], int(cells[1]))] = float(cells[4])
    rows = [target(f"IEV release, d = {d}", "dpcov thread CPU time", "NumPy reference",
                   found.get(("release", d)), 20.0, ">=") for d in IEV_DIMS]
    rows.append(target("one Bingham draw, d = 100 (What to build)", "dpcov thread CPU time",
                       "NumPy reference", found.get(("draw", 100)), 10.0, ">="))
    return rows


def exact_accuracy(summary: dict) -> list[dict]:
    """build/bench/exact_accuracy's table: the worst exact / idealized median error over epsilon,
    per data set."""
    worst: dict[str, tuple[float, str]] = {}
    for line in summary["exact_accuracy"].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 6 and re.fullmatch(r"\d+ x \d+", cells[1]):
            ratio = float(cells[5])
            if cells[0] not in worst or ratio > worst[cells[0]][0]:
                worst[cells[0]] = (ratio, cells[2])
    return [target(f"exact Analyze Gauss error, {name}",
                   f"median of {summary['exact_releases']} releases (worst at eps = {eps})",
                   "idealized, same releases", ratio, 1.03)
            for name, (ratio, eps) in worst.items()]


def csv_parse(summary: dict) -> list[dict]:
    """CSV parse speed against the 800 MB/s per core the issue asks for (What to build)."""
    rows = summary["csv_parse"]
    slowest = min(rows, key=lambda r: r["mb_per_s_cpu"], default=None)
    figure = (f"{slowest['columns']} columns, {slowest['format']}, CPU MB/s" if slowest
              else "not run")
    return [target("CSV parse, one core (What to build)", figure, "800 MB/s",
                   slowest["mb_per_s_cpu"] / 800 if slowest else None, 1.0, ">=")]


def all_targets(summary: dict) -> list[dict]:
    return (exact_release(summary) + cli_release(summary) + clipped_gram(summary) + iev(summary)
            + exact_accuracy(summary) + csv_parse(summary))


def print_table(rows: list[dict]) -> None:
    print("| target | figure | baseline (same run) | ratio | target | met |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        ratio = f"{r['ratio']:.3f}" if r["ratio"] is not None else "not measured"
        met = {True: "yes", False: "**no**", None: "-"}[r["passed"]]
        print(f"| {r['target']} | {r['figure']} | {r['baseline']} | {ratio} | "
              f"{r['sense']} {r['limit']:g} | {met} |")
