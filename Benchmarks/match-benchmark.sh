#!/usr/bin/env bash
# isNumberMatch, the dedupe key and the dialling formats (issue 27, items 5 and 6): wall ns per
# call of MatchThroughput (release; its fastest of PASSES passes) beside the Python oracle (Benchmarks/match-python.py) on the
# same inputs (the match and dialling fixtures), in one run, with the ratio; then heap allocations
# per call (valgrind memcheck: the difference between PASSES and 0 passes, per call).
#
#   Benchmarks/match-benchmark.sh [PASSES]      (default 20; the allocation counts use 2)
#
# Needs python3 with phonenumbers (tools/requirements.txt) and valgrind.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
fixtures="$ROOT/Tests/PhoneNumbersTests/Fixtures"
passes="${1:-20}"
swift build -c release --package-path "$ROOT/Benchmarks" --product MatchThroughput >&2
binary="$(swift build -c release --package-path "$ROOT/Benchmarks" --show-bin-path)/MatchThroughput"
# A stripped copy for valgrind: valgrind 3.19 gives up on this binary's DWARF ("possibly corrupted debuginfo").
stripped=$(mktemp)
trap 'rm -f "$stripped"' EXIT
strip -o "$stripped" "$binary"
chmod +x "$stripped"
lookups=(baseline matchNumbers matchNumberText matchTexts dedupeKey outOfCountry mobileDialing mobileDigits canDial)
field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p"; }
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| Call | inputs | SMSKit ns | Python ns | ratio | allocations per call |"
echo "|---|---:|---:|---:|---:|---:|"
for lookup in "${lookups[@]}"; do
    swift_line=$("$binary" "$fixtures" "$lookup" "$passes")
    python_line=$(python3 "$ROOT/Benchmarks/match-python.py" "$fixtures" "$lookup")
    calls=$(field calls <<<"$swift_line")
    ns=$(field ns_per_call <<<"$swift_line")
    py=$(field ns_per_call <<<"$python_line")
    allocs() { valgrind --tool=memcheck "$stripped" "$fixtures" "$lookup" "$1" 2>&1 >/dev/null |
        sed -n 's/,//g; s/^==[0-9]*== *total heap usage: *\([0-9]*\) allocs.*/\1/p'; }
    if command -v valgrind >/dev/null; then
        a2=$(allocs 2); a0=$(allocs 0)
        per=$(python3 -c "print(round(($a2 - $a0) / (2 * $calls), 2))")
    else
        per="-"
    fi
    ratio=$(python3 -c "print('%.0fx' % ($py / $ns) if $ns > 0 else '-')")
    echo "| $lookup | $calls | $ns | $py | $ratio | $per |"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
