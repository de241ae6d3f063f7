#!/usr/bin/env bash
# Soak test of `smskit validate`: ten million mixed lines through the release build, with the
# process's memory sampled every second, to show that memory stays flat whatever the input size.
#
#   tools/soak/soak.sh [--lines N] [--format jsonl|json|csv|tsv|text] [--interval SECONDS]
#
# 1. Builds smskit in release (`swift build -c release --product smskit`; SCRATCH_PATH=<dir>
#    passes --scratch-path, default .build).
# 2. Generates the input in a temporary directory (removed at the end; nothing is committed):
#    tools/oracle/gen_corpus.py writes 1,000,000 "input<TAB>REGION" lines drawn from the oracle
#    fixtures (valid and invalid numbers, many scripts); copies of it, each with the last digit
#    of every line shifted so that copies differ, make up --lines lines (default 10,000,000).
#    One line in 1,000 is replaced by a bad record: invalid UTF-8, a NUL byte, an empty line,
#    a CRLF ending, a 70 KB line (over the 64 KiB record limit), or an unknown region cell.
# 3. Runs `smskit validate FILE --input-format tsv --region-column 2 --format FORMAT > /dev/null`
#    and reads VmRSS and VmHWM from /proc/PID/status every --interval seconds (default 1).
# 4. Prints one line per sample (elapsed seconds, RSS in MiB), then the peak RSS (VmHWM), the
#    wall time, lines per second, the exit status, and "flat" or "GROWING": whether the last
#    sample is within 10% (or 8 MiB) of the sample at a quarter of the run.
#
# Needs Python 3 and Linux /proc. Exit status: 0 when smskit exited 0 with flat memory, else 1.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

lines=10000000
format=jsonl
interval=1
while [[ $# -gt 0 ]]; do
  case "$1" in
    --lines) lines="$2"; shift ;;
    --format) format="$2"; shift ;;
    --interval) interval="$2"; shift ;;
    -h|--help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "soak.sh: unknown argument: $1" >&2; exit 64 ;;
  esac
  shift
done

# 1. smskit, release.
build_args=(build -c release --product smskit --package-path "$ROOT")
[[ -n "${SCRATCH_PATH:-}" ]] && build_args+=(--scratch-path "$SCRATCH_PATH")
echo "soak.sh: building smskit (release)" >&2
swift "${build_args[@]}" >&2
SMSKIT="$(swift "${build_args[@]}" --show-bin-path)/smskit"

# 2. Input.
WORK="$(mktemp -d "${TMPDIR:-/tmp}/smskit-soak.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
echo "soak.sh: generating $lines lines in $WORK" >&2
python3 "$ROOT/tools/oracle/gen_corpus.py" --only mixed --lines 1000000 --out "$WORK" >&2
python3 - "$WORK/mixed-1M.txt" "$WORK/soak.tsv" "$lines" <<'PY'
import random, sys
source, target, total = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open(source, "rb") as f:
    base = f.read().split(b"\n")
base = [line for line in base if line]
rng = random.Random(10_000_000)
bad = [
    b"+44 20 7946 \xff\xfe0123\tGB",           # invalid UTF-8
    b"+1 650\x00253 0000\tUS",                 # NUL byte
    b"",                                       # empty line
    b"+33 1 42 68 53 00\tFR\r",                # CRLF ending
    b"+49 " + b"1" * 70_000 + b"\tDE",         # over the 64 KiB record limit
    b"0301234567\tXX-NOT-A-REGION",            # unknown region cell
]
digits = bytes(range(0x30, 0x3A))
shifts = [bytes.maketrans(digits, digits[k:] + digits[:k]) for k in range(10)]
written = 0
with open(target, "wb", buffering=1 << 22) as out:
    copy = 0
    while written < total:
        for line in base:
            if written >= total:
                break
            if rng.random() < 0.001:
                line = bad[rng.randrange(len(bad))]
            elif copy:
                number, _, region = line.partition(b"\t")
                # Shift the last digit by the copy number so that copies differ.
                line = number[:-1] + number[-1:].translate(shifts[copy % 10]) + b"\t" + region
            out.write(line + b"\n")
            written += 1
        copy += 1
PY
size=$(stat -c %s "$WORK/soak.tsv")
echo "soak.sh: input $(wc -l <"$WORK/soak.tsv") lines, $((size / 1048576)) MiB" >&2

# 3. Run and sample.
start=$(date +%s.%N)
"$SMSKIT" validate "$WORK/soak.tsv" --input-format tsv --region-column 2 --format "$format" >/dev/null 2>"$WORK/stderr" &
pid=$!
samples=()
peak_kb=0
echo "elapsed_s rss_mib"
while kill -0 "$pid" 2>/dev/null; do
  if [[ -r /proc/$pid/status ]]; then
    rss_kb=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
    hwm_kb=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
    if [[ -n "$rss_kb" ]]; then
      now=$(date +%s.%N)
      awk -v n="$now" -v s="$start" -v r="$rss_kb" 'BEGIN { printf "%9.1f %7.1f\n", n - s, r / 1024 }'
      samples+=("$rss_kb")
      [[ -n "$hwm_kb" && "$hwm_kb" -gt "$peak_kb" ]] && peak_kb=$hwm_kb
    fi
  fi
  sleep "$interval"
done
status=0
wait "$pid" || status=$?
end=$(date +%s.%N)
wall=$(awk -v e="$end" -v s="$start" 'BEGIN { printf "%.2f", e - s }')

# 4. Summary.
count=${#samples[@]}
verdict=flat
if ((count >= 4)); then
  quarter=${samples[$((count / 4))]}
  last=${samples[$((count - 1))]}
  limit=$((quarter / 10 > 8192 ? quarter / 10 : 8192))
  ((last - quarter > limit)) && verdict=GROWING
else
  verdict="too few samples"
fi
echo "samples=$count"
awk -v p="$peak_kb" -v w="$wall" -v n="$lines" 'BEGIN { printf "peak_rss_mib=%.1f\nwall_s=%.2f\nlines_per_s=%d\n", p / 1024, w, n / w }'
echo "exit_status=$status"
echo "memory=$verdict"
if [[ -s "$WORK/stderr" ]]; then
  echo "stderr:" && head -n 5 "$WORK/stderr"
fi
[[ $status -eq 0 && $verdict == flat ]]
