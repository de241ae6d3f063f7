#!/usr/bin/env bash
# Instructions per call of SMSEncoder.segmentCount and analyze on the SMSEncodingBenchmarks texts
# (cachegrind, valgrind): the difference between 11,000 and 1,000 calls, so start-up cancels out.
# Machine-independent, unlike the ordo-one timings on this VM.
#
#   Benchmarks/encoder-instructions.sh
#
# SCRATCH_PATH=<dir> passes --scratch-path to swift build. Needs valgrind (apt-get install valgrind).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
command -v valgrind >/dev/null || { echo "encoder-instructions.sh: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
swift_args=(build -c release --package-path "$ROOT/Benchmarks" --product SMSEncodingThroughput)
[[ -n "${SCRATCH_PATH:-}" ]] && swift_args+=(--scratch-path "$SCRATCH_PATH")
swift "${swift_args[@]}" >&2
binary="$(swift "${swift_args[@]}" --show-bin-path)/SMSEncodingThroughput"
instructions() {
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$binary" "$@" 2>&1 >/dev/null |
        sed -n 's/,//g; s/^==[0-9]*== I *refs: *\([0-9]*\).*/\1/p'
}
for op in count analyze; do
    for text in gsm160 latin160 escapes157 ucs70 hindi gsm459 latin459 ucs200; do
        a=$(instructions "$op" "$text" 1000)
        b=$(instructions "$op" "$text" 11000)
        echo "$op $text $(( (b - a) / 10000 )) instructions"
    done
done
