#!/usr/bin/env bash
# Runs the same `smskit` commands with two binaries over the project's fixtures and sample files
# and reports every output (stdout, stderr, exit code) that differs: the check that a change to
# the writers left each document byte for byte as it was.
#
#   tools/wire/compare-outputs.sh OLD_SMSKIT NEW_SMSKIT [PATTERN]
#
# PATTERN (an extended regular expression) keeps only the commands it matches, such as '^(find|match) '.
#
# Exit 0 when all outputs are equal; otherwise the differing commands are listed, exit 1.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
old="$1"
new="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$ROOT"

all_fields="file,line,record,column,input,ok,error,e164,national,international,rfc3966,possible,valid,type,region,fictional,time_zones,carrier,short_number,cost"
files=(Resources/Samples/numbers.csv Tests/SMSKitRecordsTests/Fixtures/*.csv Tests/SMSKitRecordsTests/Fixtures/*.txt)
commands=()
for file in "${files[@]}"; do
  for format in jsonl json csv tsv text; do
    commands+=("validate $file --no-progress --format $format")
    commands+=("validate $file --no-progress --format $format --fields $all_fields")
    commands+=("validate $file --no-progress --format $format --keep --unique")
  done
  commands+=("validate $file --no-progress --format jsonl --summary")
  commands+=("validate $file --no-progress --format csv --split --region GB")
  commands+=("validate $file --no-progress --format jsonl --only mobile,invalid")
  commands+=("find $file --format jsonl")
  commands+=("find $file --format csv")
  commands+=("segments --lines $file --format jsonl")
  commands+=("segments --lines $file --format csv")
  commands+=("segments --lines $file --format tsv")
done
for fixture in parse.tsv e164.tsv; do
  path="Tests/PhoneNumbersTests/Fixtures/$fixture"
  for format in jsonl csv tsv; do
    commands+=("validate $path --no-progress --input-format tsv --format $format")
  done
  commands+=("find $path --format jsonl")
done
texts=Tests/PhoneNumbersTests/Fixtures/matcher_texts.tsv
for leniency in possible valid strict-grouping exact-grouping; do
  commands+=("find $texts --format jsonl --region DE --leniency $leniency")
done
commands+=("find $texts --format csv --region IN")
commands+=("find --format csv --region US < $texts")
for text in "Your code: [123456] €" "Ваш код 123456" "“Quoted” text… 12"; do
  commands+=("segments --format json -- '$text'")
  commands+=("segments --format text --smart-encoding -- '$text'")
done
commands+=("render --lang pt-BR --code 042917 --app Acme --minutes 10 --format json")
commands+=("render --to +905321234567 --code 1234 --app Acme --format text")
commands+=("parse '+44 20 7946 0000' --format json")
commands+=("match '+1 650-253-0000' '650 253 0000' --region US")
for pair in "'+1 650-253-0000' '650 253 0000'" "'020 7031 3000 ext. 5' '+44 20 7031 3000' --region GB" \
            "'+44 20 7031 3000' '+1 650 253 0000'" "'hello' '+44 20 7031 3000' --region GB" "'abc' '123'"; do
  commands+=("match $pair --format json")
  commands+=("match $pair --format text")
done
if [ -n "${3:-}" ]; then
  kept=()
  for command in "${commands[@]}"; do
    if [[ "$command" =~ $3 ]]; then kept+=("$command"); fi
  done
  commands=("${kept[@]}")
fi

differ=0
for command in "${commands[@]}"; do
  for side in old new; do
    binary="${!side}"
    eval "\"$binary\" $command" > "$work/$side.out" 2> "$work/$side.err" < /dev/null
    echo "$?" > "$work/$side.rc"
    # The timing lines of --summary and segments --lines differ from run to run.
    sed -i -e "s#$binary#smskit#g" -e "/^ *time  .*\/s$/d" "$work/$side.err"
  done
  if ! cmp -s "$work/old.out" "$work/new.out" || ! cmp -s "$work/old.err" "$work/new.err" || ! cmp -s "$work/old.rc" "$work/new.rc"; then
    echo "DIFFERS: smskit $command"
    diff <(head -c 2000 "$work/old.out") <(head -c 2000 "$work/new.out") | head -6
    diff "$work/old.err" "$work/new.err" | head -4
    differ=$((differ + 1))
  fi
done
echo "compare-outputs: ${#commands[@]} commands, $differ differ"
[ "$differ" -eq 0 ]
