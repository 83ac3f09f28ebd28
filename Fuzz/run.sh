#!/usr/bin/env bash
# Builds the fuzz targets and runs them (see Fuzz/README.md).
#
#   Fuzz/run.sh [--seconds N] [--jobs J] [target…]   fuzz each target for N seconds
#   Fuzz/run.sh --corpus-only [target…]               run the seeds and regressions once
#   Fuzz/run.sh --build-only                          just build
#   Fuzz/run.sh --make-seeds                          rewrite Corpus/ from make_seeds.py
#   Fuzz/run.sh --scratch-path DIR …                  build in DIR (default Fuzz/.build)
#
# Targets: FuzzRope FuzzGraphemes FuzzDocument FuzzREPL FuzzMarkdown (default:
# all).
# Each run starts with the target's regressions (Regressions/<target>/),
# then fuzzes from its seeds (Corpus/<target>/) plus what earlier runs
# found (Work/<target>/corpus/). Findings go to Work/<target>/. The exit
# status is non-zero if any regression or fuzz run crashed.
#
# Environment: FUZZ_DEFINES (default "-DDEBUG -DENGINE_INTERNAL_CHECKS":
# tiny rope chunks and tree nodes, and the engine's invariant checks),
# FUZZ_ARGS (more libFuzzer flags, e.g. "-ignore_crashes=1" with --jobs),
# FUZZ_AVOID (known findings to steer around; see each target), FUZZ_SCRATCH
# (the build directory, as --scratch-path: for running beside another build).
set -euo pipefail

cd "$(dirname "$0")"
fuzz_dir=$PWD
all_targets=(FuzzRope FuzzGraphemes FuzzDocument FuzzREPL FuzzMarkdown)

seconds=60
jobs=1
mode=fuzz
scratch=${FUZZ_SCRATCH:-}
targets=()
while (($#)); do
  case "$1" in
  --seconds)
    seconds=${2:?--seconds needs a number}
    shift 2
    ;;
  --jobs)
    jobs=${2:?--jobs needs a number}
    shift 2
    ;;
  --scratch-path)
    scratch=${2:?--scratch-path needs a directory}
    shift 2
    ;;
  --corpus-only) mode=corpus; shift ;;
  --build-only) mode=build; shift ;;
  --make-seeds) mode=seeds; shift ;;
  -h | --help)
    sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  -*)
    echo "run.sh: unknown option $1 (see --help)" >&2
    exit 2
    ;;
  *)
    targets+=("$1")
    shift
    ;;
  esac
done

if [[ $mode == seeds ]]; then
  exec python3 "$fuzz_dir/make_seeds.py" "$fuzz_dir/Corpus"
fi

# Only the targets this checkout has.
if ((${#targets[@]} == 0)); then
  for t in "${all_targets[@]}"; do
    if [[ -d Sources/$t ]]; then targets+=("$t"); fi
  done
fi
for t in "${targets[@]}"; do
  if [[ ! -d Sources/$t ]]; then
    echo "run.sh: no fuzz target $t (have: $(cd Sources && ls -d Fuzz*/ | tr -d / | tr '\n' ' '))" >&2
    exit 2
  fi
done

# What the build needs; nothing is installed here.
missing=()
if ! swift_path=$(command -v swift); then
  missing+=("swift (a swift.org toolchain, 6.1 or later, on PATH)")
else
  toolchain=$(dirname "$(dirname "$(readlink -f "$swift_path")")")
  for runtime in fuzzer asan; do
    if ! compgen -G "$toolchain/lib/clang/*/lib/*/libclang_rt.${runtime}[-_]*" >/dev/null &&
      ! compgen -G "$toolchain/lib/clang/*/lib/*/*/libclang_rt.${runtime}.a" >/dev/null &&
      ! compgen -G "$toolchain/lib/swift/clang/lib/*/libclang_rt.${runtime}*" >/dev/null; then
      missing+=("libclang_rt.$runtime (the $runtime runtime) in $toolchain: use a swift.org toolchain, which ships libFuzzer")
    fi
  done
fi
# (grep reads everything: with -q it would stop early, ldconfig would get
# SIGPIPE, and pipefail would call the ICU missing.)
if ! /sbin/ldconfig -p 2>/dev/null | grep 'libicuuc\.so' >/dev/null; then
  missing+=("the system ICU (libicuuc; bash .ci/setup installs libicu-dev)")
fi
if ((${#missing[@]})); then
  echo "run.sh: cannot build the fuzz targets; missing:" >&2
  printf '  - %s\n' "${missing[@]}" >&2
  exit 3
fi

defines=${FUZZ_DEFINES--DDEBUG -DENGINE_INTERNAL_CHECKS}
build_flags=(-c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library)
for d in $defines; do build_flags+=(-Xswiftc "$d"); done
if [[ -n $scratch ]]; then build_flags+=(--scratch-path "$scratch"); fi

echo "run.sh: building ${targets[*]} ($defines)"
build_start=$SECONDS
mkdir -p Work
for t in "${targets[@]}"; do
  if ! swift build "${build_flags[@]}" --product "$t" >Work/build.log 2>&1; then
    grep -v "__asan_extra_spill_area" Work/build.log >&2 || true
    echo "run.sh: building $t failed" >&2
    exit 4
  fi
done
bin=$(swift build "${build_flags[@]}" --show-bin-path)
echo "run.sh: built in $((SECONDS - build_start)) s"
if [[ $mode == build ]]; then exit 0; fi

max_len() {
  case "$1" in
  FuzzREPL) echo 8192 ;;
  # Room for the deep-nesting and long-run seeds (10,000 `*`, 1,500 columns).
  FuzzMarkdown) echo 16384 ;;
  *) echo 4096 ;;
  esac
}

# The memory (MB) and time (s) one input of target $1 may take. Markdown is
# read in time and memory linear in its length (apart from cmark-gfm's own
# quadratic cases, such as very wide tables), so its bounds are tighter.
limits() {
  case "$1" in
  FuzzMarkdown) echo "-rss_limit_mb=2048 -timeout=5" ;;
  *) echo "-rss_limit_mb=4096 -timeout=10" ;;
  esac
}

# The Swift runtime's backtracer would run inside ASan's signal handling;
# let libFuzzer report the crash.
export SWIFT_BACKTRACE=enable=no
failed=0
summaries=()

# Runs the regressions of target $1 one by one; prints and counts failures.
run_regressions() {
  local t=$1 count=0 bad=0 file
  shopt -s nullglob
  for file in Regressions/"$t"/*; do
    [[ $file == *.txt || -d $file ]] && continue
    count=$((count + 1))
    # Without FUZZ_AVOID: it would change how the reproducer decodes.
    if ! env -u FUZZ_AVOID "$bin/$t" "${common[@]}" "$file" >"Work/$t/regression.log" 2>&1; then
      bad=$((bad + 1))
      local what=""
      if [[ -f $file.txt ]]; then what=" ($(head -n 1 "$file.txt"))"; fi
      echo "  REGRESSION FAILS: $file$what"
      grep -m 1 -E "ORACLE FAILED|Fatal error|ERROR: AddressSanitizer|ERROR: libFuzzer" \
        "Work/$t/regression.log" | sed 's/^/    /' || true
    fi
  done
  shopt -u nullglob
  regression_count=$count
  regression_failures=$bad
}

for t in "${targets[@]}"; do
  mkdir -p "Work/$t/corpus" "Corpus/$t"
  read -ra common <<<"$(limits "$t")"
  run_regressions "$t"
  if ((regression_failures)); then failed=1; fi
  regressions="regressions $((regression_count - regression_failures))/$regression_count pass"

  if [[ $mode == corpus ]]; then
    log="Work/$t/corpus.log"
    if env -u FUZZ_AVOID "$bin/$t" "${common[@]}" -max_len="$(max_len "$t")" -runs=0 "Corpus/$t" \
      >"$log" 2>&1; then
      result="seeds pass"
    else
      result="SEEDS CRASH (see Fuzz/$log)"
      failed=1
    fi
    count=$(find "Corpus/$t" -type f | wc -l)
    summaries+=("$t: $count seeds: $result; $regressions")
    continue
  fi

  # Fuzz from the seeds and what earlier runs kept.
  cp -n Corpus/"$t"/* "Work/$t/corpus/" 2>/dev/null || true
  log="Work/$t/fuzz.log"
  marker=$(mktemp)
  args=("${common[@]}" -max_len="$(max_len "$t")" -max_total_time="$seconds"
    -print_final_stats=1 -artifact_prefix="Work/$t/")
  if [[ -f Dictionaries/$t.dict ]]; then args+=(-dict="Dictionaries/$t.dict"); fi
  if ((jobs > 1)); then args+=(-fork="$jobs"); fi
  # shellcheck disable=SC2206
  args+=(${FUZZ_ARGS:-})
  echo "run.sh: fuzzing $t for $seconds s ($jobs job(s)); log in Fuzz/$log"
  start=$SECONDS
  status=0
  "$bin/$t" "${args[@]}" "Work/$t/corpus" >"$log" 2>&1 || status=$?
  elapsed=$((SECONDS - start))
  execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -n 1 | grep -o '[0-9]*$' ||
    true)
  if [[ -z $execs ]]; then
    # Fork mode: the last status line has the totals.
    execs=$(grep -oE '^#[0-9]+' "$log" | tail -n 1 | tr -d '#' || true)
  fi
  execs=${execs:-0}
  corpus=$(find "Work/$t/corpus" -type f | wc -l)
  found=$(find "Work/$t" -maxdepth 1 -type f -newer "$marker" \
    \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \))
  rm -f "$marker"
  crashes=$(printf '%s' "$found" | grep -c . || true)
  rate=$((execs / (elapsed > 0 ? elapsed : 1)))
  line="$t: $execs execs in $elapsed s ($rate/s), corpus $corpus, crashes $crashes"
  if ((status != 0 || crashes > 0)); then
    failed=1
    line+=" (exit $status; see Fuzz/$log"
    for f in $found; do line+=", Fuzz/$f"; done
    line+=")"
    grep -m 1 -E "ORACLE FAILED|Fatal error|ERROR: AddressSanitizer|ERROR: libFuzzer" "$log" |
      sed 's/^/    /' || true
  fi
  summaries+=("$line; $regressions")
done

echo "run.sh: summary"
printf '  %s\n' "${summaries[@]}"
exit "$failed"
