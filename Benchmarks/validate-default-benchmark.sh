#!/usr/bin/env bash
# Times `smskit validate`'s default layout with two binaries, runs interleaved (base, new, base,
# new, ...) so that both see the same machine load, in JSON lines (the default), JSON and CSV.
#
#   Benchmarks/validate-default-benchmark.sh BASELINE_SMSKIT NEW_SMSKIT [RUNS] [CORPUS]
#
# Both binaries should be release builds (`swift build -c release --product smskit`, one from
# main, one from the branch). CORPUS is lines "input<TAB>REGION", by default the first 1,000,000
# lines of Benchmarks/.corpus/mixed-1M.txt (tools/oracle/gen_corpus.py --only mixed makes it).
# Output: one line per run, then per format the median user+sys CPU of each binary and their
# ratio, and whether the two outputs are byte for byte the same.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
base="$1"
new="$2"
runs="${3:-7}"
corpus="${4:-$ROOT/Benchmarks/.corpus/mixed-1M.txt}"
if [[ ! -s "$corpus" ]]; then
  [[ "$corpus" == "$ROOT/Benchmarks/.corpus/mixed-1M.txt" ]] || { echo "no corpus at $corpus" >&2; exit 1; }
  python3 "$ROOT/tools/oracle/gen_corpus.py" --only mixed >&2
fi
[[ -x /usr/bin/time ]] || { echo "needs GNU time" >&2; exit 1; }
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

formats=(jsonl json csv)
for format in "${formats[@]}"; do
  for side in base new; do
    "${!side}" validate "$corpus" --input-format tsv --region-column 2 --format "$format" --no-progress > "$WORK/$side.$format"
  done
  if cmp -s "$WORK/base.$format" "$WORK/new.$format"; then echo "$format: same output"; else echo "$format: OUTPUTS DIFFER"; fi
  rm -f "$WORK/base.$format" "$WORK/new.$format"
done

for ((run = 1; run <= runs; run++)); do
  for format in "${formats[@]}"; do
    for side in base new; do
      /usr/bin/time -f "%e %U %S %M" -o "$WORK/time" "${!side}" validate "$corpus" --input-format tsv --region-column 2 \
        --format "$format" --no-progress > /dev/null
      read -r wall user sys rss < "$WORK/time"
      cpu="$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')"
      echo "run=$run $side $format wall_s=$wall cpu_s=$cpu peak_rss_kb=$rss load=$(cut -d' ' -f1 /proc/loadavg)"
      echo "$side $format $cpu $rss" >> "$WORK/all"
    done
  done
done

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
echo "== medians of user+sys CPU over $runs runs ($(nproc) cores, load now $(cut -d' ' -f1-3 /proc/loadavg))"
for format in "${formats[@]}"; do
  b="$(awk -v f="$format" '$1 == "base" && $2 == f { print $3 }' "$WORK/all" | median)"
  n="$(awk -v f="$format" '$1 == "new" && $2 == f { print $3 }' "$WORK/all" | median)"
  awk -v f="$format" -v b="$b" -v n="$n" 'BEGIN { printf "%s base=%.2f s new=%.2f s new/base=%.3f\n", f, b, n, n / b }'
done
