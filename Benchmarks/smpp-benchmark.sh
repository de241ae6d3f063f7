#!/usr/bin/env bash
# submit_sm/s through SMPPClient with a window of 100 against smpp34's SMSC on loopback, beside the
# SMSC's own ceiling in the same run: a raw pipelined client that costs next to nothing
# (smpp-raw-ceiling.py: pre-encoded PDUs, responses only counted), and smpp34's own Rust-core client.
# The SMSC is the tests' smsc.py with --quiet (no per-PDU records). Python: .ci/smpp.sh's venv.
#   Benchmarks/smpp-benchmark.sh [count] [window]
set -euo pipefail
cd "$(dirname "$0")"
COUNT="${1:-50000}"; WINDOW="${2:-100}"
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
for _ in 1 2; do
    "$PY" smpp-raw-ceiling.py "$PORT" "$COUNT" "$WINDOW"
    "$PY" smpp-ceiling.py "$PORT" "$COUNT" "$WINDOW"
    "$BIN" "$PORT" "$COUNT" "$WINDOW"
done
uptime
