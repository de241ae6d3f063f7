#!/usr/bin/env bash
# libsmskit's C API test: builds the shared library (product smskit-c), compiles
# Tests/CAPI/capi_test.c with the system C compiler (cc) and runs it; then again with the library
# and the test both instrumented by AddressSanitizer (leak checking on), then ThreadSanitizer
# (16 threads sharing one engine). The sanitizer runs compile the test with the Swift toolchain's
# clang, whose sanitizer runtimes are the ones `swift build --sanitize=...` links against.
#
#   .ci/capi.sh              all three runs
#   CAPI_SANITIZERS=none .ci/capi.sh   only the plain run (the sanitizer builds take a few minutes)
#
# Each sanitizer build has its own scratch path (.build-asan, .build-tsan): nothing else is rebuilt.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v cc >/dev/null 2>&1; then
    echo "capi.sh: installing gcc"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc libc6-dev
fi
TOOLCHAIN_BIN="$(dirname "$(readlink -f "$(command -v swift)")")"
TOOLCHAIN_CLANG="$TOOLCHAIN_BIN/clang"
# TSan's static runtime intercepts libdispatch, so it links against the toolchain's copy.
SWIFT_LIBS="$(cd "$TOOLCHAIN_BIN/../lib/swift/linux" && pwd)"
OUT=.build/capi
mkdir -p "$OUT"

run_test() { # name, library dir, compiler, extra flags..., then the test's arguments after --
    local name="$1" libdir="$2" compiler="$3"; shift 3
    local flags=() args=()
    while [[ $# -gt 0 && "$1" != "--" ]]; do flags+=("$1"); shift; done
    [[ $# -gt 0 ]] && shift
    args=("$@")
    "$compiler" -std=c11 -Wall -Wextra -Werror -O1 -g "${flags[@]}" -I Sources/CSMSKit/include \
        Tests/CAPI/capi_test.c -L "$libdir" -lsmskit-c -Wl,-rpath,"$libdir" -lpthread -o "$OUT/capi_test_$name" \
        2> >(grep -v "Cannot export local symbol" >&2)
    echo "capi.sh: running the C API test ($name)"
    "$OUT/capi_test_$name" "${args[@]}"
}

swift build --product smskit-c
# Every function the header declares is exported (a release build drops internal @_cdecl ones).
LIB="$(swift build --show-bin-path)/libsmskit-c.so"
# (nm's output is read once: `nm | grep -q` under pipefail fails when grep exits before nm is done.)
SYMBOLS="$(nm -D --defined-only "$LIB")"
for name in $(grep -E '^[a-z]' Sources/CSMSKit/include/smskit.h | grep -oE 'smskit_[a-z0-9_]+\(' | tr -d '('); do
    grep -q " T $name\$" <<<"$SYMBOLS" || { echo "capi.sh: $LIB does not export $name" >&2; exit 1; }
done
# The library's other C symbols keep out of the API's names: the ICU shims export smskit_icu_*,
# the generated tables smskit_phone_*, smskit_short_*, smskit_tz_* and smskit_carrier_*.
api_names="$(grep -oE 'smskit_[a-z0-9_]+\(' Sources/CSMSKit/include/smskit.h | tr -d '(')"
stray="$(nm -D --defined-only "$LIB" | awk '$3 ~ /^smskit_/ { print $3 }' \
    | grep -vE '^smskit_(icu|phone|short|tz|carrier)_' | grep -vxF "$api_names" || true)"
[[ -z "$stray" ]] || { echo "capi.sh: $LIB exports smskit_ names that are not the API's:" $stray >&2; exit 1; }
run_test plain "$(swift build --show-bin-path)" cc -- 8

if [[ "${CAPI_SANITIZERS:-all}" != "none" ]]; then
    swift build --product smskit-c --sanitize=address --scratch-path .build-asan
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
        run_test asan "$(swift build --sanitize=address --scratch-path .build-asan --show-bin-path)" \
        "$TOOLCHAIN_CLANG" -fsanitize=address -fno-omit-frame-pointer -- 4

    swift build --product smskit-c --sanitize=thread --scratch-path .build-tsan
    TSAN_OPTIONS=halt_on_error=1 \
        run_test tsan "$(swift build --sanitize=thread --scratch-path .build-tsan --show-bin-path)" \
        "$TOOLCHAIN_CLANG" -fsanitize=thread -L"$SWIFT_LIBS" -ldispatch -lBlocksRuntime -Wl,-rpath,"$SWIFT_LIBS" -- 16
fi
echo "capi.sh: C API tests passed"
