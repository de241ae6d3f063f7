#!/bin/sh
# The core engine's first use with and without the time zone and carrier modules linked, in
# alternating fresh processes (A/B, so that machine load hits both alike), then the medians:
#   Benchmarks/extras-first-use.sh [RUNS]
# A: MetadataFirstUse (PhoneNumbers alone). B: ExtrasFirstUse (PhoneNumbers, PhoneNumberTimeZones,
# PhoneNumberCarriers; also the first time zone, carrier and sending-window lookups). Also prints
# the two binaries' sizes.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
runs=${1:-11}
case "$runs" in
    ''|*[!0-9]*|0) echo "usage: extras-first-use.sh [RUNS]  (RUNS a whole number from 1, default 11)" >&2; exit 64 ;;
esac
swift build -c release --package-path "$here" --product MetadataFirstUse >/dev/null
swift build -c release --package-path "$here" --product ExtrasFirstUse >/dev/null
bin=$(swift build -c release --package-path "$here" --show-bin-path)
a=$(mktemp)
b=$(mktemp)
trap 'rm -f "$a" "$b"' EXIT
i=0
while [ "$i" -lt "$runs" ]; do
    "$bin/MetadataFirstUse" >>"$a"
    "$bin/ExtrasFirstUse" >>"$b"
    i=$((i + 1))
done
median() {
    awk -v label="$2" '{
        for (f = 2; f <= NF; f++) { split($f, kv, "="); values[kv[1]] = values[kv[1]] " " kv[2]; names[f] = kv[1] }
        fields = NF
    } END {
        line = label " runs=" NR
        for (f = 2; f <= fields; f++) {
            n = split(values[names[f]], v, " ")
            for (x = 1; x <= n; x++) for (y = x + 1; y <= n; y++) if (v[y] + 0 < v[x] + 0) { t = v[x]; v[x] = v[y]; v[y] = t }
            line = line " " names[f] "=" v[int((n + 1) / 2)]
        }
        print line
    }' "$1"
}
median "$a" "MetadataFirstUse"
median "$b" "ExtrasFirstUse"
for product in MetadataFirstUse ExtrasFirstUse; do
    printf '%s bytes=%s ' "$product" "$(wc -c <"$bin/$product")"
    size "$bin/$product" | awk 'NR == 2 { print "text=" $1 " data=" $2 " bss=" $3 }'
done
