#!/usr/bin/env bash
# Builds libsmskit (release) and installs the Python package with it bundled: the one command.
#
#   bindings/python/install.sh [pip arguments...]      e.g. --user, or --target DIR
#
# The package gets libsmskit-c.so and the Swift runtime libraries it needs (copied from the
# toolchain; the library's RUNPATH has $ORIGIN), so it runs where no Swift toolchain is
# installed: Debian 12's libicu72 and libstdc++6 are all it needs from the system.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
swift build -c release --product smskit-c
SMSKIT_LIBRARY="$(swift build -c release --show-bin-path)/libsmskit-c.so" \
    python3 -m pip install "$@" "$ROOT/bindings/python"
rm -rf "$ROOT/bindings/python/build" "$ROOT"/bindings/python/src/*.egg-info
