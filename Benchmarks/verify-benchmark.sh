#!/usr/bin/env bash
# Phone verification throughput beside the databases' own speed on this machine (issue 26).
# Runs pgbench's simple-update test (-N) at 1 and 8 clients, then the PhoneVerificationThroughput
# executable (start latency; memory, SQLite and PostgreSQL start+check pairs at 1 and 8 tasks).
# The server is $SMSKIT_BENCH_POSTGRES_URL (postgres://user@host:port/database), else the loopback
# PostgreSQL that .ci/postgres.sh starts. Extra swift build flags: $SWIFT_BUILD_FLAGS.
#   Benchmarks/verify-benchmark.sh [seconds-per-measure]
# Through the service (start+check+delivered report triples and report intake beside pgbench in
# one run): serve/verify-load.py BINARY postgres://… --modes triples,reports (verify-results.md).
set -euo pipefail
cd "$(dirname "$0")"
SECONDS_EACH="${1:-5}"
URL="${SMSKIT_BENCH_POSTGRES_URL:-$(bash ../.ci/postgres.sh)}"
BIN="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
HOSTPORT="${URL#*@}"; HOST="${HOSTPORT%%:*}"; PORT="${HOSTPORT#*:}"; PORT="${PORT%%/*}"; DB="${URL##*/}"
"$BIN/pgbench" -q -i -s 1 -h "$HOST" -p "$PORT" -U smskit "$DB" >/dev/null 2>&1
for clients in 1 8; do
    tps=$("$BIN/pgbench" -N -c "$clients" -j "$(( clients < 2 ? 1 : 2 ))" -T "$SECONDS_EACH" -h "$HOST" -p "$PORT" -U smskit "$DB" 2>/dev/null \
        | awk '/^tps/ {print $3; exit}')
    printf '%-44s %10.0f tx/s    (pgbench -N -c %d, %d s)\n' "pgbench simple-update" "$tps" "$clients" "$SECONDS_EACH"
done
uptime
# shellcheck disable=SC2086
swift build -c release ${SWIFT_BUILD_FLAGS:-} --product PhoneVerificationThroughput >/dev/null
# shellcheck disable=SC2086
SMSKIT_BENCH_POSTGRES_URL="$URL" "$(swift build -c release ${SWIFT_BUILD_FLAGS:-} --show-bin-path)/PhoneVerificationThroughput" "$SECONDS_EACH"
uptime
