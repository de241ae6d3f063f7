#!/usr/bin/env bash
# The SMPP tests' Python (PhoneVerificationSMPPTests): a virtual environment with PyPI's smpp34 (its
# Rust/tokio SMPP 3.4 server runs the tests' SMSC, Tests/PhoneVerificationSMPPTests/smsc.py, and its
# codec is one of the two cross-check oracles) and smpplib (the other oracle, pure Python); smsc.py
# wraps the SMSC in TLS with Python's ssl module for the TLS tests.
# Idempotent; prints the environment's python for SMSKIT_TEST_SMPP_PYTHON. The tests start and stop
# their own SMSC on a loopback port; nothing is left listening.
set -euo pipefail
cd "$(dirname "$0")/.."
# openssl makes the TLS tests' certificates (SMPPTLSTests).
if ! command -v python3 >/dev/null 2>&1 || ! python3 -c "import venv, ensurepip" >/dev/null 2>&1 \
    || ! command -v openssl >/dev/null 2>&1; then
    echo "smpp.sh: installing python3-venv and openssl" >&2
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-venv python3-pip openssl >&2
fi
VENV="${SMSKIT_SMPP_VENV:-$PWD/.build/smpp-venv}"
if ! "$VENV/bin/python" -c "import smpp34, smpplib" >/dev/null 2>&1; then
    python3 -m venv "$VENV" >&2
    "$VENV/bin/python" -m pip install -q smpp34==1.5.0 smpplib==2.2.4 >&2
fi
echo "$VENV/bin/python"
