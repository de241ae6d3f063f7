#!/usr/bin/env bash
# CI: the generators' golden tests pass, and the committed generated files are exactly what
# tools/regenerate.sh makes from today's inputs (a stale or hand-edited generated file fails).
# Idempotent; installs Python 3 and tools/requirements.txt on a fresh Debian 12 when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)

if ! command -v python3 >/dev/null || ! python3 -m pip --version >/dev/null 2>&1; then
    echo "ci: installing python3 and pip"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-pip
fi
if ! python3 - <<'PY' 2>/dev/null
import importlib.metadata as m, pathlib, sys
pins = dict(l.strip().split("==") for l in pathlib.Path("tools/requirements.txt").read_text().split() if "==" in l)
sys.exit(any(m.version(name) != version for name, version in pins.items()))
PY
then
    echo "ci: pip install -r tools/requirements.txt"
    # Debian's python3 is "externally managed" (PEP 668); CI's machine is disposable.
    python3 -m pip install -q --break-system-packages -r tools/requirements.txt \
        || python3 -m pip install -q -r tools/requirements.txt
fi

python3 -m pytest -q -p no:cacheprovider tools/tests
tools/regenerate.sh
if ! git diff --exit-code --stat || [ -n "$(git status --porcelain --untracked-files=all -- Sources Tests Resources)" ]; then
    git status --short -- Sources Tests Resources
    echo "ci: generated files are not current: run tools/regenerate.sh and commit the result" >&2
    exit 1
fi
echo "ci: generated files are current ($(( $(date +%s) - start )) s)"
