#!/usr/bin/env python3
"""Python peer figures for the time zone and carrier lookups: PyPI `phonenumbers` on the inputs
of the PhoneNumberExtrasBenchmarks ordo target (the numbers of a corpus that parse, parsed
before timing), one thread.

    python3 Benchmarks/harness/bench_python_extras.py [CORPUS] [--no-pattern-cache]
    # CORPUS defaults to Benchmarks/corpus/e164-10k.txt

phonenumbers.enable_pattern_cache() is called first unless --no-pattern-cache: without it the
`re` module's bounded cache thrashes on a corpus spanning all regions and number_type costs
some 300 us (see bench_python.py); with it Python is at its best.

Prints one line per lookup:

    python_<lookup> ns_per_number=<Y> numbers=<count>

Lookups: time_zones_for_number, time_zones_for_geographical_number, carrier name_for_number
("en"), name_for_valid_number ("ru"), is_mobile_number_portable_region(region_code_for_number),
number_type (what the checked lookups start with). Each is timed over the whole list, best of 3.
"""

import os
import sys
import time

import phonenumbers
from phonenumbers import carrier, timezone

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    args = [a for a in sys.argv[1:] if a != "--no-pattern-cache"]
    if "--no-pattern-cache" not in sys.argv[1:]:
        phonenumbers.enable_pattern_cache()
    path = args[0] if args else os.path.join(HERE, "..", "corpus", "e164-10k.txt")
    numbers = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            text = line.rstrip("\n").split("\t", 1)[0]
            try:
                numbers.append(phonenumbers.parse(text, None))
            except phonenumbers.NumberParseException:
                pass
    lookups = [
        ("number_type", phonenumbers.number_type),
        ("time_zones_for_number", timezone.time_zones_for_number),
        ("time_zones_for_geographical_number", timezone.time_zones_for_geographical_number),
        ("carrier_name_for_number_en", lambda n: carrier.name_for_number(n, "en")),
        ("carrier_name_for_valid_number_ru", lambda n: carrier.name_for_valid_number(n, "ru")),
        ("is_mobile_number_portable_region",
         lambda n: phonenumbers.is_mobile_number_portable_region(phonenumbers.region_code_for_number(n))),
    ]
    for name, call in lookups:
        for n in numbers[:2000]:  # warm up: metadata loads lazily per region
            call(n)
        best = None
        for _ in range(3):
            start = time.perf_counter_ns()
            for n in numbers:
                call(n)
            elapsed = time.perf_counter_ns() - start
            best = elapsed if best is None else min(best, elapsed)
        print("python_%s ns_per_number=%d numbers=%d" % (name, best // len(numbers), len(numbers)))


if __name__ == "__main__":
    main()
