#!/usr/bin/env bash
# The quick run: a representative subset of the suite, each benchmark capped
# at a few samples (BENCHMARK_QUICK), and one table of every target it
# measures — the value, its baseline in the same run, the ratio, met or
# missed. Run it before and after a change; the full suite and
# docs/benchmarks.md are for the numbers you publish.
#
#   bash Benchmarks/Scripts/quick.sh            # prints the table
#   bash Benchmarks/Scripts/quick.sh out.md     # also keeps the raw results
#
# Needs what the suite needs (a Swift toolchain; the first build of the
# Benchmarks package takes a few minutes, not counted in the run's budget of
# five minutes on a 2-core machine). Installs nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

raw=${1:-$(mktemp /tmp/quick-XXXXXX.md)}
filter='Trace ratio/seph-blog1'
filter+='|Random edit/100 MB/.*'
filter+='|UTF-16 to UTF-8 offset/(1|100) MB/(Rope|String)'
filter+='|Contexts/locate with 10,000 storages/.*'
filter+='|Contexts/full document of 10,000 storages/.*'
filter+='|Document edit ratio/.*'
filter+='|Typing while a tool streams/.*'
filter+='|OffsetIndex/(replace|origin) .*'
filter+='|OffsetIndex/map, 100,000 random edits/.*'
filter+='|OffsetIndex/record, .*/(ChangeLog, composed pin|array)'
filter+='|Markdown/1 MB/.*|Markdown ratio/.*'
filter+='|Tracked ranges.*'
filter+='|Suggestions.*'
filter+='|History.*'
filter+='|Rich text ratio/.*'
filter+='|Agents ratio/.*'

echo "quick.sh: building the benchmarks" >&2
swift build -c release >/dev/null
start=$SECONDS
echo "quick.sh: running the quick subset" >&2
BENCHMARK_QUICK=1 swift package --disable-sandbox benchmark --filter "$filter" \
  --no-progress --format markdown --path stdout >"$raw"
echo "quick.sh: ran in $((SECONDS - start)) s; raw results in $raw" >&2
python3 Scripts/ratios.py --targets "$raw"
