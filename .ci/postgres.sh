#!/usr/bin/env bash
# Starts a throwaway PostgreSQL (Debian's `postgresql`) on 127.0.0.1 for the PhoneVerification
# tests and prints its URL on stdout (everything else goes to stderr). Also installs
# libsqlite3-dev, which GRDB (PhoneVerificationSQLite) links against. Idempotent: a server
# already answering on the port is reused.
#
# The server has TLS on (ssl=on) with a certificate for the name `localhost` only (no IP address),
# signed by a throwaway CA; plain connections are still accepted. $SMSKIT_PG_DIR/tls holds ca.crt
# (the CA that signed it) and other-ca.crt (a CA that did not), for the sslmode tests:
#
#   export SMSKIT_TEST_POSTGRES_URL="$(bash .ci/postgres.sh)"
#   export SMSKIT_TEST_POSTGRES_TLS_DIR=/tmp/smskit-verify-postgres/tls
#
# Port and folder: SMSKIT_PG_PORT (55426), SMSKIT_PG_DIR (/tmp/smskit-verify-postgres).
# Stop it with: pg_ctl -D "$SMSKIT_PG_DIR/data" stop   (as the postgres user when run as root)
set -euo pipefail
PORT="${SMSKIT_PG_PORT:-55426}"
DIR="${SMSKIT_PG_DIR:-/tmp/smskit-verify-postgres}"
USER_NAME=smskit
DATABASE=smskit_test
URL="postgres://$USER_NAME@127.0.0.1:$PORT/$DATABASE"

missing=()
dpkg -s postgresql >/dev/null 2>&1 || missing+=(postgresql)
dpkg -s libsqlite3-dev >/dev/null 2>&1 || missing+=(libsqlite3-dev)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
if ((${#missing[@]})); then
    echo "postgres.sh: installing ${missing[*]}" >&2
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
fi

BIN="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
if "$BIN/pg_isready" -q -h 127.0.0.1 -p "$PORT"; then
    echo "postgres.sh: reusing the server on port $PORT" >&2
    echo "$URL"
    exit 0
fi

# initdb refuses to run as root: run the cluster as the postgres user then.
as_owner=()
if [ "$(id -u)" = 0 ]; then as_owner=(runuser -u postgres --); fi

rm -rf "$DIR"
mkdir -p "$DIR/tls"
# A CA, the server's certificate (DNS:localhost only, so verify-full to 127.0.0.1 must fail) and a
# second CA that signed nothing. P-256 keys: quick to make.
(
    cd "$DIR/tls"
    ext_ca="basicConstraints=critical,CA:TRUE"
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 3650 \
        -subj "/CN=SMSKit test CA" -addext "$ext_ca" -addext "keyUsage=critical,keyCertSign,cRLSign" \
        -keyout ca.key -out ca.crt >&2
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 3650 \
        -subj "/CN=SMSKit other CA" -addext "$ext_ca" -addext "keyUsage=critical,keyCertSign,cRLSign" \
        -keyout other-ca.key -out other-ca.crt >&2
    openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=localhost" \
        -keyout server.key -out server.csr >&2
    printf '%s\n' "subjectAltName=DNS:localhost" "basicConstraints=CA:FALSE" \
        "keyUsage=critical,digitalSignature" "extendedKeyUsage=serverAuth" > server.ext
    openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 3650 \
        -extfile server.ext -out server.crt >&2
    rm -f server.csr server.ext ca.srl ca.key other-ca.key
    chmod 600 server.key
)
if [ "$(id -u)" = 0 ]; then chown -R postgres:postgres "$DIR"; fi
# Trust authentication: the cluster listens on loopback only and holds test data only.
"${as_owner[@]}" "$BIN/initdb" -D "$DIR/data" -U "$USER_NAME" --auth=trust -E UTF8 --no-instructions >&2
"${as_owner[@]}" "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $PORT -k $DIR -c max_connections=100 -c fsync=on \
        -c ssl=on -c ssl_cert_file=$DIR/tls/server.crt -c ssl_key_file=$DIR/tls/server.key" start >&2
"${as_owner[@]}" "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U "$USER_NAME" "$DATABASE" >&2
echo "postgres.sh: PostgreSQL $("$BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PORT (TLS: $DIR/tls)" >&2
echo "$URL"
