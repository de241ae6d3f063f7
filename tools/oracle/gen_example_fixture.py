#!/usr/bin/env python3
"""Writes the example-number fixture: the oracle's example_number, example_number_for_type and
example_number_for_non_geo_entity.

Tests/PhoneNumbersTests/Fixtures/example_numbers.tsv, columns  call key type e164
where `call` is `region` (example_number_for_type(key, type), `type` one of every number type),
`default` (example_number(key)) or `non_geo` (example_number_for_non_geo_entity(key), key a
calling code); `e164` is the number's E.164 text, empty when the oracle returns None. Keys: every
region, 001 and ZZ and AA (not regions); every calling code 1...999 for non_geo.

    pip install -r tools/requirements.txt
    python3 tools/oracle/gen_example_fixture.py
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle_common as oc  # noqa: E402

import phonenumbers  # noqa: E402
from phonenumbers import PhoneNumberFormat, PhoneNumberType  # noqa: E402


def e164(n):
    return phonenumbers.format_number(n, PhoneNumberFormat.E164) if n is not None else ""


def main():
    oc.check_version()
    rows = []
    for region in sorted(phonenumbers.SUPPORTED_REGIONS) + ["001", "AA", "ZZ"]:
        for num_type, name in sorted(oc.TYPE_NAMES.items(), key=lambda kv: kv[1]):
            rows.append(["region", region, name, e164(phonenumbers.example_number_for_type(region, num_type))])
        rows.append(["default", region, "fixed_line", e164(phonenumbers.example_number(region))])
    for code in range(1, 1000):
        rows.append(["non_geo", str(code), "", e164(phonenumbers.example_number_for_non_geo_entity(code))])
    oc.write_tsv(os.path.join(oc.FIXTURES_DIR, "example_numbers.tsv"), ["call", "key", "type", "e164"], rows,
                 "gen_example_fixture.py")
    print("example_numbers.tsv: %d rows" % len(rows))


if __name__ == "__main__":
    main()
