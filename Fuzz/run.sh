#!/usr/bin/env bash
# Builds the libFuzzer targets with address sanitizer and runs each, one after another, for the
# given time.
#   Fuzz/run.sh [SECONDS per target, default 60] [TARGET ...]     (default: every target)
# Targets are the directories Fuzz/Sources/*Fuzz, targets of the root package that exist only
# when SMSKIT_FUZZ=1 (see the end of Package.swift). The Swift code is built with
# -sanitize=fuzzer,address, and the C and C++ targets (CPhoneNumberTables, the ICU shim
# CSMSKitICU) with -fsanitize=fuzzer-no-link,address: ASan checks their memory accesses and
# libFuzzer sees their coverage. Seeds live in Fuzz/Corpus/<target without "Fuzz"> (committed);
# what a run adds goes to Fuzz/.corpus-new/<target> (not committed). A crash, leak or timeout is
# written to Fuzz/Crashes/ and stops that target (keep each as a regression test); the script
# goes on with the next target and exits 1 at the end if any target failed.
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-60}"; shift || true
if [[ $# -gt 0 ]]; then
    targets=("$@")
else
    targets=()
    for dir in Sources/*Fuzz; do targets+=("$(basename "$dir")"); done
fi
export SMSKIT_FUZZ=1
sanitize=fuzzer-no-link,address
build=(swift build -c debug --package-path .. --scratch-path .build-fuzz
       -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
       -Xcc -fsanitize=$sanitize -Xcxx -fsanitize=$sanitize)
for t in "${targets[@]}"; do
    "${build[@]}" --product "$t"
done
bin=".build-fuzz/debug"
# The C and C++ objects must carry the instrumentation, or ASan and coverage stop at the Swift code.
for object in "$bin/CSMSKitICU.build/smskit_icu.cpp.o" "$bin/CPhoneNumberTables.build/phone_number_tables.c.o"; do
    if [[ -f "$object" ]] && [[ $(nm "$object" | grep -c "__asan_\|__sanitizer_cov") -eq 0 ]]; then
        echo "run.sh: $object is not instrumented" >&2
        exit 1
    fi
done
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
    if ! "$bin/$t" ".corpus-new/$t" "$corpus" -max_total_time="$seconds" -max_len="$max_len" \
        -timeout=30 -artifact_prefix="Crashes/$t-" -print_final_stats=1; then
        failed+=("$t")
    fi
done
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "failed: ${failed[*]} (inputs in Fuzz/Crashes/)" >&2
    exit 1
fi
