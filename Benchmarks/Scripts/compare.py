#!/usr/bin/env python3
"""Compares two runs of the benchmark suite, benchmark by benchmark.

    python3 Scripts/compare.py before.md after.md [--stat p50]

Both files are the suite's markdown output (see ratios.py). Prints every
benchmark's wall-clock time in both runs and after ÷ before (below 1: faster
after). Baselines (String, BigString, the flat buffer, naive loops) are in the
table too: when a baseline moved as much as the rope, the machine moved, not
the code. Standard library only.
"""
import sys

from ratios import parse, fmt_time


def main(before_path, after_path, stat):
    before, after = parse(before_path, stat), parse(after_path, stat)
    print(f"Statistic: {stat}.\n")
    print("| Benchmark | before | after | after ÷ before |")
    print("|---|---:|---:|---:|")
    for name in sorted(set(before) | set(after)):
        b = before.get(name, {}).get("Time (wall clock)")
        a = after.get(name, {}).get("Time (wall clock)")
        change = f"{a[0] / b[0]:.2f}" if a and b and b[0] else "–"
        print(f"| {name} | {fmt_time(b[0]) if b else '–'} | {fmt_time(a[0]) if a else '–'} | {change} |")


if __name__ == "__main__":
    args = sys.argv[1:]
    stat = "p50"
    if "--stat" in args:
        i = args.index("--stat")
        stat = args[i + 1]
        del args[i:i + 2]
    main(args[0], args[1], stat)
