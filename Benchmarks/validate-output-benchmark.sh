#!/usr/bin/env bash
# Times `smskit validate` on the 1M-line mixed corpus with two binaries, runs interleaved (A, B,
# A, B, ...) so that both see the same machine load: the default output and, for the second
# binary, the output choices of issue 28 (--keep, --fields with formats, --unique).
#
#   Benchmarks/validate-output-benchmark.sh BASELINE_SMSKIT NEW_SMSKIT [RUNS]
#
# Both binaries should be release builds (`swift build -c release --product smskit`, one from
# main, one from the branch). The corpus is Benchmarks/.corpus/mixed-1M.txt
# (tools/oracle/gen_corpus.py --only mixed makes it; lines are "input<TAB>REGION").
# Output: one line per run, then the median wall clock, user+sys CPU and peak RSS of each
# command, and the ratio of the new default to the baseline default.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
base="$1"
new="$2"
runs="${3:-5}"
corpus="$ROOT/Benchmarks/.corpus/mixed-1M.txt"
[[ -s "$corpus" ]] || python3 "$ROOT/tools/oracle/gen_corpus.py" --only mixed >&2
[[ -x /usr/bin/time ]] || { echo "needs GNU time" >&2; exit 1; }
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

common=(validate "$corpus" --input-format tsv --region-column 2 --format jsonl --no-progress)
declare -A commands=(
  [base_default]="$base"
  [new_default]="$new"
  [new_keep]="$new --keep"
  [new_fields]="$new --fields line,record,input,e164,national,international,type"
  [new_unique]="$new --unique"
)
order=(base_default new_default new_keep new_fields new_unique)

for ((run = 1; run <= runs; run++)); do
  for name in "${order[@]}"; do
    read -r -a parts <<<"${commands[$name]}"
    binary="${parts[0]}"
    extra=("${parts[@]:1}")
    /usr/bin/time -f "%e %U %S %M" -o "$WORK/time" "$binary" "${common[@]}" "${extra[@]}" >/dev/null 2>"$WORK/err" || {
      echo "$name failed:" >&2; cat "$WORK/err" >&2; exit 1; }
    read -r wall user sys rss <"$WORK/time"
    cpu="$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')"
    echo "run=$run $name wall_s=$wall cpu_s=$cpu peak_rss_kb=$rss load=$(cut -d' ' -f1 /proc/loadavg)"
    echo "$name $wall $cpu $rss" >>"$WORK/all"
  done
done

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
echo "== medians over $runs runs ($(nproc) cores, load now $(cut -d' ' -f1-3 /proc/loadavg))"
for name in "${order[@]}"; do
  wall="$(awk -v n="$name" '$1 == n { print $2 }' "$WORK/all" | median)"
  cpu="$(awk -v n="$name" '$1 == n { print $3 }' "$WORK/all" | median)"
  rss="$(awk -v n="$name" '$1 == n { print $4 }' "$WORK/all" | sort -g | tail -1)"
  rate="$(awk -v w="$wall" 'BEGIN { printf "%d", 1000000 / w }')"
  echo "$name wall_median_s=$wall cpu_median_s=$cpu peak_rss_kb_max=$rss records_per_s=$rate"
  eval "wall_$name=$wall"
done
awk -v a="$wall_base_default" -v b="$wall_new_default" 'BEGIN { printf "new_default / base_default wall ratio = %.3f\n", b / a }'
