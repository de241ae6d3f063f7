#!/usr/bin/env bash
# The Spark example's test: installs pyspark and pyarrow if missing (Java 17 from Debian too), builds
# the CLI and libsmskit (debug), and runs examples/spark/test_spark.py with pytest on local[2].
#
#   examples/spark/run-test.sh      (uses the smskit package if installed, else SMSKIT_LIBRARY / the build)
set -euo pipefail
cd "$(dirname "$0")/../.."
PYTHON="${PYTHON:-python3}"
if ! command -v java >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jre-headless
fi
# (--break-system-packages only where the system Python is "externally managed", PEP 668.)
"$PYTHON" -c "import pyspark, pyarrow, pandas, pytest" 2>/dev/null || "$PYTHON" -m pip install -q pyspark pyarrow pandas pytest \
    || "$PYTHON" -m pip install -q --break-system-packages pyspark pyarrow pandas pytest
swift build --product smskit
swift build --product smskit-c
BIN="$(swift build --show-bin-path)"
if ! "$PYTHON" -c "import smskit" 2>/dev/null; then
    export SMSKIT_LIBRARY="${SMSKIT_LIBRARY:-$BIN/libsmskit-c.so}"
    export PYTHONPATH="$PWD/bindings/python/src${PYTHONPATH:+:$PYTHONPATH}"
fi
SMSKIT_CLI="$BIN/smskit" "$PYTHON" -m pytest -q -p no:cacheprovider examples/spark/test_spark.py
