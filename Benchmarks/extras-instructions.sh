#!/usr/bin/env bash
# Instructions per number of each time zone and carrier lookup (cachegrind; machine-independent,
# unlike this shared VM's timings): the difference between 12 and 2 passes of ExtrasThroughput over
# the parsed numbers of a corpus, so that start-up, parsing and loading cancel out.
#
#   Benchmarks/extras-instructions.sh [CORPUS]      # default Benchmarks/corpus/e164-10k.txt
#
# Needs valgrind (apt-get install valgrind).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
corpus="${1:-$ROOT/Benchmarks/corpus/e164-10k.txt}"
command -v valgrind >/dev/null || { echo "extras-instructions.sh: needs valgrind" >&2; exit 1; }
swift build -c release --package-path "$ROOT/Benchmarks" --product ExtrasThroughput >&2
built="$(swift build -c release --package-path "$ROOT/Benchmarks" --show-bin-path)/ExtrasThroughput"
# A stripped copy: valgrind 3.19 gives up on this binary's DWARF ("possibly corrupted debuginfo").
binary=$(mktemp)
trap 'rm -f "$binary"' EXIT
strip -o "$binary" "$built"
chmod +x "$binary"
numbers=$("$binary" "$corpus" type 0 | sed 's/numbers=\([0-9]*\).*/\1/')
instructions() {
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$binary" "$corpus" "$1" "$2" 2>&1 >/dev/null |
    sed -n 's/,//g; s/^==[0-9]*== I *refs: *\([0-9]*\).*/\1/p'
}
for lookup in type timeZones geographicalTimeZones sendingDecision carrierName carrierNameForValidNumber portable; do
  low=$(instructions "$lookup" 2)
  high=$(instructions "$lookup" 12)
  echo "$lookup instructions_per_number=$(( (high - low) / (10 * numbers) )) numbers=$numbers"
done
