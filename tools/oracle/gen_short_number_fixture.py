#!/usr/bin/env python3
"""Writes the short-number fixtures: the oracle's ShortNumberInfo answers (phonenumbers.shortnumberinfo).

Tests/PhoneNumbersTests/Fixtures/short_numbers.tsv, columns
    cc nsn region possible possible_region valid valid_region cost cost_region carrier carrier_region sms_region
for a number (calling code `cc`, national significant number `nsn` with its leading zeros) asked
in general and for `region` (is_possible_short_number[_for_region], is_valid_short_number[_for_region],
expected_cost[_for_region], is_carrier_specific[_for_region], is_sms_service_for_region). Numbers:
every example number of every short-number region and description, two more numbers generated from
each description's pattern, and of each: one digit more (0 and 9 appended), one less, the last and
the first digit changed; each asked for its own region, for the main region of its calling code
and for the next region in sorted order; every example also with the next region's calling code
(another region's example). Costs are toll_free, standard_rate, premium_rate, unknown_cost.

Tests/PhoneNumbersTests/Fixtures/short_given.tsv, columns  text region short_region valid cost carrier sms
(PhoneNumberEngine.check's shortNumber for inputs given with their calling code, "+91 1171627" and
"+911171627"): the short-number examples of every region (and one digit more or less) so written,
asked in their region, the next region and US. For an input that parses and is not a valid number,
the answers of ShortNumberInfo for the number's region: the default region when it is one of the
number's calling code (is_valid_short_number_for_region and the others with it), else the region
is_valid_short_number picks (the only region of the calling code, or the first where the number
is a short code); never an emergency number (a plus sign does not reach one). "-" when the input
is a valid number, or not a valid short number of that region.

Tests/PhoneNumbersTests/Fixtures/short_emergency.tsv, columns  text region is_emergency connects
(is_emergency_number, connects_to_emergency_number): every region's emergency examples, with extra
digits, fewer digits, a plus sign, formatting, letters before, other scripts' digits, a second number
after "/x", asked in their region, in the next region and in BR/CL/NI/US/ZZ/001.

    pip install -r tools/requirements.txt
    python3 tools/oracle/gen_short_number_fixture.py
"""

import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle_common as oc  # noqa: E402

import phonenumbers  # noqa: E402
from phonenumbers import NumberParseException, PhoneMetadata, shortnumberinfo as sni  # noqa: E402

DESCS = ["general_desc", "short_code", "toll_free", "standard_rate", "premium_rate", "emergency",
         "carrier_specific", "sms_services"]
COST_NAMES = {sni.ShortNumberCost.TOLL_FREE: "toll_free", sni.ShortNumberCost.STANDARD_RATE: "standard_rate",
              sni.ShortNumberCost.PREMIUM_RATE: "premium_rate", sni.ShortNumberCost.UNKNOWN_COST: "unknown_cost"}


def b(x):
    return "true" if x else "false"


def variants(nsn):
    out = [nsn, nsn + "0", nsn + "9", nsn[:-1], nsn[:-1] + str((int(nsn[-1]) + 1) % 10),
           str((int(nsn[0]) + 1) % 10) + nsn[1:]]
    return [v for v in out if v]


def number_rows(regions, rng):
    gen = oc.PatternGenerator(rng)
    rows = set()
    for i, r in enumerate(regions):
        m = PhoneMetadata.short_metadata_for_region(r)
        cc = phonenumbers.country_code_for_region(r)
        following = regions[(i + 1) % len(regions)]
        asked = {r, phonenumbers.region_code_for_country_code(cc), following}
        samples = []
        for name in DESCS:
            d = getattr(m, name)
            if d is None or not d.national_number_pattern:
                continue
            if d.example_number:
                samples.append(d.example_number)
            samples.extend(oc.generate_matches(gen, d, m.general_desc, 2))
        for nsn in dict.fromkeys(samples):
            for v in variants(nsn):
                for region in asked:
                    rows.add((cc, v, region))
            # Another region's example: this example with the next region's calling code.
            rows.add((phonenumbers.country_code_for_region(following), nsn, following))
    out = []
    for cc, nsn, region in sorted(rows, key=lambda t: (t[0], len(t[1]), t[1], t[2])):
        n = oc.number(cc, nsn)
        out.append([str(cc), nsn, region,
                    b(sni.is_possible_short_number(n)), b(sni.is_possible_short_number_for_region(n, region)),
                    b(sni.is_valid_short_number(n)), b(sni.is_valid_short_number_for_region(n, region)),
                    COST_NAMES[sni.expected_cost(n)], COST_NAMES[sni.expected_cost_for_region(n, region)],
                    b(sni.is_carrier_specific(n)), b(sni.is_carrier_specific_for_region(n, region)),
                    b(sni.is_sms_service_for_region(n, region))])
    return out


def given_rows(regions):
    rows = set()
    for i, r in enumerate(regions):
        m = PhoneMetadata.short_metadata_for_region(r)
        cc = phonenumbers.country_code_for_region(r)
        samples = []
        for name in DESCS:
            d = getattr(m, name)
            if d is not None and d.example_number:
                samples.append(d.example_number)
        for nsn in dict.fromkeys(samples):
            for v in dict.fromkeys([nsn, nsn + "0", nsn[:-1]]):
                if not v:
                    continue
                for text in ("+%d %s" % (cc, v), "+%d%s" % (cc, v)):
                    for region in (r, regions[(i + 1) % len(regions)], "US"):
                        rows.add((text, region))
    # The held-out rows that found the difference, and emergency numbers given with a plus sign.
    for text, region in (("+91 1171627", "IN"), ("+91 1171627", "US"), ("+1 911", "US"), ("+44 999", "GB"),
                         ("+44 999", "US"), ("+33 112", "FR"), ("+61 000", "AU")):
        rows.add((text, region))
    out = []
    for text, region in sorted(rows):
        try:
            n = phonenumbers.parse(text, region)
        except NumberParseException:
            continue
        answer = ["-"] * 5
        if not phonenumbers.is_valid_number(n):
            codes = phonenumbers.region_codes_for_country_code(n.country_code)
            if region in codes and PhoneMetadata.short_metadata_for_region(region) is not None:
                own = region
            else:
                own = sni._region_code_for_short_number_from_region_list(n, codes)
            if own is not None and sni.is_valid_short_number_for_region(n, own):
                answer = [own, "true", COST_NAMES[sni.expected_cost_for_region(n, own)],
                          b(sni.is_carrier_specific_for_region(n, own)), b(sni.is_sms_service_for_region(n, own))]
        out.append([text, region] + answer)
    return out


def emergency_texts(e):
    arabic = "".join(chr(0x660 + int(c)) for c in e)
    fullwidth = "".join(chr(0xFF10 + int(c)) for c in e)
    return [e, e + "1", e + "23", e[:-1], "+" + e, "\uFF0B" + e, "Call " + e, "-".join(e), "(" + e + ")",
            " " + e + " ", arabic, fullwidth, e + "/x5", e + "/ x 1", e + "\\x2", e + "/X5", "tel:" + e,
            "\u00B2" + e, e + "\u00B9", "0" + e, e + "#", "abc", "", "x" + e + "1"]


def emergency_rows(regions):
    rows = set()
    for i, r in enumerate(regions):
        m = PhoneMetadata.short_metadata_for_region(r)
        examples = []
        if m.emergency is not None and m.emergency.example_number:
            examples.append(m.emergency.example_number)
        for other in ("112", "911"):
            examples.append(other)
        for e in dict.fromkeys(examples):
            for t in emergency_texts(e):
                for region in (r, regions[(i + 1) % len(regions)]):
                    rows.add((t, region))
    for e in ("112", "911", "190", "1900", "1901", "133", "1331", "118", "1181", "999"):
        for t in emergency_texts(e):
            for region in ("BR", "CL", "NI", "US", "ZZ", "001"):
                rows.add((t, region))
    return [[t, region, b(sni.is_emergency_number(t, region)), b(sni.connects_to_emergency_number(t, region))]
            for t, region in sorted(rows)]


def main():
    oc.check_version()
    regions = sorted(sni.SUPPORTED_SHORT_REGIONS)
    rng = random.Random(27)
    numbers = number_rows(regions, rng)
    oc.write_tsv(os.path.join(oc.FIXTURES_DIR, "short_numbers.tsv"),
                 ["cc", "nsn", "region", "possible", "possible_region", "valid", "valid_region", "cost",
                  "cost_region", "carrier", "carrier_region", "sms_region"], numbers, "gen_short_number_fixture.py")
    given = given_rows(regions)
    oc.write_tsv(os.path.join(oc.FIXTURES_DIR, "short_given.tsv"),
                 ["text", "region", "short_region", "valid", "cost", "carrier", "sms"], given, "gen_short_number_fixture.py")
    emergency = emergency_rows(regions)
    oc.write_tsv(os.path.join(oc.FIXTURES_DIR, "short_emergency.tsv"),
                 ["text", "region", "is_emergency", "connects"], emergency, "gen_short_number_fixture.py")
    print("short_numbers.tsv: %d rows, short_given.tsv: %d rows, short_emergency.tsv: %d rows"
          % (len(numbers), len(given), len(emergency)))


if __name__ == "__main__":
    main()
