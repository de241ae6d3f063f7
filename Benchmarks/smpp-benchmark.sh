#!/usr/bin/env bash
# submit_sm/s through SMPPClient with a window of 100 against smpp34's SMSC on loopback, beside the
# SMSC's own ceiling in the same run: a raw pipelined client that costs next to nothing
# (smpp-raw-ceiling.py: pre-encoded PDUs, responses only counted), and smpp34's own Rust-core client.
# The SMSC is the tests' smsc.py with --quiet (no per-PDU records). Python: .ci/smpp.sh's venv.
#   Benchmarks/smpp-benchmark.sh [count] [window] [rounds, default 2]
# SMPP_BASELINE_BIN=path also runs an earlier build of SMPPThroughput in each round (before/after a
# change, under the same load).
set -euo pipefail
cd "$(dirname "$0")"
COUNT="${1:-50000}"; WINDOW="${2:-100}"; ROUNDS="${3:-2}"
PY="${SMSKIT_TEST_SMPP_PYTHON:-$(bash ../.ci/smpp.sh)}"
# shellcheck disable=SC2086
swift build -c release ${SWIFT_BUILD_FLAGS:-} --product SMPPThroughput >/dev/null
# shellcheck disable=SC2086
BIN="$(swift build -c release ${SWIFT_BUILD_FLAGS:-} --show-bin-path)/SMPPThroughput"
PORT="$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
mkfifo "${TMPDIR:-/tmp}/smpp-bench-$$.in"
"$PY" ../Tests/PhoneVerificationSMPPTests/smsc.py --port "$PORT" --quiet < "${TMPDIR:-/tmp}/smpp-bench-$$.in" > /dev/null &
SMSC=$!
exec 3> "${TMPDIR:-/tmp}/smpp-bench-$$.in"   # the SMSC runs until its stdin closes
trap 'exec 3>&-; wait $SMSC; rm -f "${TMPDIR:-/tmp}/smpp-bench-$$.in"' EXIT
sleep 1
uptime
# The SMSC's CPU time per submit_sm while each client runs: with the rates moving with the load of a
# shared machine, the SMSC's cost beside the client's (SMPPThroughput prints its own) says which of
# the two limits the rate when each has a core.
ticks="$(getconf CLK_TCK)"
smsc_cpu() { awk '{ print $14 + $15 }' "/proc/$SMSC/stat"; }
measure() {
    local before after
    before="$(smsc_cpu)"
    "$@" 2>&1 | grep -v ' info smskit'
    after="$(smsc_cpu)"
    awk -v t="$((after - before))" -v hz="$ticks" -v n="$COUNT" \
        'BEGIN { printf "    the SMSC meanwhile: %.1f µs CPU per submit_sm\n", t * 1e6 / hz / n }'
}
for _ in $(seq "$ROUNDS"); do
    measure "$PY" smpp-raw-ceiling.py "$PORT" "$COUNT" "$WINDOW"
    measure "$PY" smpp-ceiling.py "$PORT" "$COUNT" "$WINDOW"
    if [[ -n "${SMPP_BASELINE_BIN:-}" ]]; then
        echo "baseline:"; measure "$SMPP_BASELINE_BIN" "$PORT" "$COUNT" "$WINDOW"
    fi
    measure "$BIN" "$PORT" "$COUNT" "$WINDOW"
    measure "$BIN" "$PORT" "$COUNT" "$WINDOW" loop
done
uptime
