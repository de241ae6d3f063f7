#!/usr/bin/env bash
# Throughput of SMSKit's PhoneNumbers beside Google's libphonenumber (C++), same input, one run.
#
#   Benchmarks/compare.sh [e164|mixed|all] [--repeat N] [--python LINES]
#
# 1. Installs Debian's libphonenumber-dev if missing (only this script needs it; the SMSKit
#    build never does) and builds Benchmarks/harness/harness.cc with g++ -O2 into
#    Benchmarks/harness/build/.
# 2. Generates the 1M-line corpora into Benchmarks/.corpus/ if missing
#    (tools/oracle/gen_corpus.py, Python 3 only, from the committed fixtures).
# 3. For each corpus, runs the C++ harness and
#    `swift run -c release --package-path Benchmarks PhoneNumbersThroughput <corpus> --repeat N`
#    (both parse + isValid + type + format E.164 per line, one thread) and prints both lines
#    and the ratio smskit / C++; then the same over each input's UTF-8 (--bytes:
#    parse(utf8:defaultRegion:), no String per input), with the E.164 form as a String (--string:
#    formatE164, which allocates for 16 bytes or more) and through the one-call check API.
# With --python LINES, also times PyPI phonenumbers on the first LINES lines of each corpus
# (needs `pip install -r tools/requirements.txt`).
#
# Environment: SCRATCH_PATH=<dir> passes --scratch-path to swift run (default: Benchmarks/.build).
# CPP_REPEAT=<n> repeats the corpus n times in the C++ harness (default 1; it is slow).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HARNESS_DIR="$ROOT/Benchmarks/harness"
HARNESS="$HARNESS_DIR/build/harness"
CORPUS_DIR="$ROOT/Benchmarks/.corpus"

which_corpora="all"
repeat=5
python_lines=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    e164|mixed|all) which_corpora="$1" ;;
    --repeat) repeat="$2"; shift ;;
    --python) python_lines="$2"; shift ;;
    -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "compare.sh: unknown argument: $1" >&2; exit 64 ;;
  esac
  shift
done

# 1. libphonenumber and the harness.
if ! dpkg -s libphonenumber-dev >/dev/null 2>&1; then
  echo "compare.sh: installing libphonenumber-dev (Debian)" >&2
  SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  $SUDO apt-get install -y libphonenumber-dev >&2 || { $SUDO apt-get update >&2 && $SUDO apt-get install -y libphonenumber-dev >&2; }
fi
if [[ ! -x "$HARNESS" || "$HARNESS_DIR/harness.cc" -nt "$HARNESS" ]]; then
  echo "compare.sh: building $HARNESS" >&2
  mkdir -p "$HARNESS_DIR/build"
  g++ -O2 -std=c++17 -o "$HARNESS" "$HARNESS_DIR/harness.cc" -lphonenumber
fi
echo "compare.sh: libphonenumber $(dpkg-query -W -f='${Version}' libphonenumber-dev)" >&2

# 2. Corpora.
corpora=()
case "$which_corpora" in
  e164) corpora=(e164-1M) ;;
  mixed) corpora=(mixed-1M) ;;
  all) corpora=(e164-1M mixed-1M) ;;
esac
for c in "${corpora[@]}"; do
  if [[ ! -s "$CORPUS_DIR/$c.txt" ]]; then
    echo "compare.sh: generating $CORPUS_DIR/$c.txt" >&2
    python3 "$ROOT/tools/oracle/gen_corpus.py" --only "${c%%-*}" >&2
  fi
done

# 3. Runs.
swift_args=(run -c release --package-path "$ROOT/Benchmarks")
[[ -n "${SCRATCH_PATH:-}" ]] && swift_args+=(--scratch-path "$SCRATCH_PATH")

field() {  # field NAME LINE -> value of NAME=... in LINE
  sed -n "s/.*[[:space:]]$1=\([^[:space:]]*\).*/\1/p" <<<"$2"
}

status=0
for c in "${corpora[@]}"; do
  file="$CORPUS_DIR/$c.txt"
  echo "== $c ($(wc -l <"$file") lines)"
  cpp_line="$("$HARNESS" "$file" --repeat "${CPP_REPEAT:-1}" | grep '^cpp_libphonenumber ')"
  echo "$cpp_line"
  if swift_out="$(swift "${swift_args[@]}" PhoneNumbersThroughput "$file" --repeat "$repeat" 2>/dev/null)" \
     && swift_line="$(grep '^smskit ' <<<"$swift_out")"; then
    echo "$swift_line"
    cpp_rate="$(field numbers_per_sec "$cpp_line")"
    swift_rate="$(field numbers_per_sec "$swift_line")"
    awk -v s="$swift_rate" -v c="$cpp_rate" 'BEGIN { printf "ratio smskit/cpp=%.1f\n", s / c }'
    # The same over each input's UTF-8 (parse(utf8:defaultRegion:)): the loop borrows the input
    # as the C++ loop does (const std::string&), where the String loop copies each String out
    # of its array (a retain and a release, atomic for Strings over 15 bytes).
    if bytes_out="$(swift "${swift_args[@]}" PhoneNumbersThroughput "$file" --repeat "$repeat" --bytes 2>/dev/null)" \
       && bytes_line="$(grep '^smskit_bytes ' <<<"$bytes_out")"; then
      echo "$bytes_line"
      awk -v s="$(field numbers_per_sec "$bytes_line")" -v c="$cpp_rate" 'BEGIN { printf "ratio smskit_bytes/cpp=%.1f\n", s / c }'
    fi
    # The E.164 form as a String (formatE164) instead of the inline E164Text.
    if string_out="$(swift "${swift_args[@]}" PhoneNumbersThroughput "$file" --repeat "$repeat" --string 2>/dev/null)" \
       && string_line="$(grep '^smskit_string ' <<<"$string_out")"; then
      echo "$string_line"
      awk -v s="$(field numbers_per_sec "$string_line")" -v c="$cpp_rate" 'BEGIN { printf "ratio smskit_string/cpp=%.1f\n", s / c }'
    fi
    # The same work through the one-call API (check: parse, validity, type, region, E.164).
    if check_out="$(swift "${swift_args[@]}" PhoneNumbersThroughput "$file" --repeat "$repeat" --check 2>/dev/null)" \
       && check_line="$(grep '^smskit_check ' <<<"$check_out")"; then
      echo "$check_line"
      awk -v s="$(field numbers_per_sec "$check_line")" -v c="$cpp_rate" 'BEGIN { printf "ratio smskit_check/cpp=%.1f\n", s / c }'
    fi
    if [[ "$(field valid "$cpp_line")" != "$(field valid "$swift_line")" ]]; then
      echo "note: valid counts differ (Debian's libphonenumber carries older metadata than SMSKit)"
    fi
  else
    echo "smskit: PhoneNumbersThroughput failed or printed no 'smskit ...' line" >&2
    status=1
  fi
  if [[ "$python_lines" -gt 0 ]]; then
    python3 "$HARNESS_DIR/bench_python.py" "$file" --lines "$python_lines"
  fi
done
exit $status
