#!/usr/bin/env python3
"""The guide's Dong-Liang-Yi figure from bench/dly_grid tables.

Usage: plot_dly_grid.py OUTPUT.png [--authors JSON]... TABLE_FILE...

Each TABLE_FILE holds one or more tables printed by build/bench/dly_grid (a title line starting
"Dong-Liang-Yi", a header line, then one line per (n, d), up to a blank or '#' line); anything
else in the file is ignored.
One row of panels per table, one panel per n: the mean Frobenius error of Gauss, Separate, dpcov's
Adaptive and the paper's Adaptive against d, log-log. Each --authors file
(bench/dly_authors_reference.py's output) adds the authors' own Gauss, Separate and Adaptive, run
from their code on their seeds, as crosses on the panels of the same data and n.
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# Each curve's column, by its header in the table (tables before the Set% column have Ad.paper
# one column to the left).
COLUMNS = [("Gauss", "Gauss"), ("Separate", "Separate"), ("Adaptive (dpcov default)", "Adaptive"),
           ("Adaptive (paper's rules)", "Ad.paper")]


def read_tables(paths):
    """[(title, {n: [(d, gauss, separate, adaptive, paper), ...]})] in file order."""
    tables = []
    for path in paths:
        current = None  # a table runs from its title line to the next blank or '#' line
        index = {}  # header name -> column, from the table's header line
        with open(path) as f:
            for line in f:
                if line.startswith("Dong-Liang-Yi"):
                    current = (line.strip(), {})
                    tables.append(current)
                    continue
                fields = line.split()
                if not fields or line.startswith("#"):
                    current = None
                if current is None or len(fields) < 12:
                    continue
                try:
                    n, d = int(fields[0]), int(fields[1])
                except ValueError:
                    index = {name: i for i, name in enumerate(fields)}  # the header line
                    continue
                current[1].setdefault(n, []).append(
                    [d] + [float(fields[index[name]]) for _, name in COLUMNS])
    if not tables:
        raise SystemExit("plot_dly_grid: no dly_grid table in " + ", ".join(paths))
    return tables


# The authors' curves (bench/dly_authors_reference.py) and the colour of dpcov's curve each is
# drawn next to: their Adaptive is their rule, so it sits by the paper's-rules curve.
AUTHORS = [("Gauss", 0), ("Separate", 1), ("Adaptive", 3)]


def read_authors(paths):
    """{(row norms of norm 1?, n): {name: [(d, mean), ...]}} from the authors' JSON files."""
    curves = {}
    for path in paths:
        with open(path) as f:
            run = json.load(f)
        for point in run["points"]:
            key = (run["zipf_buckets"] == 1, point["n"])
            for name, _ in AUTHORS:
                curves.setdefault(key, {}).setdefault(name, []).append(
                    (point["d"], point[name]["mean"]))
    return curves


def main():
    args = sys.argv[2:]
    author_files = [args[i + 1] for i, a in enumerate(args) if a == "--authors"]
    table_files = [a for i, a in enumerate(args)
                   if a != "--authors" and (i == 0 or args[i - 1] != "--authors")]
    if len(sys.argv) < 3 or not table_files:
        raise SystemExit(__doc__)
    tables = read_tables(table_files)
    authors = read_authors(author_files)
    width = max(len(rows) for _, rows in tables)
    fig, axes = plt.subplots(len(tables), width, figsize=(4.2 * width, 3.6 * len(tables)),
                             squeeze=False)
    for row, (title, by_n) in enumerate(tables):
        for col, n in enumerate(sorted(by_n)):
            ax = axes[row][col]
            points = sorted(by_n[n])
            ds = [p[0] for p in points]
            for k, (label, _) in enumerate(COLUMNS):
                ax.plot(ds, [p[k + 1] for p in points], marker="o", markersize=3, label=label,
                        linestyle="--" if k == 3 else "-")
            for name, colour in AUTHORS:
                theirs = sorted(authors.get(("norm 1" in title, n), {}).get(name, []))
                if theirs:
                    ax.plot([p[0] for p in theirs], [p[1] for p in theirs], linestyle="none",
                            marker="x", markersize=5, color=f"C{colour}",
                            label=f"{name}, the authors' code" if col == 0 else None)
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlabel("d")
            ax.set_ylabel("mean ||release - X'X/n||_F")
            ax.set_title(f"n = {n}" + ("" if col else "\n" + title.split(", mean")[-1].strip()),
                         fontsize=9)
        for col in range(len(by_n), width):
            axes[row][col].axis("off")
    axes[0][0].legend(fontsize=8)
    fig.suptitle(tables[0][0].split(", mean")[0], fontsize=10)
    fig.tight_layout()
    fig.savefig(sys.argv[1], dpi=100)


if __name__ == "__main__":
    main()
