#!/usr/bin/env bash
# Peak memory and instruction counts of the record reader alone (no engine, no CLI pipeline):
# compiles SMSKitRecords with tools/records/reader_driver.swift (swiftc -O, no SwiftPM) and reads
#   - 40,000 lines of 65,000 digits (2.6 GB) and 4,000 lines of 65,000 control bytes, from a pipe;
#   - a 1M-line CSV, in UTF-8 and in UTF-16 with a byte order mark (instructions by cachegrind).
# Usage: tools/records/measure.sh [workdir]   (needs python3, iconv, /usr/bin/time, valgrind)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:-$(mktemp -d)}
mkdir -p "$work/src"
cp "$root"/Sources/SMSKitRecords/*.swift "$work/src/"
rm -f "$work/src/RegionNames.swift"   # needs the C table; not used by the reader
# The reader decodes through ICU: the conversion shim alone, as module CSMSKitICU.
mkdir -p "$work/icu"
printf 'module CSMSKitICU {\n    header "%s"\n    export *\n}\n' "$root/Sources/CSMSKitICU/include/smskit_icu_convert.h" > "$work/icu/module.modulemap"
cc -O2 -c -I "$root/Sources/CSMSKitICU/include" "$root/Sources/CSMSKitICU/smskit_icu_convert.c" -o "$work/icu/convert.o"
# Top-level code compiles only from a file named main.swift.
cp "$root/tools/records/reader_driver.swift" "$work/src/main.swift"
swiftc -O -module-name Records -I "$work/icu" "$work"/src/*.swift "$work/icu/convert.o" \
    -licuuc -licui18n -o "$work/reader"
for kind in digits control; do
    python3 "$root/tools/records/generate_large_records.py" "$kind" | /usr/bin/time -f "$kind: peak RSS %M KB, %e s" "$work/reader" -
done
python3 - "$work/m1.csv" <<'PY'
import sys
rows = ["name,phone,region"]
for i in range(1000000):
    name = '"Ann %d"' % i if i % 4 == 0 else "Bob %d" % i
    rows.append("%s,%s,GB" % (name, ("+44 20 7946 %04d" if i % 2 else "020 7946 %04d") % (i % 10000)))
open(sys.argv[1], "w").write("\n".join(rows) + "\n")
PY
iconv -f UTF-8 -t UTF-16 "$work/m1.csv" > "$work/m1-utf16.csv"
for file in m1.csv m1-utf16.csv; do
    /usr/bin/time -f "$file: peak RSS %M KB" "$work/reader" "$work/$file"
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$work/reader" "$work/$file" 2>&1 | grep "I *refs" | sed "s/^/$file: /"
done
