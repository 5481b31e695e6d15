#!/usr/bin/env python3
"""Writes README.md's Benchmarks table from bench/results.json (what `make bench` wrote).

    python3 scripts/bench-table.py [bench/results.json] [README.md]

Replaces the rows of the table that follows "## Benchmarks" (from its `| figure |` header to the
first line that is not a table row); the prose above it, which names the run, is edited by hand.
"""
import json
import sys


def value(v: float, unit: str) -> str:
    if unit == "ratio":
        return f"{v:.3f}"
    if v == int(v) or abs(v) >= 1000:
        return f"{round(v):,}"
    if abs(v) >= 10:
        return f"{v:.1f}"
    return f"{v:.3f}"


def rows(figures: list) -> list:
    out = ["| figure | value | unit | goal | met |", "|---|---|---|---|---|"]
    for f in figures:
        goal = f.get("goal") or "-"
        met = f.get("met")
        mark = "-" if met is None else ("yes" if met else "**no**")
        unit = f.get("unit") or "-"
        out.append(f"| {f['name'].strip()} | {value(f['value'], unit)} | {unit} | {goal} | {mark} |")
    return out


def main() -> None:
    results = sys.argv[1] if len(sys.argv) > 1 else "bench/results.json"
    readme = sys.argv[2] if len(sys.argv) > 2 else "README.md"
    figures = json.load(open(results))["figures"]
    lines = open(readme).read().split("\n")
    start = lines.index("## Benchmarks")
    header = next(i for i in range(start, len(lines)) if lines[i].startswith("| figure |"))
    end = header
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    lines[header:end] = rows(figures)
    open(readme, "w").write("\n".join(lines))


if __name__ == "__main__":
    main()
