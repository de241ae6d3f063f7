#!/bin/sh
# The phone-number metadata's first use in new processes: builds MetadataFirstUse and runs it
# RUNS times (default 11), each run a fresh process, then prints the medians.
#   Benchmarks/first-use.sh [RUNS]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
runs=${1:-11}
case "$runs" in
    ''|*[!0-9]*|0) echo "usage: first-use.sh [RUNS]  (RUNS a whole number from 1, default 11)" >&2; exit 64 ;;
esac
swift build -c release --package-path "$here" --product MetadataFirstUse >/dev/null
binary=$(swift build -c release --package-path "$here" --show-bin-path)/MetadataFirstUse
out=$(mktemp)
trap 'rm -f "$out"' EXIT
i=0
while [ "$i" -lt "$runs" ]; do
    "$binary" | tee -a "$out"
    i=$((i + 1))
done
# The median of each field over the runs.
awk '{
    for (f = 2; f <= NF; f++) { split($f, kv, "="); values[kv[1]] = values[kv[1]] " " kv[2]; names[f] = kv[1] }
    fields = NF
} END {
    line = "median runs=" NR
    for (f = 2; f <= fields; f++) {
        n = split(values[names[f]], v, " ")
        for (a = 1; a <= n; a++) for (b = a + 1; b <= n; b++) if (v[b] + 0 < v[a] + 0) { t = v[a]; v[a] = v[b]; v[b] = t }
        line = line " " names[f] "=" v[int((n + 1) / 2)]
    }
    print line
}' "$out"
