#!/usr/bin/env python3
"""Python peer figure: PyPI `phonenumbers` doing the harness's work on a corpus.

    python3 Benchmarks/harness/bench_python.py CORPUS [--lines N] [--region XX] [--pattern-cache]

Reads the first N lines (default all) of a corpus in the harness format ("input" or
"input<TAB>REGION"; no region: "ZZ" for lines starting with "+", else --region), then
times parse + is_valid_number + number_type + format_number(E164) over them on one thread
and prints the line below. By default phonenumbers compiles metadata patterns through the
`re` module's bounded cache (512 entries), which thrashes on a corpus spanning all regions;
--pattern-cache calls phonenumbers.enable_pattern_cache() first to keep every pattern.

    python_phonenumbers numbers_per_sec=<X> ns_per_number=<Y> valid=<count>
"""

import argparse
import sys
import time

import phonenumbers
from phonenumbers import NumberParseException, PhoneNumberFormat


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus")
    ap.add_argument("--lines", type=int, default=0)
    ap.add_argument("--region", default="ZZ")
    ap.add_argument("--pattern-cache", action="store_true")
    args = ap.parse_args()
    if args.pattern_cache:
        phonenumbers.enable_pattern_cache()
    entries = []
    with open(args.corpus, encoding="utf-8", newline="\n") as f:
        for line in f:
            line = line.rstrip("\n").rstrip("\r")
            if "\t" in line:
                text, region = line.split("\t", 1)
                region = region or "ZZ"
            else:
                text, region = line, ("ZZ" if line.startswith("+") else args.region)
            entries.append((text, region))
            if args.lines and len(entries) >= args.lines:
                break
    if not entries:
        sys.exit("bench_python: empty corpus")
    # Warm up: metadata is loaded lazily per region.
    for text, region in entries[:20000]:
        try:
            phonenumbers.is_valid_number(phonenumbers.parse(text, region))
        except NumberParseException:
            pass
    parse, is_valid, number_type, fmt = (phonenumbers.parse, phonenumbers.is_valid_number,
                                         phonenumbers.number_type, phonenumbers.format_number)
    e164 = PhoneNumberFormat.E164
    valid = 0
    start = time.perf_counter()
    cpu_start = time.process_time()
    for text, region in entries:
        try:
            n = parse(text, region)
        except NumberParseException:
            continue
        if is_valid(n):
            valid += 1
        number_type(n)
        fmt(n, e164)
    seconds = time.perf_counter() - start
    cpu_seconds = time.process_time() - cpu_start
    sys.stderr.write("bench_python: %d lines in %.3f s wall, %.3f s cpu (cpu numbers_per_sec=%.0f)\n"
                     % (len(entries), seconds, cpu_seconds, len(entries) / cpu_seconds))
    label = "python_phonenumbers_cached" if args.pattern_cache else "python_phonenumbers"
    print(label + " numbers_per_sec=%.0f ns_per_number=%.1f valid=%d"
          % (len(entries) / seconds, seconds * 1e9 / len(entries), valid))


if __name__ == "__main__":
    main()
