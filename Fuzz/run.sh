#!/usr/bin/env bash
# Builds the libFuzzer targets with address sanitizer and runs each, one after another, for the
# given time.
#   Fuzz/run.sh [SECONDS per target, default 60] [TARGET ...]     (default: every target)
# Targets are the directories Fuzz/Sources/*Fuzz. Seeds live in Fuzz/Corpus/<target without
# "Fuzz"> (committed); what a run adds goes to Fuzz/.corpus-new/<target> (not committed). A crash,
# leak or timeout is written to Fuzz/Crashes/ and stops that target (keep each as a regression
# test); the script goes on with the next target and exits 1 at the end if any target failed.
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-60}"; shift || true
if [[ $# -gt 0 ]]; then
    targets=("$@")
else
    targets=()
    for dir in Sources/*Fuzz; do targets+=("$(basename "$dir")"); done
fi
# SwiftPM keeps the build plan of this nested package and does not notice source files added to
# SMSKit since the last build ("cannot find type ... in scope"): drop the plan, keep the objects.
rm -f .build-fuzz/*/debug/description.json .build-fuzz/debug.yaml
swift build -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library --scratch-path .build-fuzz
mkdir -p Crashes
failed=()
for t in "${targets[@]}"; do
    corpus="Corpus/${t%Fuzz}"
    mkdir -p "$corpus" ".corpus-new/$t"
    # Catalog files and tel: URIs with their parts need more room than one phone number.
    case "$t" in
        TemplateCatalogFuzz) max_len=2048 ;;
        RecordReaderFuzz) max_len=1024 ;;
        *) max_len=512 ;;
    esac
    echo "== $t for ${seconds}s (corpus $corpus, max_len $max_len)"
    if ! ".build-fuzz/debug/$t" ".corpus-new/$t" "$corpus" -max_total_time="$seconds" -max_len="$max_len" \
        -timeout=30 -artifact_prefix="Crashes/$t-" -print_final_stats=1; then
        failed+=("$t")
    fi
done
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "failed: ${failed[*]} (inputs in Fuzz/Crashes/)" >&2
    exit 1
fi
