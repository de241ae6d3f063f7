#!/usr/bin/env bash
# Times `smskit segments --lines` against `smskit validate` per record, in one run (issue 28,
# item 9: "as fast as validate per record").
#
#   Benchmarks/segments-benchmark.sh [--runs N] [--lines N] [--bin PATH] [--before PATH]
#
# 1. Generates the inputs with Benchmarks/segments-corpus.py into Benchmarks/.corpus/segments-N/
#    (N = --lines, default 200,000): the mixed messages, one file per kind of message, and N
#    phone numbers.
# 2. Runs, alternating, --runs times each (default 3):
#      smskit segments --lines messages.txt > /dev/null
#      smskit validate numbers.txt --region DE > /dev/null
#    and, with --before, the same segments command with an older binary (for a before/after
#    in the same run); then `segments --lines` on each kind of message.
# 3. Prints, per command, the median wall clock and user+sys CPU (/usr/bin/time), records per
#    second of wall clock and of CPU, and the load average before and after.
#
# --bin defaults to .build/release/smskit (build it first:
# `swift build -c release --product smskit`). On a loaded machine the wall clock depends on
# the other processes: compare the commands of one run, and the CPU figures.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs=3
lines=200000
bin="$ROOT/.build/release/smskit"
before=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --runs) runs="$2"; shift ;;
    --lines) lines="$2"; shift ;;
    --bin) bin="$2"; shift ;;
    --before) before="$2"; shift ;;
    -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "segments-benchmark.sh: unknown argument: $1" >&2; exit 64 ;;
  esac
  shift
done
[[ -x /usr/bin/time ]] || { echo "segments-benchmark.sh: needs GNU time (apt-get install time)" >&2; exit 1; }
[[ -x "$bin" ]] || { echo "segments-benchmark.sh: no binary at $bin (swift build -c release --product smskit)" >&2; exit 1; }

corpus="$ROOT/Benchmarks/.corpus/segments-$lines"
[[ -s "$corpus/numbers.txt" ]] || python3 "$ROOT/Benchmarks/segments-corpus.py" "$corpus" "$lines"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

# time_run NAME COMMAND...: appends "wall cpu" to $scratch/NAME.
time_run() {
  local name="$1"; shift
  /usr/bin/time -f "%e %U %S" -o "$scratch/time" "$@" > /dev/null 2> "$scratch/stderr" \
    || { echo "segments-benchmark.sh: $name failed:" >&2; cat "$scratch/stderr" >&2; exit 1; }
  awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$scratch/time" >> "$scratch/$name"
}

# report NAME RECORDS: the medians of NAME's runs.
report() {
  sort -n -k1,1 "$scratch/$1" | awk -v name="$1" -v records="$2" '
    { wall[NR] = $1 }
    END { m = wall[int((NR + 1) / 2)]
          printf "%-24s median wall %6.2f s  %9d records/s", name, m, records / m }'
  sort -n -k2,2 "$scratch/$1" | awk -v records="$2" '
    { cpu[NR] = $2 }
    END { c = cpu[int((NR + 1) / 2)]
          printf "   median CPU %6.2f s  %9d records/CPU-s\n", c, (c > 0 ? records / c : 0) }'
}

echo "load before: $(uptime)"
for ((run = 1; run <= runs; run++)); do
  time_run segments "$bin" segments --lines "$corpus/messages.txt"
  time_run validate "$bin" validate "$corpus/numbers.txt" --region DE
  [[ -n "$before" ]] && time_run segments-before "$before" segments --lines "$corpus/messages.txt"
done
for kind in gsm-short ucs2 gsm-multipart; do
  for ((run = 1; run <= runs; run++)); do
    time_run "$kind" "$bin" segments --lines "$corpus/$kind.txt"
    [[ -n "$before" ]] && time_run "$kind-before" "$before" segments --lines "$corpus/$kind.txt"
  done
done
echo "load after:  $(uptime)"
echo "records per file: $lines; runs: $runs"
report segments "$lines"
report validate "$lines"
[[ -n "$before" ]] && report segments-before "$lines"
for kind in gsm-short ucs2 gsm-multipart; do
  report "$kind" "$lines"
  [[ -n "$before" ]] && report "$kind-before" "$lines"
done
exit 0
