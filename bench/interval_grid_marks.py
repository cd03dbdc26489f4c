"""Which cells of bench/results/interval_grid.md lie outside the band [0.93, 0.99].

Usage (from the repository root): /usr/bin/python3 bench/interval_grid_marks.py [FILE]

Reads every table row of FILE (default bench/results/interval_grid.md) with a model, n, d and
epsilon, and from its columns the printed intervals' coverage and count k ("intervals printed",
else (d + 1) x fits x "share of coefficients printed", else (d + 1) x 40 x "share with an
interval" for the first table, whose cells are 40 fits, else (d + 1) x "fits": upper bounds
where the posterior answered, which prints only some coefficients of a fit; in a "before ->
after" cell, the after). A cell is "above" (or "below") when its
coverage exceeds 0.99 (or falls short of 0.93) by more than 2 standard errors of a binomial
proportion at that edge, sqrt(q (1 - q) / k), q = 0.99 (or 0.93): the test of "coverage <= 0.99"
(">= 0.93") at about 2.3% one-sided; "outside, too few to tell" when it is outside the band
within that. The coefficients of one fit are not independent, so a marked cell near 2 s.e. is
a candidate, not a verdict. Prints one line per cell outside the band, with the table it is in.
"""

from __future__ import annotations

import math
import sys

MODELS = ("gaussian", "heavy", "hetero", "ar1", "quadratic", "binary", "exponential", "lognormal",
          "skewerr", "scales", "sparse", "strong", "null", "interaction", "collinear")


def cells(lines):
    """(section, header, row) for every table row of a cell, with the header's names."""
    section, header = "", None
    for line in lines:
        if line.startswith("#"):
            section = line.lstrip("# ").strip()
        if not line.startswith("|"):
            continue
        parts = [p.strip() for p in line.strip().strip("|").split("|")]
        if parts[0] == "model":
            header = parts
        elif header and parts[0] in MODELS and {"n", "d", "epsilon"} <= set(header):
            yield section, dict(zip(header, parts))


def after(text: str) -> str:
    """The value a "before -> after" cell ends with (the cell itself when it has no arrow)."""
    return text.split("->")[-1].strip()


def count_and_coverage(row):
    """(k, coverage) of the printed intervals, or None where the row has no coverage."""
    row = {name: after(value) for name, value in row.items()}
    cov = next((row[c] for c in ("coverage (printed)", "coverage (all)", "coverage") if c in row),
               "-")
    if cov.split()[0] in ("-", "nan"):
        return None
    p = int(row["d"]) + 1
    counted = row.get("share of coefficients printed (intervals)", "")
    if "(" in cov:  # "0.857 (7 intervals)"
        k = int(cov.split("(")[1].split()[0])
    elif "(" in counted:  # "0.09 (12)"
        k = int(counted.split("(")[1].rstrip(")"))
    elif "intervals printed" in row:
        k = int(row["intervals printed"])
    elif "share of coefficients printed" in row:
        k = round(p * int(row.get("fits", 40)) * float(row["share of coefficients printed"]))
    elif "share with an interval" not in row:  # fits and coverage only: an upper bound
        k = p * int(row.get("fits", 40))
    else:
        k = round(p * 40 * float(row["share with an interval"]))
    return (k, float(cov.split()[0])) if k > 0 else None


def mark(k: int, cov: float) -> str:
    for edge, outside in ((0.99, cov > 0.99), (0.93, cov < 0.93)):
        if outside:
            se = math.sqrt(edge * (1 - edge) / k)
            side = "above" if edge == 0.99 else "below"
            return side if abs(cov - edge) > 2 * se else f"{side}, too few to tell"
    return ""


def main(argv=None) -> int:
    path = (argv or sys.argv[1:] or ["bench/results/interval_grid.md"])[0]
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    print("| table | model | n | d | epsilon | intervals | coverage | mark |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for section, row in cells(lines):
        got = count_and_coverage(row)
        if got is None or not mark(*got):
            continue
        k, cov = got
        print(f"| {section[:40]} | {row['model']} | {row['n']} | {row['d']} | {row['epsilon']} "
              f"| {k} | {cov:.3f} | {mark(k, cov)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
