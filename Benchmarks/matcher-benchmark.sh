#!/usr/bin/env bash
# The matcher over a 1 MB text (prose in several languages with numbers, dates, prices and times:
# the fixture texts of Tests/PhoneNumbersTests/Fixtures/matcher_texts.tsv repeated to 1 MB) beside
# Python phonenumbers' PhoneNumberMatcher on the same text, in the same run.
#
#   Benchmarks/matcher-benchmark.sh [REGION] [LENIENCY] [PASSES] [PYTHON_PASSES]   (default US valid 5 1)
#
# Needs python3 with tools/requirements.txt installed. Results: Benchmarks/matcher-results.md.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
region="${1:-US}"; leniency="${2:-valid}"; passes="${3:-5}"; python_passes="${4:-1}"
text=$(mktemp)
trap 'rm -f "$text"' EXIT
python3 - "$ROOT/Tests/PhoneNumbersTests/Fixtures/matcher_texts.tsv" "$text" <<'PY'
import sys
rows = [line.rstrip("\n").split("\t")[2] for line in open(sys.argv[1], encoding="utf-8").readlines()[1:]]
rows = [r.replace("\\t", " ").replace("\\n", " ").replace("\\\\", "\\") for r in rows]
out, size, i = [], 0, 0
while size < 1_000_000:
    line = rows[i % len(rows)] + "\n"
    out.append(line); size += len(line.encode()); i += 1
open(sys.argv[2], "w", encoding="utf-8").write("".join(out))
PY
swift build -c release --package-path "$ROOT/Benchmarks" --product MatcherThroughput >&2
bin="$(swift build -c release --package-path "$ROOT/Benchmarks" --show-bin-path)/MatcherThroughput"
echo "load: $(uptime | sed 's/.*load average: //')"
"$bin" "$text" "$region" "$leniency" "$passes"
python3 "$ROOT/Benchmarks/harness/bench_python_matcher.py" "$text" "$region" "$leniency" "$python_passes"
