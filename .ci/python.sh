#!/usr/bin/env bash
# The Python package (bindings/python): builds libsmskit (debug, as `swift test` does)
# and the smskit CLI, installs the package into a virtual environment with the library bundled
# (`pip install ./bindings/python`, exactly as users do, with SMSKIT_LIBRARY naming the .so), with
# numpy and pyarrow so that those input forms are tested too, and runs its pytest suite: the API,
# bad input, threads, and agreement with `smskit validate --format jsonl` and the oracle fixtures.
#
#   .ci/python.sh        (CI=true: a missing CLI is a failure, not a skip)
#   SMSKIT_SPARK=1 .ci/python.sh   also the Spark example's test (pyspark, Java 17; a few minutes)
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v python3 >/dev/null 2>&1 || ! python3 -c "import venv, ensurepip" >/dev/null 2>&1; then
    echo "python.sh: installing python3-venv"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-venv python3-pip
fi

swift build --product smskit-c
swift build --product smskit
BIN="$(swift build --show-bin-path)"

VENV=.build/python-venv
[[ -x "$VENV/bin/python" ]] || python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --upgrade pip
"$VENV/bin/python" -m pip install -q pytest numpy pyarrow
SMSKIT_LIBRARY="$BIN/libsmskit-c.so" "$VENV/bin/python" -m pip install -q --force-reinstall --no-deps ./bindings/python
rm -rf bindings/python/build bindings/python/src/*.egg-info  # setuptools' in-tree build output

# From outside the source tree, so that the installed package (and its bundled library) is tested.
cd bindings/python/tests
env -u SMSKIT_LIBRARY SMSKIT_CLI="$BIN/smskit" "../../../$VENV/bin/python" -m pytest -q -p no:cacheprovider .

if [[ "${SMSKIT_SPARK:-0}" == "1" ]]; then
    cd ../../..
    examples/spark/run-test.sh
fi
echo "python.sh: Python tests passed"
