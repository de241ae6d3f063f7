#!/usr/bin/env bash
# Builds the libFuzzer targets with address sanitizer and runs each for the given time.
#   Fuzz/run.sh [SECONDS per target, default 60] [TARGET ...]
# Corpora live in Fuzz/Corpus/<target> (seeds committed; new finds are added there), crashes are
# written to Fuzz/Crashes/ (keep each as a regression test).
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-60}"; shift || true
targets=("$@"); [[ ${#targets[@]} -gt 0 ]] || targets=(PhoneNumbersFuzz SMSEncodingFuzz SMSTemplatesFuzz)
swift build -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library --scratch-path .build-fuzz
mkdir -p Crashes
for t in "${targets[@]}"; do
    corpus="Corpus/${t%Fuzz}"
    mkdir -p "$corpus"
    echo "== $t for ${seconds}s (corpus $corpus)"
    mkdir -p ".corpus-new/$t"
    ".build-fuzz/debug/$t" ".corpus-new/$t" "$corpus" -max_total_time="$seconds" -max_len=512 -artifact_prefix=Crashes/ -print_final_stats=1
done
