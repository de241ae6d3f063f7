#!/usr/bin/env bash
# Machine-independent cost of the phone-number engine per input: instructions, L1 data-cache
# read misses and mispredicted branches, from cachegrind's simulation (valgrind), for
# PhoneNumbersThroughput over a corpus. This VM's timings are noisy and bimodal; these counts are
# not (the simulated mispredictions still move by about 2 per input with code layout alone).
#
#   Benchmarks/instructions.sh [CORPUS] [MODE]
#
# CORPUS defaults to Benchmarks/corpus/mixed-10k.txt; MODE is a PhoneNumbersThroughput flag:
# --classify (default: parse + classify + E.164, the PhoneNumbersBenchmarks work), --e164
# (parse(e164:) instead of parse), --check, or "" (parse + isValid + type + E.164, compare.sh's
# work); add --bytes (quoted with the mode, "--classify --bytes") to parse each input's UTF-8. The per-input figures are the difference between 12 and 2 passes over the corpus, so
# start-up and corpus loading cancel out. Needs valgrind (apt-get install valgrind).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
corpus="${1:-$ROOT/Benchmarks/corpus/mixed-10k.txt}"
mode="${2---classify}"
command -v valgrind >/dev/null || { echo "instructions.sh: needs valgrind (apt-get install valgrind)" >&2; exit 1; }

swift_args=(build -c release --package-path "$ROOT/Benchmarks" --product PhoneNumbersThroughput)
[[ -n "${SCRATCH_PATH:-}" ]] && swift_args+=(--scratch-path "$SCRATCH_PATH")
swift "${swift_args[@]}" >&2
binary="$(swift "${swift_args[@]}" --show-bin-path)/PhoneNumbersThroughput"

counts() {  # counts PASSES -> "instructions d1-read-misses mispredicts"
  # --repeat N runs N timed passes after one warm-up pass.
  valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes --cachegrind-out-file=/dev/null \
    "$binary" "$corpus" --repeat "$(( $1 - 1 ))" $mode 2>&1 >/dev/null |
    sed -n 's/,//g; s/^==[0-9]*== \(I   refs\|D1  misses\|Mispredicts\): *\([0-9]*\).*/\2/p' | tr '\n' ' '
}
lines=$(grep -c '' "$corpus")
read -r i2 d2 b2 <<<"$(counts 2)"
read -r i12 d12 b12 <<<"$(counts 12)"
n=$(( 10 * lines ))
awk -v i=$((i12 - i2)) -v d=$((d12 - d2)) -v b=$((b12 - b2)) -v n=$n -v c="$(basename "$corpus")" -v m="${mode:-isValid+type}" \
  'BEGIN { printf "%s %s: %.0f instructions, %.1f L1 data misses, %.1f mispredicted branches per input\n", c, m, i / n, d / n, b / n }'
