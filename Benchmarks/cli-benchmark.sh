#!/usr/bin/env bash
# Times the whole `smskit validate` process on a generated file of one million mixed lines,
# beside Google's libphonenumber (C++) harness on the same file, in one run.
#
#   Benchmarks/cli-benchmark.sh [--runs N] [--lines N] [--format jsonl|csv|...] [--instructions]
#
# 1. Builds smskit in release (`swift build -c release --product smskit`; SCRATCH_PATH=<dir>
#    passes --scratch-path, default .build).
# 2. Generates Benchmarks/.corpus/mixed-1M.txt if missing (tools/oracle/gen_corpus.py; lines are
#    "input<TAB>REGION", ZZ for none) and takes its first --lines lines (default all 1,000,000)
#    plus a 100,000-line prefix to show that memory does not grow with the input.
# 3. Runs `smskit validate FILE --input-format tsv --region-column 2 --format jsonl > /dev/null`
#    --runs times (default 5) under /usr/bin/time -v and prints the median wall clock, the
#    median user+sys CPU and the largest peak RSS, for both sizes.
# 4. Runs Benchmarks/harness/build/harness (built here if libphonenumber-dev is installed;
#    Benchmarks/compare.sh installs it) once on the same file under /usr/bin/time -v: its timed
#    section (parse + isValid + type + format E.164, one thread; wall and CPU) and the whole
#    process (reading and a warm-up pass included).
# 5. Prints the ratios smskit wall / C++ timed-section wall and smskit CPU / C++ CPU.
# 6. With --instructions: counts the instructions of the same command on the 100,000-line
#    prefix and on an empty file (valgrind's callgrind, on a copy without debug info, which
#    valgrind cannot read) and prints instructions per line without start-up. perf stat has
#    no instruction counter on a VM without a PMU; callgrind counts the same on any machine.
#
# Output: one "key=value" line per measurement, then a summary block.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CORPUS_DIR="$ROOT/Benchmarks/.corpus"
HARNESS_DIR="$ROOT/Benchmarks/harness"
HARNESS="$HARNESS_DIR/build/harness"

runs=5
lines=1000000
format=jsonl
instructions=false
while [[ $# -gt 0 ]]; do
  case "$1" in
    --runs) runs="$2"; shift ;;
    --lines) lines="$2"; shift ;;
    --format) format="$2"; shift ;;
    --instructions) instructions=true ;;
    -h|--help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "cli-benchmark.sh: unknown argument: $1" >&2; exit 64 ;;
  esac
  shift
done
[[ -x /usr/bin/time ]] || { echo "cli-benchmark.sh: needs GNU time (apt-get install time)" >&2; exit 1; }

# 1. smskit, release.
build_args=(build -c release --product smskit --package-path "$ROOT")
[[ -n "${SCRATCH_PATH:-}" ]] && build_args+=(--scratch-path "$SCRATCH_PATH")
echo "cli-benchmark.sh: building smskit (release)" >&2
swift "${build_args[@]}" >&2
BIN_DIR="$(swift "${build_args[@]}" --show-bin-path)"
SMSKIT="$BIN_DIR/smskit"

# 2. Corpus.
if [[ ! -s "$CORPUS_DIR/mixed-1M.txt" ]]; then
  echo "cli-benchmark.sh: generating $CORPUS_DIR/mixed-1M.txt" >&2
  python3 "$ROOT/tools/oracle/gen_corpus.py" --only mixed >&2
fi
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
big="$WORK/mixed-$lines.txt"
small="$WORK/mixed-100000.txt"
head -n "$lines" "$CORPUS_DIR/mixed-1M.txt" >"$big"
head -n 100000 "$CORPUS_DIR/mixed-1M.txt" >"$small"

# measure NAME RUNS COMMAND...: prints NAME wall_median= cpu_median= peak_rss_kb= (max over runs)
measure() {
  local name="$1" count="$2"; shift 2
  local walls=() cpus=() rss_max=0
  for ((i = 0; i < count; i++)); do
    /usr/bin/time -v -o "$WORK/time.txt" "$@" >/dev/null 2>"$WORK/stderr.txt" || {
      echo "cli-benchmark.sh: $name failed:" >&2; cat "$WORK/stderr.txt" "$WORK/time.txt" >&2; exit 1; }
    local wall user sys rss
    wall="$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$WORK/time.txt" |
      awk -F: '{ if (NF == 3) print $1 * 3600 + $2 * 60 + $3; else print $1 * 60 + $2 }')"
    user="$(sed -n 's/.*User time (seconds): //p' "$WORK/time.txt")"
    sys="$(sed -n 's/.*System time (seconds): //p' "$WORK/time.txt")"
    rss="$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$WORK/time.txt")"
    walls+=("$wall")
    cpus+=("$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')")
    ((rss > rss_max)) && rss_max="$rss"
  done
  local wall_median cpu_median
  wall_median="$(printf '%s\n' "${walls[@]}" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')"
  cpu_median="$(printf '%s\n' "${cpus[@]}" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')"
  echo "$name wall_median_s=$wall_median cpu_median_s=$cpu_median peak_rss_kb=$rss_max runs=$count walls=$(IFS=,; echo "${walls[*]}")"
}

validate=(validate --input-format tsv --region-column 2 --format "$format" --no-progress)
echo "== smskit $("$SMSKIT" --version | tr '\n' ' ')"
echo "== $(nproc) cores; corpus $lines lines ($(wc -c <"$big") bytes) from Benchmarks/.corpus/mixed-1M.txt"
"$SMSKIT" "${validate[@]}" "$big" >"$WORK/out.txt"
echo "smskit_output_records=$(wc -l <"$WORK/out.txt") input_records=$(wc -l <"$big")"
rm -f "$WORK/out.txt"
smskit_big="$(measure "smskit_validate_${lines}" "$runs" "$SMSKIT" "${validate[@]}" "$big")"
echo "$smskit_big"
smskit_small="$(measure "smskit_validate_100000" "$runs" "$SMSKIT" "${validate[@]}" "$small")"
echo "$smskit_small"

# 4. The C++ harness.
cpp_big=""
if [[ ! -x "$HARNESS" ]] && dpkg -s libphonenumber-dev >/dev/null 2>&1; then
  mkdir -p "$HARNESS_DIR/build"
  g++ -O2 -std=c++17 -o "$HARNESS" "$HARNESS_DIR/harness.cc" -lphonenumber
fi
if [[ -x "$HARNESS" ]]; then
  echo "== C++ libphonenumber $(dpkg-query -W -f='${Version}' libphonenumber-dev 2>/dev/null || echo '?') (Benchmarks/harness, one thread)"
  # One run under /usr/bin/time: the harness prints its timed section on stderr.
  /usr/bin/time -v -o "$WORK/cpp-time.txt" "$HARNESS" "$big" >"$WORK/cpp.txt" 2>"$WORK/cpp-err.txt"
  cat "$WORK/cpp.txt" "$WORK/cpp-err.txt"
  cpp_section="$(sed -n 's/.* in \([0-9.]*\) s wall.*/\1/p' "$WORK/cpp-err.txt")"
  cpp_cpu_section="$(sed -n 's/.* s wall, \([0-9.]*\) s cpu.*/\1/p' "$WORK/cpp-err.txt")"
  cpp_wall="$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$WORK/cpp-time.txt" |
    awk -F: '{ if (NF == 3) print $1 * 3600 + $2 * 60 + $3; else print $1 * 60 + $2 }')"
  cpp_rss="$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$WORK/cpp-time.txt")"
  cpp_big="cpp_harness_process_${lines} wall_s=$cpp_wall peak_rss_kb=$cpp_rss section_wall_s=$cpp_section section_cpu_s=$cpp_cpu_section"
  echo "$cpp_big"
else
  echo "== C++ harness not built: run Benchmarks/compare.sh once (it installs libphonenumber-dev)"
fi

# 5. Summary.
field() { sed -n "s/.*[[:space:]]$1=\([^[:space:]]*\).*/\1/p" <<<"$2"; }
echo
echo "summary:"
echo "  smskit validate, $lines lines -> $format: wall $(field wall_median_s "$smskit_big") s (median of $runs), cpu $(field cpu_median_s "$smskit_big") s, peak RSS $(( $(field peak_rss_kb "$smskit_big") / 1024 )) MiB"
echo "  smskit validate, 100000 lines -> $format: wall $(field wall_median_s "$smskit_small") s, peak RSS $(( $(field peak_rss_kb "$smskit_small") / 1024 )) MiB"
if [[ -n "$cpp_big" ]]; then
  echo "  C++ harness, $lines lines: timed section ${cpp_section:-?} s wall / ${cpp_cpu_section:-?} s cpu (parse+valid+type+E.164, one thread, no output); whole process $(field wall_s "$cpp_big") s (reading and a warm-up pass included), peak RSS $(( $(field peak_rss_kb "$cpp_big") / 1024 )) MiB"
  awk -v s="$(field wall_median_s "$smskit_big")" -v sc="$(field cpu_median_s "$smskit_big")" -v c="${cpp_section:-0}" -v cc="${cpp_cpu_section:-0}" \
    'BEGIN { if (c > 0) printf "  ratio: smskit whole-process wall / C++ timed-section wall = %.3f; smskit cpu / C++ timed-section cpu = %.3f\n", s / c, sc / cc }'
fi

# 6. Instructions per line.
if $instructions; then
  command -v valgrind >/dev/null || { echo "cli-benchmark.sh: --instructions needs valgrind (apt-get install valgrind)" >&2; exit 1; }
  objcopy --strip-debug "$SMSKIT" "$WORK/smskit-nodebug"
  : >"$WORK/empty.txt"
  count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$WORK/smskit-nodebug" "${validate[@]}" "$1" 2>&1 >/dev/null |
      sed -n 's/.*I   refs: *//p' | tr -d ,
  }
  empty_count="$(count "$WORK/empty.txt")"
  small_count="$(count "$small")"
  echo "  instructions (callgrind): $small_count for 100000 lines, $empty_count for start-up alone;" \
    "$(( (small_count - empty_count) / 100000 )) a line"
fi
