#!/usr/bin/env bash
# Instructions and heap allocations per input of each short-number lookup (cachegrind and
# memcheck; machine-independent, unlike this shared VM's timings): the difference between 12 and 2
# passes of ShortNumberThroughput over the short-number fixtures (25,310 numbers with their regions,
# 18,372 emergency texts), so that start-up and reading the inputs cancel out.
#
#   Benchmarks/short-instructions.sh [LOOKUP...]
#
# Needs valgrind (apt-get install valgrind).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
fixtures="$ROOT/Tests/PhoneNumbersTests/Fixtures"
command -v valgrind >/dev/null || { echo "short-instructions.sh: needs valgrind" >&2; exit 1; }
swift build -c release --package-path "$ROOT/Benchmarks" --product ShortNumberThroughput >&2
built="$(swift build -c release --package-path "$ROOT/Benchmarks" --show-bin-path)/ShortNumberThroughput"
# A stripped copy: valgrind 3.19 gives up on this binary's DWARF ("possibly corrupted debuginfo").
binary=$(mktemp)
trap 'rm -f "$binary"' EXIT
strip -o "$binary" "$built"
chmod +x "$binary"
instructions() {
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$binary" "$fixtures" "$1" "$2" 2>&1 >/dev/null |
    sed -n 's/,//g; s/^==[0-9]*== I *refs: *\([0-9]*\).*/\1/p'
}
allocations() {
  valgrind --tool=memcheck "$binary" "$fixtures" "$1" "$2" 2>&1 >/dev/null |
    sed -n 's/,//g; s/^==[0-9]*== *total heap usage: *\([0-9]*\) allocs.*/\1/p'
}
lookups=("$@")
[ ${#lookups[@]} -gt 0 ] || lookups=(baseline possible possibleForRegion valid validForRegion cost costForRegion carrier smsForRegion emergency connects)
for lookup in "${lookups[@]}"; do
  inputs=$("$binary" "$fixtures" "$lookup" 0 | sed 's/inputs=\([0-9]*\).*/\1/')
  low=$(instructions "$lookup" 2)
  high=$(instructions "$lookup" 12)
  alow=$(allocations "$lookup" 2)
  ahigh=$(allocations "$lookup" 12)
  echo "$lookup instructions_per_input=$(( (high - low) / (10 * inputs) )) allocations_per_pass=$(( (ahigh - alow) / 10 )) inputs=$inputs"
done
