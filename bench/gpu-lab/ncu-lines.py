#!/usr/bin/env python3
"""Summarises an Nsight Compute source-page CSV (ncu --page source --print-source cuda --csv):
the CUDA source lines with the most executed instructions (or, with a third argument `stall`,
the most stall samples).

  ncu-lines.py REPORT.csv [N] [stall]"""
import csv
import sys

rows = list(csv.reader(open(sys.argv[1], errors="replace")))
head = next(i for i, r in enumerate(rows) if "Source" in r and any("Instructions Executed" in c for c in r))
# (works for the CUDA and the SASS source views)
cols = rows[head]
src = cols.index("Source")
inst = next(i for i, c in enumerate(cols) if c.startswith("Instructions Executed"))
stall = next((i for i, c in enumerate(cols) if c.startswith("Warp Stall Sampling (All")), None)
line_col = next((i for i, c in enumerate(cols) if c in ("#", "Line", "Address")), 0)


def num(v):
    try:
        return float(v.replace(",", ""))
    except ValueError:
        return 0.0


data = [(num(r[inst]), num(r[stall]) if stall is not None else 0, r[line_col], r[src].strip())
        for r in rows[head + 1:] if len(r) > max(src, inst)]
total_i = sum(d[0] for d in data) or 1
total_s = sum(d[1] for d in data) or 1
print(f"instructions {total_i:.0f}, stall samples {total_s:.0f}")
key = 1 if len(sys.argv) > 3 and sys.argv[3] == "stall" else 0  # sort by stall samples
for d in sorted(data, key=lambda d: -d[key])[:int(sys.argv[2]) if len(sys.argv) > 2 else 25]:
    print(f"{100 * d[0] / total_i:5.1f}% inst {100 * d[1] / total_s:5.1f}% stall  L{d[2]:>5} {d[3][:110]}")
