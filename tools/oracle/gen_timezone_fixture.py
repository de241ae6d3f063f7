#!/usr/bin/env python3
"""Writes Tests/PhoneNumberExtrasTests/Fixtures/timezones.tsv: the oracle's time zones
(phonenumbers.timezone, libphonenumber's PhoneNumberToTimeZonesMapper) for

- `prefix`: a number completed from every prefix of the time zone data (valid when a random
  completion is, else invalid), and one more-digit near miss of every fourth;
- `example`: every region's and non-geographic entity's example and pattern-generated valid
  numbers of every type (toll free, mobile, ... take the country-level branch), with near misses;
- `garbage`: unassigned calling codes, the national number 0, very long numbers;
- `country`: the country-level zones of every calling code 1...999 (national number empty).

Columns: kind cc national leading_zeros time_zones geographical_time_zones; zones joined by
"&", "Etc/Unknown" written as the empty string (SMSKit's empty list).

    pip install -r tools/requirements.txt
    python3 tools/oracle/gen_timezone_fixture.py
"""

import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle_common as oc  # noqa: E402
import prefix_fixture_common as pc  # noqa: E402

import phonenumbers  # noqa: E402
from phonenumbers import timezone  # noqa: E402
from phonenumbers.tzdata import TIMEZONE_DATA  # noqa: E402

OUT = os.path.join(pc.EXTRAS_FIXTURES_DIR, "timezones.tsv")


def zones(z):
    return "" if tuple(z) == (timezone.UNKNOWN_TIMEZONE,) else "&".join(z)


def row(kind, numobj):
    cc, nn, zeros = pc.parts(numobj)
    return [kind, cc, nn, zeros, zones(timezone.time_zones_for_number(numobj)),
            zones(timezone.time_zones_for_geographical_number(numobj))]


def main():
    oc.check_version()
    rng = random.Random(27_001)
    rows = []
    for i, prefix in enumerate(sorted(TIMEZONE_DATA)):
        cc, national = pc.split_prefix(prefix)
        if cc is None:
            continue
        numobj = pc.complete(rng, cc, national, phonenumbers.is_valid_number)
        rows.append(row("prefix", numobj))
        if i % 4 == 0:
            rows.append(row("prefix", pc.near_misses(rng, numobj)[0]))
    for _, _, numobj in pc.region_numbers(27_002, per_type=2):
        rows.append(row("example", numobj))
        for miss in pc.near_misses(rng, numobj):
            rows.append(row("example", miss))
    for code in oc.unassigned_country_codes()[:40]:
        rows.append(row("garbage", pc.number_from_digits(int(code), "2015550123")))
    for cc in (1, 7, 44, 39, 800):
        rows.append(row("garbage", pc.number_from_digits(cc, "0")))
        rows.append(row("garbage", pc.number_from_digits(cc, "9" * 17)))
    for cc in range(1, 1000):
        numobj = pc.number_from_digits(cc, "1")
        rows.append(["country", str(cc), "", "", zones(timezone._country_level_time_zones_for_number(numobj)), ""])
    oc.write_tsv(OUT, ["kind", "cc", "national", "leading_zeros", "time_zones", "geographical_time_zones"], rows,
                 "gen_timezone_fixture.py")
    print("wrote %s (%d rows)" % (os.path.relpath(OUT, oc.REPO_ROOT), len(rows)))


if __name__ == "__main__":
    main()
