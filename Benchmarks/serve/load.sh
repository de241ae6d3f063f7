#!/usr/bin/env bash
# Load figures for `smskit serve` on loopback (issue 29): single-number /v1/numbers/check with wrk
# (saturation, then a fixed rate), and check-stream with N lines against `smskit validate` on
# the same numbers, with the server's peak RSS. Needs a release build and wrk (Debian).
#   swift build -c release --product smskit && Benchmarks/serve/load.sh [LINES]
set -euo pipefail
cd "$(dirname "$0")/../.."
lines="${1:-1000000}"
bin="$(swift build -c release --show-bin-path)/smskit"
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; }
work="$(mktemp -d)"
export SMSKIT_BENCH_KEY="bench-key-$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
SMSKIT_API_KEYS="$SMSKIT_BENCH_KEY" "$bin" serve --port 0 --rate-limit 0 --log-level error 2> "$work/stderr" &
server=$!
trap 'kill -TERM $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do
    port="$(sed -n 's/.*127\.0\.0\.1:\([0-9]*\).*/\1/p' "$work/stderr" | head -1)"; [ -n "$port" ] && break; sleep 0.1
done
url="http://127.0.0.1:$port"
echo "== saturation: wrk -t2 -c32 -d15s"
wrk -t2 -c32 -d15s --latency -s Benchmarks/serve/check.lua "$url/v1/numbers/check" | grep -E "Requests/sec|50%|99%|Non-2xx"
# Debian's wrk is wrk 4 (no --rate, unlike wrk2): the light-load figure is one connection,
# one request at a time, which is the latency of an unloaded server at the rate it reaches.
echo "== light load: wrk -t1 -c1 -d10s"
wrk -t1 -c1 -d10s --latency -s Benchmarks/serve/check.lua "$url/v1/numbers/check" | grep -E "Requests/sec|50%|99%|Non-2xx"
echo "== check-stream: $lines lines"
python3 - "$lines" "$work" <<'PY'
import sys
n = int(sys.argv[1]); w = sys.argv[2]
with open(w + "/numbers.txt", "w") as plain, open(w + "/numbers.ndjson", "w") as nd:
    for i in range(n):
        number = "+1 650 253 %04d" % (i % 10000)
        plain.write(number + "\n")
        nd.write('{"number":"%s"}\n' % number)
PY
before=$(awk '/VmHWM/ {print $2}' /proc/$server/status)
/usr/bin/time -f "check-stream: %e s wall" curl -sS -o "$work/out" -H "Authorization: Bearer $SMSKIT_BENCH_KEY" \
    -H "Content-Type: application/x-ndjson" --data-binary "@$work/numbers.ndjson" "$url/v1/numbers/check-stream"
after=$(awk '/VmHWM/ {print $2}' /proc/$server/status)
echo "check-stream: $(wc -l < "$work/out") lines out; server peak RSS $before KiB before, $after KiB after"
/usr/bin/time -f "validate: %e s wall, %M KiB max RSS" "$bin" validate "$work/numbers.txt" --format jsonl > "$work/validate.out"
echo "validate: $(wc -l < "$work/validate.out") lines out"
