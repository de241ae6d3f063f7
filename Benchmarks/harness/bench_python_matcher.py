#!/usr/bin/env python3
"""The oracle's PhoneNumberMatcher over a text file, for matcher-benchmark.sh:
    bench_python_matcher.py FILE REGION LENIENCY PASSES
prints the matches of one pass and the median wall time of the passes."""
import sys
import time

import phonenumbers
from phonenumbers import Leniency

LENIENCIES = {"possible": Leniency.POSSIBLE, "valid": Leniency.VALID,
              "strict-grouping": Leniency.STRICT_GROUPING, "exact-grouping": Leniency.EXACT_GROUPING}

path, region, leniency, passes = sys.argv[1], sys.argv[2], LENIENCIES[sys.argv[3]], int(sys.argv[4])
with open(path, encoding="utf-8", errors="replace") as f:
    text = f.read()
times = []
found = 0
for _ in range(passes):
    start = time.perf_counter()
    found = sum(1 for _ in phonenumbers.PhoneNumberMatcher(text, region, leniency=leniency))
    times.append(time.perf_counter() - start)
times.sort()
print("python matches=%d scalars=%d median_ms=%d passes=%d phonenumbers=%s"
      % (found, len(text), round(times[len(times) // 2] * 1000), passes, phonenumbers.__version__))
