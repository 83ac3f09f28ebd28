#!/usr/bin/env python3
"""Draws the scaling sweeps (and the trace replay against the Rust peers) as SVG charts.

    cd Benchmarks
    swift package --disable-sandbox benchmark --target ScalingSweeps --no-progress \\
        --format markdown --path stdout > sweeps.md
    Scripts/peers.sh --json peers.json                  # optional: the Rust peers
    cd ..
    python3 Benchmarks/Scripts/charts.py Benchmarks/sweeps.md [--peers Benchmarks/peers.json] \\
        [--out docs/charts] [--stat p50] [--table]

One chart a sweep operation, log–log: time per operation (x: the text's size in bytes, the
number of storages or of unseen edits; y: time per operation), one line per structure, the
engine's line drawn heavier, each structure in the same colour on every chart, and the
engine's targets drawn in where one applies to a point of the sweep (a short dashed line at
the limit, labelled with it and whether this run meets it). `Sweep text/memory/…` is drawn
as bytes allocated per UTF-8 byte instead of time (the `Malloc / free Δ` metric: what the
build asked of malloc and kept, exactly, divided by the text size). With --peers, also a
grouped bar chart of nanoseconds per patch for every trace of peers.sh's JSON lines
(trace-replay.svg).

The charts go to docs/charts/ (or --out) under stable names: text-build.svg,
text-random-edit.svg, text-utf16-offset.svg, text-paragraph-range.svg,
text-selection-context.svg, text-memory.svg, storages-full-document.svg,
storages-locate.svg, unseen-edits-map.svg, unseen-edits-replace.svg,
unseen-edits-origin-edit.svg, trace-replay.svg. The same input (and matplotlib version)
gives byte-identical SVGs.
Prints the charts written and the points missing (a structure absent at a size where
others were measured: a baseline stopped early, or a run cut short); with --table also a
markdown table per sweep (size × structure, time per operation, and ÷ the engine's).

Several SWEEPS.md files may be given: a benchmark in a later file replaces the same one in an
earlier file (a partial rerun over a full run). Options (SWEEPS.md may be left out when
--peers is given):
  --peers FILE   the JSON lines of `peers.sh --json FILE` (draws trace-replay.svg)
  --out DIR      where the SVGs go (default: docs/charts of this checkout)
  --stat pNN     the percentile drawn: p0 p25 p50 p75 p90 p99 p100 (default p50, the median)
  --table        also print the markdown tables
  --no-charts    only the summary (and the tables): needs no matplotlib

Needs: Python 3 and matplotlib (from PyPI: `pip install matplotlib`); installs nothing, and
without matplotlib says so and exits with status 2 (1: no sweep benchmarks in the input).
Reads the benchmark markdown with parse() of ratios.py, beside this script.
"""
import argparse
import json
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ left beside the scripts
from ratios import COLUMNS, fmt_time, parse  # noqa: E402

DEFAULT_OUT = os.path.normpath(os.path.join(HERE, "..", "..", "docs", "charts"))

# --- What is drawn -------------------------------------------------------------------------

# (file name, benchmark family, operation, title: what one operation is, x-axis label or None
# for the family's). Operations found in the input but not here are drawn too, under a name
# made from theirs.
CHARTS = [
    ("text-build", "Sweep text", "build",
     "Build: one structure from a String of the whole text", None),
    ("text-random-edit", "Sweep text", "random edit",
     "Random edit: one single-character edit at a random place", None),
    ("text-utf16-offset", "Sweep text", "UTF-16 to UTF-8 offset",
     "UTF-16 → UTF-8 offset: one conversion at a random offset", None),
    ("text-paragraph-range", "Sweep text", "paragraph range",
     "Paragraph range: the paragraph holding one random offset", None),
    ("text-selection-context", "Sweep text", "selection context",
     "Selection context: one character selected at a random place", None),
    ("text-memory", "Sweep text", "memory",
     "Memory: what a built text keeps allocated, per UTF-8 byte of it", None),
    ("storages-full-document", "Sweep storages", "full document",
     "Full document: the contexts of every storage, one call", None),
    ("storages-locate", "Sweep storages", "locate",
     "Locate: one document offset → (storage, offset)", None),
    ("unseen-edits-map", "Sweep unseen edits", "map",
     "Map: one position through the composed edits", "composed edits"),
    ("unseen-edits-replace", "Sweep unseen edits", "replace on basis 0",
     "Replace on basis 0: one tool replacement after unseen edits", None),
    ("unseen-edits-origin-edit", "Sweep unseen edits", "origin edit on basis 0",
     "Origin edit on basis 0: one origin's edit after unseen edits", None),
]
FAMILY_X_LABEL = {
    "Sweep text": "text size (UTF-8 bytes; 1 KB = 1,000 bytes)",
    "Sweep storages": "storages in the document",
    "Sweep unseen edits": "unseen edits (made since basis 0)",
}
# For `memory`: the bytes the build asked of malloc and did not free (exact; no allocator
# headers), drawn ÷ the text size. The heap's own growth (the custom metric "heap bytes per
# 1000 UTF-8 bytes", glibc's mallinfo2) is noisy at small sizes, where the heap reuses free chunks.
MEMORY_METRIC = "Malloc / free Δ (bytes)"
TIME_METRIC = "Time (wall clock)"

# The engine's targets where one applies to a point of a sweep: chart -> [(x, structure, limit,
# label or None)]. limit is seconds (bytes allocated per UTF-8 byte for text-memory), or the name of
# a structure the engine must be no slower than at x. The numbers are those Scripts/ratios.py
# checks (its --targets table: issue 10's "Targets" and issue 11's rows), written inline there;
# the selection context's is docs/benchmarks-history.md's ("Contexts": ≤ 10 µs in a 100 MB storage).
TARGETS = {
    "text-build": [(100e6, "Rope", 0.1, "target ≤ 100 ms (1 GB/s)")],
    "text-random-edit": [(100e6, "Rope", 500e-9, None)],
    "text-utf16-offset": [(1e6, "Rope", 100e-9, None), (100e6, "Rope", "String", None)],
    "text-selection-context": [(100e6, "DocumentEngine", 10e-6, None)],
    "text-memory": [(100e6, "Rope", 1.15, "target ≤ 1.15×")],
    "storages-full-document": [(1e4, "DocumentEngine", 1e-3, None)],
    "storages-locate": [(1e4, "DocumentEngine", 100e-9, None)],
    "unseen-edits-map": [(1e5, "ChangeMap", 300e-9, None)],
    "unseen-edits-replace": [(1e4, "Document", 10e-6, None)],
    "unseen-edits-origin-edit": [(1e3, "Document", 10e-6, None), (1e3, "Document", "sequential", None)],
}

# The engine's structures, drawn heavier; the first of them in a chart is the one the
# tables divide by.
ENGINE = ["Rope", "DocumentEngine", "Document", "ChangeMap", "Document, map kept"]
# One colour and marker per structure on every chart (the trace replay's included).
STYLE = {
    "Rope": ("#d62728", "o"),
    "DocumentEngine": ("#9c1f8f", "o"),
    "Document": ("#9c1f8f", "o"),
    "ChangeMap": ("#d62728", "o"),
    "Document, map kept": ("#d62728", "D"),
    "BigString": ("#1f77b4", "s"),
    "String": ("#2ca02c", "^"),
    "Strings": ("#2ca02c", "^"),
    "NSString": ("#8c564b", "v"),
    "Flat [UInt8]": ("#ff7f0e", "D"),
    "linear walk": ("#7f7f7f", "s"),
    "sequential": ("#7f7f7f", "s"),
    "ropey": ("#17becf", "P"),
    "crop": ("#bcbd22", "X"),
    "jumprope": ("#e377c2", "*"),
}
SPARE = ["#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd"]
ORDER = ENGINE + ["BigString", "String", "NSString", "Flat [UInt8]", "Strings", "linear walk",
                  "sequential", "ropey", "crop", "jumprope"]

# The peers' JSON keys (peers.sh --json) and the names drawn; JumpRopeBuf, which merges
# neighbouring edits before applying them, is left out.
PEER_KEYS = [("rope", "Rope"), ("ropey", "ropey"), ("crop", "crop"), ("jumprope", "jumprope"),
             ("flat", "Flat [UInt8]"), ("bigstring", "BigString")]

STAT_NAMES = {"p50": "median", "p0": "minimum", "p100": "maximum"}

# --- Reading ---------------------------------------------------------------------------------

SIZE_UNITS = {"": 1, "B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9}


def size_value(text):
    """`1 KB` -> 1000, `100,000` -> 100000 (decimal units, commas as thousands separators)."""
    m = re.fullmatch(r"([\d,]+(?:\.\d+)?)\s*([KMG]?B)?", text.strip(), re.IGNORECASE)
    if not m:
        return None
    return float(m.group(1).replace(",", "")) * SIZE_UNITS[(m.group(2) or "").upper()]


def sweeps(results):
    """{(family, operation): {structure: {x: (benchmark name, metrics)}}} of every `Sweep …`."""
    found, skipped = {}, []
    for name, metrics in results.items():
        parts = name.split("/", 3)
        if not name.startswith("Sweep ") or len(parts) != 4:
            continue
        family, operation, size, structure = parts
        x = size_value(size)
        if x is None:
            skipped.append(name)
            continue
        found.setdefault((family, operation), {}).setdefault(structure, {})[x] = (name, metrics)
    return found, skipped


def times(a, b):
    """a ÷ b with two significant figures (0.36×, 2.8×, 12×, 1,050×)."""
    if not (a and b):
        return "–"
    x = a / b
    return f"{x:,.0f}×" if x >= 10 else f"{x:.2g}×"


def point_value(operation, metrics, x):
    """What is drawn of one benchmark: seconds per operation, or (memory, at text size `x`)
    bytes allocated per UTF-8 byte."""
    if operation == "memory":
        entry = metrics.get(MEMORY_METRIC)
        return entry[0] / x if entry else None
    entry = metrics.get(TIME_METRIC)
    return entry[0] if entry else None


def read_peers(path):
    """[(trace, patches, {structure: ns per patch})] in the file's order, and what is missing."""
    traces, order, notes = {}, [], []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            obj = json.loads(line)
            trace = obj.get("trace")
            if trace is None:
                raise SystemExit(f"charts.py: {path}:{number}: no \"trace\" key (not peers.sh --json output?)")
            if trace not in traces:
                traces[trace] = {"patches": obj.get("patches"), "runs": {}}
                order.append(trace)
            entry = traces[trace]
            if obj.get("patches") != entry["patches"]:
                notes.append(f"{trace}: the lines disagree on the patch count ({entry['patches']} vs {obj.get('patches')})")
            for key, value in obj.items():
                if isinstance(value, dict) and "edits_s" in value:
                    entry["runs"][key] = value
    rows = []
    for trace in order:
        patches, runs = traces[trace]["patches"], traces[trace]["runs"]
        ns = {}
        for key, label in PEER_KEYS:
            run = runs.get(key)
            if run is None:
                notes.append(f"{trace}: no {label}" + (" (crop runs only on all-ASCII traces)" if key == "crop" else ""))
            elif not run.get("ok", False):
                notes.append(f"{trace}: {label} did not give the trace's endContent: left out")
            else:
                ns[label] = run["edits_s"] / patches * 1e9
        rows.append((trace, patches, ns))
    return rows, notes


# --- Labels ----------------------------------------------------------------------------------

def size_label(x):
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if x >= scale:
            return f"{x / scale:g} {unit}"
    return f"{x:g} B"


def count_label(x):
    return f"{x:,.0f}"


def time_label(seconds):
    """1e-7 -> `100 ns`, 2e-6 -> `2 µs`: a tick label."""
    if seconds <= 0:
        return ""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if seconds >= scale * 0.9999:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def structure_order(names):
    known = [n for n in ORDER if n in names]
    return known + sorted(n for n in names if n not in ORDER)


ALL_STRUCTURES = set()  # every structure drawn, for the spare colours' order


def style(name):
    if name in STYLE:
        return STYLE[name]
    extra = sorted(n for n in ALL_STRUCTURES if n not in STYLE)
    return SPARE[extra.index(name) % len(SPARE)], "h"


def slug(text):
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


# --- Charts ----------------------------------------------------------------------------------

def need_matplotlib():
    try:
        import matplotlib
    except ImportError:
        print("charts.py needs matplotlib: pip install matplotlib", file=sys.stderr)
        sys.exit(2)
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams.update({
        "svg.fonttype": "none",        # text as text: small files, no embedded glyphs
        "svg.hashsalt": "charts.py",   # stable ids: the same input, the same bytes
        "font.family": "sans-serif",
        "font.sans-serif": ["DejaVu Sans", "Helvetica", "Arial"],  # a short list in every <text>
        "font.size": 9,
        "axes.titlesize": 10,
        "axes.spines.top": False,
        "axes.spines.right": False,
    })
    return plt


def save(plt, fig, path):
    fig.savefig(path, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)


def log_ticks(lo, hi, steps):
    """Every decade's multiples in `steps` (1: the decades alone) between lo and hi."""
    ticks = []
    for e in range(math.floor(math.log10(lo)) - 1, math.ceil(math.log10(hi)) + 1):
        for m in steps:
            v = m * 10.0 ** e
            if lo <= v <= hi:
                ticks.append(v)
    return ticks


def sweep_chart(plt, stem, family, operation, title, x_label, lines, stat, targets, out):
    """Draws one sweep; returns the target verdicts drawn, as text."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

    memory = operation == "memory"
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    values = []
    for structure in structure_order(lines):
        points = sorted(lines[structure].items())
        if not points:
            continue
        xs, ys = zip(*points)
        values += ys
        color, marker = style(structure)
        engine = structure in ENGINE
        ax.plot(xs, ys, color=color, marker=marker, label=structure,
                linewidth=2.6 if engine else 1.3, markersize=6.5 if engine else 4.5,
                alpha=1.0 if engine else 0.85, zorder=3 if engine else 2)
    all_x = sorted({x for points in lines.values() for x in points})

    verdicts = []
    drawn = []  # (x, y, label, whether the label goes below the line)
    for x, who, limit, label in targets:
        measured = lines.get(who, {}).get(x)
        if isinstance(limit, str):  # no slower than another structure
            y = lines.get(limit, {}).get(x)
            if y is None:
                verdicts.append(f"{who} ≤ {limit} at {x:g}: not drawn, no {limit} there")
                continue
            text = label or f"target ≤ {limit}"
        else:
            y = limit
            text = label or f"target ≤ {time_label(limit)}"
        if measured is None:
            result = "not measured"
        else:
            result = "met" if measured <= y else "missed"
        verdicts.append(f"{text} ({who} at {size_label(x) if family == 'Sweep text' else count_label(x)}): {result}")
        # The label on the side of the line away from the engine's point.
        drawn.append((x, y, f"{text}: {result}" if measured is not None else text,
                      measured is not None and measured > y))
        values.append(y)

    if memory:
        values.append(1.0)
    lo, hi = min(values), max(values)
    if not memory or hi / lo > 3:
        ax.set_yscale("log")
        span = math.log10(hi / lo)
        pad = 10 ** max(0.08 if memory else 0.12, 0.08 * span)
        ax.set_ylim(lo / pad, hi * pad * (1.6 if drawn else 1))
        lo_lim, hi_lim = ax.get_ylim()
        steps = (1, 1.5, 2, 3, 5, 7) if memory else (1,) if span >= 2 else (1, 2, 5)
        ax.yaxis.set_major_locator(FixedLocator(log_ticks(lo_lim, hi_lim, steps)))
        ax.yaxis.set_minor_locator(FixedLocator(log_ticks(lo_lim, hi_lim, range(1, 10))))
    else:
        ax.set_ylim(0, hi * 1.15)
    if memory:
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}×"))
        ax.axhline(1.0, color="#999999", linewidth=0.8, linestyle=":", zorder=1)
        ax.annotate("the UTF-8 bytes themselves", (all_x[0], 1.0), xytext=(2, -10),
                    textcoords="offset points", fontsize=7, color="#777777")
        ax.set_ylabel("bytes allocated per UTF-8 byte")
    else:
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: time_label(v)))
        ax.set_ylabel(f"time per operation ({STAT_NAMES.get(stat, stat)})")

    ax.set_xscale("log")
    ax.set_xlim(all_x[0] / 1.6, all_x[-1] * 1.6)
    ax.xaxis.set_major_locator(FixedLocator(all_x))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_major_formatter(FuncFormatter(
        lambda v, _: size_label(v) if family == "Sweep text" else count_label(v)))
    ax.set_xlabel(x_label or FAMILY_X_LABEL.get(family, "size"))

    for x, y, text, below in drawn:
        ax.plot([x / 2.2, x * 2.2], [y, y], color="black", linewidth=1.6, linestyle=(0, (4, 2)), zorder=5)
        last = x >= all_x[-1]
        first = x <= all_x[0]
        ax.annotate(text, (x * (2.2 if first else 1 / 2.2 if last else 1), y), xytext=(0, -4 if below else 4),
                    textcoords="offset points", fontsize=7.5, ha="left" if first else "right" if last else "center",
                    va="top" if below else "bottom", zorder=6,
                    bbox=dict(boxstyle="round,pad=0.15", facecolor="white", edgecolor="none", alpha=0.8))

    ax.grid(True, which="major", color="#dddddd", linewidth=0.7)
    if ax.get_yscale() == "log" and math.log10(hi / lo) < 2:  # a few decades: the minor lines help
        ax.grid(True, which="minor", axis="y", color="#f0f0f0", linewidth=0.5)
    ax.set_axisbelow(True)
    what = f"bytes allocated per UTF-8 byte, {'log–log' if ax.get_yscale() == 'log' else 'log x'}" if memory else f"{STAT_NAMES.get(stat, stat)} time per operation, log–log"
    ax.set_title(f"{title}\n", loc="left", fontweight="bold")
    ax.text(0, 1.02, f"{family}/{operation} · {what} · lower is better", transform=ax.transAxes,
            fontsize=7.5, color="#555555")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, fontsize=8)
    save(plt, fig, os.path.join(out, stem + ".svg"))
    return verdicts


def peers_chart(plt, rows, out):
    fig, ax = plt.subplots(figsize=(10.5, 4.4))
    present = [label for _, label in PEER_KEYS if any(label in ns for _, _, ns in rows)]
    width = 0.8 / len(present)
    values = [v for _, _, ns in rows for v in ns.values()]
    bottom = 10 ** math.floor(math.log10(min(values)))
    for i, label in enumerate(present):
        color, _ = style(label)
        xs = [t + (i - (len(present) - 1) / 2) * width for t in range(len(rows)) if label in rows[t][2]]
        ys = [ns[label] for _, _, ns in rows if label in ns]
        ax.bar(xs, [y - bottom for y in ys], width * 0.92, bottom=bottom, color=color, label=label,
               edgecolor="black" if label == "Rope" else "none", linewidth=1.0, zorder=3)
    ax.set_yscale("log")
    ax.set_ylim(bottom, 10 ** math.ceil(math.log10(max(values)) + 0.1))
    from matplotlib.ticker import FuncFormatter
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: time_label(v * 1e-9)))
    ax.set_ylabel("time per patch (the edits alone, best of the rounds)")
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels([f"{trace}\n{patches:,} patches" for trace, patches, _ in rows], fontsize=7)
    ax.grid(True, axis="y", which="major", color="#dddddd", linewidth=0.7)
    ax.set_axisbelow(True)
    ax.set_title("Trace replay: one patch of a real editing trace\n", loc="left", fontweight="bold")
    ax.text(0, 1.02, "Benchmarks/Scripts/peers.sh · log y · lower is better · crop runs only on all-ASCII traces",
            transform=ax.transAxes, fontsize=7.5, color="#555555")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, fontsize=8)
    save(plt, fig, os.path.join(out, "trace-replay.svg"))


# --- Tables ----------------------------------------------------------------------------------

def sweep_table(family, operation, lines, stat):
    structures = structure_order(lines)
    reference = next((s for s in ENGINE if s in lines), None)
    memory = operation == "memory"
    xs = sorted({x for points in lines.values() for x in points})
    head = "Size" if family == "Sweep text" else "Count"
    what = "bytes allocated per UTF-8 byte" if memory else f"{STAT_NAMES.get(stat, stat)} time per operation"
    print(f"\n#### {family}/{operation} ({what}" + (f"; (n×): ÷ {reference}'s)" if reference else ")") + "\n")
    print(f"| {head} | " + " | ".join(structures) + " |")
    print("|---|" + "---:|" * len(structures))
    for x in xs:
        base = lines.get(reference, {}).get(x)
        cells = []
        for s in structures:
            v = lines[s].get(x)
            if v is None:
                cells.append("–")
                continue
            cell = f"{v:.3f}×" if memory else fmt_time(v)
            if base and s != reference:
                cell += f" ({times(v, base)})"
            cells.append(cell)
        label = size_label(x) if family == "Sweep text" else count_label(x)
        print(f"| {label} | " + " | ".join(cells) + " |")


def peers_table(rows):
    present = [label for _, label in PEER_KEYS if any(label in ns for _, _, ns in rows)]
    print("\n#### Trace replay (ns per patch, the edits alone; (n×): ÷ Rope's)\n")
    print("| Trace | patches | " + " | ".join(present) + " |")
    print("|---|---:|" + "---:|" * len(present))
    for trace, patches, ns in rows:
        cells = []
        for label in present:
            v = ns.get(label)
            if v is None:
                cells.append("–")
            else:
                cell = f"{v:,.1f}" if v < 100 else f"{v:,.0f}"
                if label != "Rope" and ns.get("Rope"):
                    cell += f" ({times(v, ns['Rope'])})"
                cells.append(cell)
        print(f"| {trace} | {patches:,} | " + " | ".join(cells) + " |")


# --- Main ------------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(usage="%(prog)s [SWEEPS.md ...] [--peers FILE] [--out DIR] [--stat pNN] [--table]"
                                           " [--no-charts]",
                                     description=__doc__, add_help=True,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sweeps", nargs="*",
                        help="the markdown output of the ScalingSweeps benchmarks: one run, or several"
                             " (a benchmark in a later file replaces the same one in an earlier file)")
    parser.add_argument("--peers", help="the JSON lines of peers.sh --json")
    parser.add_argument("--out", default=DEFAULT_OUT, help="where the SVGs go (default: %(default)s)")
    parser.add_argument("--stat", default="p50", choices=list(COLUMNS), help="the percentile drawn (default p50)")
    parser.add_argument("--table", action="store_true", help="also print a markdown table per sweep")
    parser.add_argument("--no-charts", action="store_true", help="draw nothing (needs no matplotlib)")
    args = parser.parse_args()

    if not args.sweeps and not args.peers:
        parser.error("give the sweeps' markdown, --peers FILE, or both")

    plt = None if args.no_charts else need_matplotlib()
    results = {}
    for path in args.sweeps:
        results.update(parse(path, args.stat))
    found, skipped = sweeps(results) if args.sweeps else ({}, [])
    if args.sweeps and not found:
        print(f"charts.py: no `Sweep …/…/<size>/<structure>` benchmarks in {' '.join(args.sweeps)}",
              file=sys.stderr)
        return 1
    peers, peer_notes = read_peers(args.peers) if args.peers else (None, [])

    charts = [(stem, fam, op, title, xl) for stem, fam, op, title, xl in CHARTS if (fam, op) in found]
    known = {(fam, op) for _, fam, op, _, _ in CHARTS}
    for fam, op in sorted(found):
        if (fam, op) not in known:
            charts.append((slug(fam.replace("Sweep ", "")) + "-" + slug(op), fam, op, f"{fam}/{op}", None))
    for _, fam, op, _, _ in CHARTS:
        if args.sweeps and (fam, op) not in found:
            print(f"no chart for {fam}/{op}: no such benchmarks in the input")

    # Every structure's points, and what is missing.
    tables, missing = [], []
    for stem, fam, op, title, xl in charts:
        lines = {}
        for structure, points in found[(fam, op)].items():
            for x, (name, metrics) in points.items():
                v = point_value(op, metrics, x)
                if v is None or v <= 0:
                    metric = MEMORY_METRIC if op == "memory" else TIME_METRIC
                    missing.append(f"{name} (no positive `{metric}` {args.stat})")
                    continue
                lines.setdefault(structure, {})[x] = v
                ALL_STRUCTURES.add(structure)
        xs = sorted({x for points in lines.values() for x in points})
        for structure in structure_order(lines):
            gaps = [x for x in xs if x not in lines[structure]]
            if gaps:
                sizes = ", ".join(size_label(x) if fam == "Sweep text" else count_label(x) for x in gaps)
                missing.append(f"{fam}/{op}: {structure} at {sizes}")
        tables.append((stem, fam, op, title, xl, lines))
    if peers:
        for _, _, ns in peers:
            ALL_STRUCTURES.update(ns)

    if plt:
        os.makedirs(args.out, exist_ok=True)
    for stem, fam, op, title, xl, lines in tables:
        if not lines:
            print(f"no chart for {fam}/{op}: nothing measured")
            continue
        if plt:
            verdicts = sweep_chart(plt, stem, fam, op, title, xl, lines, args.stat, TARGETS.get(stem, []), args.out)
            print(f"wrote {os.path.join(args.out, stem + '.svg')}: {len(lines)} structure{'s' if len(lines) > 1 else ''}"
                  + "".join(f"; {v}" for v in verdicts))
    if peers and plt:
        peers_chart(plt, peers, args.out)
        print(f"wrote {os.path.join(args.out, 'trace-replay.svg')}: {len(peers)} traces")

    print(f"\nMissing points ({len(missing) + len(peer_notes) + len(skipped)}):" if missing or peer_notes or skipped
          else "\nMissing points: none.")
    for line in missing + peer_notes + [f"{name} (size not understood)" for name in skipped]:
        print(f"- {line}")

    if args.table:
        for stem, fam, op, title, xl, lines in tables:
            if lines:
                sweep_table(fam, op, lines, args.stat)
        if peers:
            peers_table(peers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
