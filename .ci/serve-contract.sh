#!/usr/bin/env bash
# Contract test of `smskit serve`: schemathesis (PyPI) checks the running server against
# Sources/SMSKitServer/openapi.yaml and fuzzes it (positive and negative cases). Fails on any
# 5xx, undocumented status, wrong content type or response that does not match the schema.
# Idempotent; runs on a fresh Debian 12 as root (CI) or as a developer after `swift build`.
set -euo pipefail
cd "$(dirname "$0")/.."

SCHEMATHESIS_VERSION=4.32.5
if ! command -v schemathesis >/dev/null 2>&1 || ! schemathesis --version 2>/dev/null | grep -q "$SCHEMATHESIS_VERSION"; then
    echo "serve-contract: installing schemathesis $SCHEMATHESIS_VERSION"
    python3 -m pip install -q "schemathesis==$SCHEMATHESIS_VERSION"
fi
command -v curl >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq curl; }

swift build --product smskit-service
binary="$(swift build --show-bin-path)/smskit-service"
work="$(mktemp -d)"
key="contract-key-$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
secret="$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')"
SMSKIT_API_KEYS="$key" SMSKIT_VERIFY_SECRET="$secret" "$binary" serve --port 0 --rate-limit 0 --wrong-keys-per-minute 0 --log-level error \
    --store "sqlite:$work/verify.sqlite" --sender "outbox:$work/outbox.jsonl" 2> "$work/stderr" &
server=$!
cleanup() { kill -TERM "$server" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
port=""
for _ in $(seq 1 300); do
    port="$(sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$work/stderr" | head -1)"
    [ -n "$port" ] && break
    kill -0 "$server" 2>/dev/null || { cat "$work/stderr" >&2; echo "serve-contract: the server did not start" >&2; exit 1; }
    sleep 0.1
done
[ -n "$port" ] || { echo "serve-contract: no port reported" >&2; exit 1; }

# Every check, positive_data_acceptance included: the document states each constraint the
# service enforces, so a schema-valid request is never refused.
start=$(date +%s)
status=0
schemathesis --config-file .ci/schemathesis.toml run Sources/SMSKitServer/openapi.yaml \
    --url "http://127.0.0.1:$port" \
    --header "Authorization: Bearer $key" \
    --checks all \
    --max-examples "${SERVE_CONTRACT_EXAMPLES:-30}" \
    --seed "${SERVE_CONTRACT_SEED:-29}" \
    --request-timeout 30 \
    --generation-codec utf-8 \
    --no-shrink \
    --warnings off || status=$?
echo "serve-contract: schemathesis took $(( $(date +%s) - start )) s"

# The server must still be up and then stop cleanly on SIGTERM.
curl -fsS "http://127.0.0.1:$port/healthz" > /dev/null
kill -TERM "$server"
wait "$server"
echo "serve-contract: server exited 0 after SIGTERM"
trap - EXIT
rm -rf "$work"
exit $status
