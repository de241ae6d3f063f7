#!/bin/sh
# Prints whether this machine's core is shared right now (see probe/mode.c): run it before and
# after a benchmark; an `alu` p50/p0 above about 1.2 means the slow mode.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${TMPDIR:-/tmp}/smskit-machine-mode
cc -O2 -o "$out" "$here/probe/mode.c"
"$out"
