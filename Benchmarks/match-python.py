#!/usr/bin/env python3
"""The Python oracle (phonenumbers, pinned in tools/requirements.txt) on MatchThroughput's inputs:
ns per call of each lookup, best of 3 passes. Used by Benchmarks/match-benchmark.sh.

    python3 Benchmarks/match-python.py FIXTURES [LOOKUP...]
"""

import sys
import time

import phonenumbers
from phonenumbers import PhoneNumber


def rows(fixtures, name):
    with open(f"{fixtures}/{name}", encoding="utf-8") as f:
        lines = f.read().split("\n")[1:]
    return [line.split("\t") for line in lines if line]


def number(cc, nsn, ext):
    zeros = len(nsn) - len(nsn.lstrip("0"))
    if zeros == len(nsn):
        zeros -= 1
    n = PhoneNumber(country_code=int(cc), national_number=int(nsn))
    if zeros:
        n.italian_leading_zero = True
        n.number_of_leading_zeros = zeros
    if ext:
        n.extension = ext
    return n


def parse_field(field):
    head, _, ext = field.partition(";ext=")
    cc, nsn = head.split(":")
    return number(cc, nsn, ext)


def calls(fixtures, lookup):
    match = phonenumbers.is_number_match
    if lookup in ("baseline", "matchNumbers", "matchNumberText", "matchTexts"):
        kind = {"matchNumbers": "nn", "matchNumberText": "ns", "matchTexts": "ss", "baseline": "nn"}[lookup]
        out = []
        for row in rows(fixtures, "match.tsv"):
            if row[0] != kind:
                continue
            if lookup == "baseline":
                out.append((lambda: 1, ()))
            elif lookup == "matchNumbers":
                out.append((match, (parse_field(row[1]), parse_field(row[2]))))
            elif lookup == "matchNumberText":
                out.append((match, (parse_field(row[1]), row[2])))
            else:
                out.append((match, (row[1], row[2])))
        return out
    out = []
    for row in rows(fixtures, "dialling.tsv"):
        n, region = number(row[0], row[1], row[2]), row[3]
        if lookup == "dedupeKey":
            out.append((lambda n=n: phonenumbers.format_number(n, phonenumbers.PhoneNumberFormat.E164)
                        + (";ext=" + n.extension if n.extension else ""), ()))
        elif lookup == "outOfCountry":
            out.append((phonenumbers.format_out_of_country_calling_number, (n, region)))
        elif lookup == "mobileDialing":
            out.append((phonenumbers.format_number_for_mobile_dialing, (n, region, True)))
        elif lookup == "mobileDigits":
            out.append((phonenumbers.format_number_for_mobile_dialing, (n, region, False)))
        elif lookup == "canDial":
            out.append((phonenumbers.can_be_internationally_dialled, (n,)))
        else:
            raise SystemExit(f"unknown lookup {lookup}")
    return out


def main():
    fixtures = sys.argv[1]
    lookups = sys.argv[2:] or ["baseline", "matchNumbers", "matchNumberText", "matchTexts", "dedupeKey",
                               "outOfCountry", "mobileDialing", "mobileDigits", "canDial"]
    for lookup in lookups:
        work = calls(fixtures, lookup)
        for f, args in work[:200]:  # warm the pattern cache
            f(*args)
        best = None
        for _ in range(3):
            start = time.perf_counter_ns()
            for f, args in work:
                f(*args)
            elapsed = (time.perf_counter_ns() - start) / len(work)
            best = elapsed if best is None else min(best, elapsed)
        print(f"lookup={lookup} calls={len(work)} ns_per_call={best:.1f}")


if __name__ == "__main__":
    main()
