#!/usr/bin/env python3
"""Writes the dialling fixture: the oracle's answers to how a number is dialled from a region.

Tests/PhoneNumbersTests/Fixtures/dialling.tsv, columns
    cc nsn ext from out_of_country mobile mobile_digits can_dial
for a number (calling code `cc`, national significant number `nsn` with its leading zeros,
extension `ext` or empty) called from region `from`: format_out_of_country_calling_number,
format_number_for_mobile_dialing with and without formatting, and can_be_internationally_dialled
(the same for every `from`). Numbers: every example number of every region and non-geographic
entity (every type), each with the first pattern-generated number of each type that has one, the
example with an extension and with its last digit changed (often invalid), plus numbers of
unknown calling codes; each called from its own region, the main region of its calling code,
AU BR CA CL DE GB IN JP MX RU US UZ, the next three regions in sorted order, and 001 and ZZ
(not regions: the international format).

    pip install -r tools/requirements.txt
    python3 tools/oracle/gen_dialling_fixture.py
"""

import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle_common as oc  # noqa: E402

import phonenumbers  # noqa: E402

FIXED_FROM = ["AU", "BR", "CA", "CL", "DE", "GB", "IN", "JP", "MX", "RU", "US", "UZ", "001", "ZZ"]


def main():
    oc.check_version()
    rng = random.Random(2706)
    gen = oc.PatternGenerator(rng)
    regions = sorted(phonenumbers.SUPPORTED_REGIONS)
    rows = set()
    for label, metadata in oc.entities():
        cc = metadata.country_code
        own = label if not label.startswith("001") else "001"
        main_region = phonenumbers.region_code_for_country_code(cc)
        nsns = []
        for attr, _name in oc.DESC_TYPES:
            desc = getattr(metadata, attr, None)
            if desc is None:
                continue
            if desc.example_number and desc.example_number not in nsns:
                nsns.append(desc.example_number)
            if desc.national_number_pattern:
                for generated in oc.generate_matches(gen, desc, metadata.general_desc, 1):
                    if generated not in nsns:
                        nsns.append(generated)
        numbers = []
        for nsn in nsns:
            numbers.append(oc.number(cc, nsn))
            numbers.append(oc.number(cc, nsn[:-1] + str((int(nsn[-1]) + 3) % 10)))
        if nsns:
            numbers.append(oc.number(cc, nsns[0], "123"))
        if own != "001":
            k = regions.index(own)
            nexts = [regions[(k + d) % len(regions)] for d in (1, 2, 3)]
        else:
            nexts = []
        froms = sorted(set([own, main_region] + FIXED_FROM + nexts))
        for n in numbers:
            can = phonenumbers.can_be_internationally_dialled(n)
            for r in froms:
                rows.add((str(n.country_code), phonenumbers.national_significant_number(n), n.extension or "", r,
                          phonenumbers.format_out_of_country_calling_number(n, r),
                          phonenumbers.format_number_for_mobile_dialing(n, r, True),
                          phonenumbers.format_number_for_mobile_dialing(n, r, False),
                          "true" if can else "false"))
    for code in oc.unassigned_country_codes()[:5]:
        n = oc.number(int(code), "12345678")
        for r in ["US", "GB", "ZZ"]:
            rows.add((code, "12345678", "", r, phonenumbers.format_out_of_country_calling_number(n, r),
                      phonenumbers.format_number_for_mobile_dialing(n, r, True),
                      phonenumbers.format_number_for_mobile_dialing(n, r, False),
                      "true" if phonenumbers.can_be_internationally_dialled(n) else "false"))
    rows = sorted(rows, key=lambda r: (int(r[0]), r[1], r[2], r[3]))
    oc.write_tsv(os.path.join(oc.FIXTURES_DIR, "dialling.tsv"),
                 ["cc", "nsn", "ext", "from", "out_of_country", "mobile", "mobile_digits", "can_dial"], rows,
                 "gen_dialling_fixture.py")
    print("dialling.tsv: %d rows" % len(rows))


if __name__ == "__main__":
    main()
