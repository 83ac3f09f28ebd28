#!/usr/bin/env bash
# The rope against the best Rust ropes, on this machine, in one run.
#
# For every shipped trace (Tests/Data/traces/*.json.gz) runs the Rust peers
# (ropey, crop, jumprope and JumpRopeBuf: ../shared/peers/run.sh, beside this
# checkout) and right after them the Swift TraceReplay (Rope, BufferedRope, flat
# [UInt8], swift-collections' BigString) on the same trace with the same rounds, then
# prints one markdown table of nanoseconds per patch (edits alone, best of the
# rounds) and the ratios Rope ÷ peer (below 1: the Rope is faster).
#
# Usage: Benchmarks/Scripts/peers.sh [--rounds N] [--bigstring-rounds N]
#                                    [--traces a,b,c] [--json FILE]
#   --rounds N            replays of each structure, best kept (default 5)
#   --bigstring-rounds N  replays of BigString, which is slow (default: --rounds)
#   --traces a,b,c        trace names in Tests/Data/traces, or .json[.gz] paths
#                         (default: all of Tests/Data/traces)
#   --json FILE           also write the raw JSON lines there: per trace the
#                         peers' line (with a "trace" key added) then TraceReplay's
#
# Needs:
#   - swift (Swift 6.1 or later) on PATH, or SWIFT=/path/to/swift;
#   - cargo (on PATH or in ~/.cargo/bin) and python3 (standard library only);
#   - the peers: PEERS_DIR (default: ../shared/peers beside the checkout)
#     with run.sh, and the Rust crates' sources: each repository of
#     $PEERS_DIR/SOURCES.tsv fetched as a git mirror into
#     MIRRORS/OWNER+NAME/repo (MIRRORS defaults to what run.sh uses: the
#     .mirror folder two levels above PEERS_DIR). PEERS_WORK (run.sh's work
#     folder, default /tmp/rust-peers) is passed through.
# TraceReplay is built in release here, with the scratch path
# Benchmarks/.build-peers.
set -euo pipefail

die() {
  echo "peers.sh: $*" >&2
  exit 1
}

SCRIPTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BENCH=$(dirname "$SCRIPTS")
ROOT=$(dirname "$BENCH")
TRACES_DIR="$ROOT/Tests/Data/traces"

ROUNDS=5
BIG_ROUNDS=""
TRACES=""
JSON_OUT=""
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) ROUNDS=${2:?--rounds needs a number}; shift 2 ;;
    --bigstring-rounds) BIG_ROUNDS=${2:?--bigstring-rounds needs a number}; shift 2 ;;
    --traces) TRACES=${2:?--traces needs a list}; shift 2 ;;
    --json) JSON_OUT=${2:?--json needs a file}; shift 2 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || die "--rounds takes a positive integer, not '$ROUNDS'"
[ -z "$BIG_ROUNDS" ] || [[ "$BIG_ROUNDS" =~ ^[1-9][0-9]*$ ]] ||
  die "--bigstring-rounds takes a positive integer, not '$BIG_ROUNDS'"

# --- What it needs ------------------------------------------------------------
SWIFT=${SWIFT:-swift}
command -v "$SWIFT" >/dev/null || die "needs swift (not on PATH; set SWIFT=/path/to/swift)"
command -v python3 >/dev/null || die "needs python3 (not on PATH)"
if ! command -v cargo >/dev/null; then
  [ -x "$HOME/.cargo/bin/cargo" ] || die "needs cargo (not on PATH nor in ~/.cargo/bin)"
  export PATH="$HOME/.cargo/bin:$PATH"
fi

PEERS_DIR=${PEERS_DIR:-$ROOT/../shared/peers}
[ -f "$PEERS_DIR/run.sh" ] ||
  die "no peers at $PEERS_DIR (no run.sh there): set PEERS_DIR to the shared/peers folder"
PEERS_DIR=$(cd "$PEERS_DIR" && pwd)
export MIRRORS=${MIRRORS:-$(cd "$PEERS_DIR/../.." && pwd)/.mirror}
PEERS_WORK=${PEERS_WORK:-/tmp/rust-peers}
export PEERS_WORK
missing=""
while IFS=$'\t' read -r dir repo _; do
  [ -d "$PEERS_WORK/src/$dir" ] || [ -d "$MIRRORS/${repo/\//+}/repo" ] ||
    missing+="  $repo (fetch github:$repo; expected at $MIRRORS/${repo/\//+}/repo)"$'\n'
done < <(grep -v '^#' "$PEERS_DIR/SOURCES.tsv")
[ -z "$missing" ] ||
  die "the Rust crates' sources are missing; fetch each repository, or set MIRRORS:"$'\n'"$missing"

# --- The traces -----------------------------------------------------------------
trace_files=()
if [ -z "$TRACES" ]; then
  for f in "$TRACES_DIR"/*.json.gz; do
    [ -f "$f" ] && trace_files+=("$f")
  done
  [ ${#trace_files[@]} -gt 0 ] || die "no traces in $TRACES_DIR"
else
  IFS=',' read -r -a names <<<"$TRACES"
  for name in "${names[@]}"; do
    case "$name" in
      */* | *.json | *.gz) f=$name ;;
      *) f="$TRACES_DIR/$name.json.gz" ;;
    esac
    [ -f "$f" ] || die "no trace '$name' (looked for $f)"
    trace_files+=("$(cd "$(dirname "$f")" && pwd)/$(basename "$f")")
  done
fi

# --- Build TraceReplay ------------------------------------------------------------
SCRATCH="$BENCH/.build-peers"
LOG=$(mktemp -t peers.XXXXXX)
RESULTS=$(mktemp -t peers-results.XXXXXX)
trap 'rm -f "$LOG" "$RESULTS"' EXIT
echo "peers.sh: building TraceReplay (release, $SCRATCH)..." >&2
if ! (cd "$BENCH" && "$SWIFT" build -c release --product TraceReplay --scratch-path "$SCRATCH") \
  >"$LOG" 2>&1; then
  cat "$LOG" >&2
  die "building TraceReplay failed"
fi
BIN=$(cd "$BENCH" && "$SWIFT" build -c release --scratch-path "$SCRATCH" --show-bin-path)
REPLAY="$BIN/TraceReplay"
[ -x "$REPLAY" ] || die "built, but no $REPLAY"

# --- Replays, peers then Swift, trace by trace -----------------------------------
swift_options=(--rounds "$ROUNDS")
[ -z "$BIG_ROUNDS" ] || swift_options+=(--bigstring-rounds "$BIG_ROUNDS")
for f in "${trace_files[@]}"; do
  name=$(basename "$f")
  name=${name%.gz}
  name=${name%.json}
  echo "peers.sh: $name: Rust peers..." >&2
  if ! peers=$(bash "$PEERS_DIR/run.sh" "$f" "$ROUNDS" 2>"$LOG"); then
    cat "$LOG" >&2
    die "$name: the Rust peers failed (above)"
  fi
  peers=$(printf '%s\n' "$peers" | grep '^{' | tail -n 1) ||
    die "$name: the Rust peers printed no JSON"
  echo "peers.sh: $name: TraceReplay..." >&2
  if ! swift=$("$REPLAY" "${swift_options[@]}" "$f"); then
    die "$name: TraceReplay failed (above)"
  fi
  printf 'peers\t%s\t%s\nswift\t%s\t%s\n' "$name" "$peers" "$name" "$swift" >>"$RESULTS"
done

# --- The table ---------------------------------------------------------------------
python3 - "$RESULTS" "$ROUNDS" "${BIG_ROUNDS:-$ROUNDS}" "${JSON_OUT:-}" <<'PY'
import json, os, platform, sys

results, rounds, big_rounds, json_out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rows, raw, failures = {}, [], []
for line in open(results, encoding="utf-8"):
    kind, name, text = line.rstrip("\n").split("\t", 2)
    obj = json.loads(text)
    if kind == "peers":
        obj = {"trace": name, **obj}
    raw.append(json.dumps(obj))
    rows.setdefault(name, {})[kind] = obj

if json_out:
    with open(json_out, "w", encoding="utf-8") as f:
        f.write("\n".join(raw) + "\n")

def ns(result, patches):
    return result["edits_s"] / patches * 1e9

def fmt_ns(x):
    return f"{x:,.1f}" if x < 100 else f"{x:,.0f}"

def fmt_ratio(x):
    return f"{x:.2f}"

header = ["trace", "patches", "ASCII?", "jumprope", "JumpRopeBuf", "crop", "ropey", "Rope",
          "BufferedRope", "flat [UInt8]", "BigString", "Rope ÷ ropey", "Rope ÷ crop",
          "Rope ÷ jumprope", "BufferedRope ÷ JumpRopeBuf"]
print("| " + " | ".join(header) + " |")
print("|---|---:|:---:|" + "---:|" * (len(header) - 3))
actual_big_rounds = set()
for name, r in rows.items():
    peers, swift = r["peers"], r["swift"]
    patches = peers["patches"]
    if swift["patches"] != patches:
        failures.append(f"{name}: the peers replayed {patches} patches, TraceReplay {swift['patches']}")
    for who, obj in (("Rust", peers), ("Swift", swift)):
        for key, value in obj.items():
            if isinstance(value, dict) and not value.get("ok", False):
                failures.append(f"{name}: {key} ({who}) did not give the trace's endContent")
    if "bigstring" in swift:
        actual_big_rounds.add(swift["bigstring"].get("rounds", swift["rounds"]))
    cell = lambda obj, key: fmt_ns(ns(obj[key], patches)) if key in obj else "—"
    rope = swift["rope"]["edits_s"]
    ratio = lambda key: fmt_ratio(rope / peers[key]["edits_s"]) if key in peers else "—"
    buffered = (fmt_ratio(swift["buffered"]["edits_s"] / peers["jumpropebuf"]["edits_s"])
                if "buffered" in swift and "jumpropebuf" in peers else "—")
    print("| " + " | ".join([
        name, f"{patches:,}", "yes" if peers["ascii"] else "no",
        cell(peers, "jumprope"), cell(peers, "jumpropebuf"), cell(peers, "crop"),
        cell(peers, "ropey"), cell(swift, "rope"), cell(swift, "buffered"), cell(swift, "flat"),
        cell(swift, "bigstring"), ratio("ropey"), ratio("crop"), ratio("jumprope"), buffered,
    ]) + " |")

cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")),
           platform.processor() or platform.machine()) if os.path.exists("/proc/cpuinfo") else platform.machine()
big = (f"BigString best of {', '.join(map(str, sorted(actual_big_rounds)))} (fewer rounds: it is slow)"
       if actual_big_rounds and actual_big_rounds != {rounds} else "")
print()
print(f"Nanoseconds per patch: the edits alone (a new, empty structure and every patch, the start "
      f"content as the first), best of {rounds} round{'s' if rounds > 1 else ''}{'; ' + big if big else ''}; rounds "
      f"interleaved across the structures of each program; the Rust peers then the Swift replay, "
      f"trace by trace, in one run on {cpu} ({os.cpu_count()} cores). "
      f"Ratios are of those edit times: below 1, the Rope (or the BufferedRope, against "
      f"JumpRopeBuf: both buffer typing in front of the rope) is faster. crop takes byte offsets, so "
      f"it runs only on all-ASCII traces (—). Every final text was checked against the trace's "
      f"endContent.")
if failures:
    print("\n" + "\n".join("**FAILED**: " + f for f in failures))
    print("peers.sh: " + "; ".join(failures), file=sys.stderr)
    sys.exit(1)
PY
