#!/usr/bin/env python3
"""Writes Tests/PhoneNumberExtrasTests/Fixtures/carriers.tsv: the oracle's carrier names
(phonenumbers.carrier, libphonenumber's PhoneNumberToCarrierMapper) and number portability for

- `prefix`: a number completed from every prefix of the carrier data (mobile or pager when a
  random completion is, else valid, else invalid), asked in English, in every other language
  the prefix has a name in, and in one more locale taken in turn from a list that exercises the
  fallbacks (fr, ja, ko, zh, zh_Hant, zh_TW, zh_HK, de_CH, sr_Latn_RS, ru, kk, uk, be, fa, ar);
  one more-digit near miss of every fifth;
- `example`: every region's and non-geographic entity's example and pattern-generated valid
  numbers of every type (fixed line, toll free, ... have no carrier), with near misses;
- `garbage`: unassigned calling codes, the national number 0, very long numbers;
- `region`: every region code, "001" and "ZZ" with is_mobile_number_portable_region (number
  columns empty).

Columns: kind cc national leading_zeros locale name valid_name safe_name portable, where name is
name_for_number, valid_name name_for_valid_number, safe_name safe_display_name (all "" when
none) and portable is_mobile_number_portable_region(region_code_for_number) ("true"/"false").
A locale is language[_Script][_REGION], passed to the oracle as its three arguments.

    pip install -r tools/requirements.txt
    python3 tools/oracle/gen_carrier_fixture.py
"""

import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle_common as oc  # noqa: E402
import prefix_fixture_common as pc  # noqa: E402

import phonenumbers  # noqa: E402
from phonenumbers import PhoneNumberType, carrier  # noqa: E402
from phonenumbers.carrierdata import CARRIER_DATA  # noqa: E402

OUT = os.path.join(pc.EXTRAS_FIXTURES_DIR, "carriers.tsv")
TURNS = ["fr", "ja", "ko", "zh", "zh_Hant", "zh_TW", "zh_HK", "de_CH", "sr_Latn_RS", "ru", "kk", "uk", "be",
         "fa", "ar"]
MOBILE = (PhoneNumberType.MOBILE, PhoneNumberType.FIXED_LINE_OR_MOBILE, PhoneNumberType.PAGER)


def split_locale(locale):
    lang, script, region = locale, None, None
    bits = locale.split("_")
    lang = bits[0]
    for bit in bits[1:]:
        if len(bit) == 4:
            script = bit
        else:
            region = bit
    return lang, script, region


def row(kind, numobj, locale):
    cc, nn, zeros = pc.parts(numobj)
    lang, script, region = split_locale(locale)
    portable = phonenumbers.is_mobile_number_portable_region(phonenumbers.region_code_for_number(numobj))
    return [kind, cc, nn, zeros, locale,
            carrier.name_for_number(numobj, lang, script, region),
            carrier.name_for_valid_number(numobj, lang, script, region),
            carrier.safe_display_name(numobj, lang, script, region),
            "true" if portable else "false"]


def main():
    oc.check_version()
    rng = random.Random(27_101)
    rows = []
    turn = 0

    def locales_for(names):
        nonlocal turn
        out = ["en"] + sorted(l for l in names if l != "en")
        extra = TURNS[turn % len(TURNS)]
        turn += 1
        if extra not in out:
            out.append(extra)
        return out

    def mobile_or_valid(numobj):
        return phonenumbers.number_type(numobj) in MOBILE

    for i, prefix in enumerate(sorted(CARRIER_DATA)):
        cc, national = pc.split_prefix(prefix)
        if cc is None:
            continue
        numobj = pc.complete(rng, cc, national, mobile_or_valid)
        if not mobile_or_valid(numobj):
            numobj = pc.complete(rng, cc, national, phonenumbers.is_valid_number)
        for locale in locales_for(CARRIER_DATA[prefix]):
            rows.append(row("prefix", numobj, locale))
        if i % 5 == 0:
            rows.append(row("prefix", pc.near_misses(rng, numobj)[0], "en"))
    for _, _, numobj in pc.region_numbers(27_102, per_type=1):
        for locale in locales_for({}):
            rows.append(row("example", numobj, locale))
        for miss in pc.near_misses(rng, numobj):
            rows.append(row("example", miss, "en"))
    for code in oc.unassigned_country_codes()[:40]:
        rows.append(row("garbage", pc.number_from_digits(int(code), "9001234567"), "en"))
    for cc in (1, 7, 44, 39, 800):
        rows.append(row("garbage", pc.number_from_digits(cc, "0"), "en"))
        rows.append(row("garbage", pc.number_from_digits(cc, "9" * 17), "ru"))
    for region in sorted(phonenumbers.SUPPORTED_REGIONS) + ["001", "ZZ"]:
        portable = phonenumbers.is_mobile_number_portable_region(region)
        rows.append(["region", "", "", "", region, "", "", "", "true" if portable else "false"])
    oc.write_tsv(OUT, ["kind", "cc", "national", "leading_zeros", "locale", "name", "valid_name", "safe_name",
                       "portable"], rows, "gen_carrier_fixture.py")
    print("wrote %s (%d rows)" % (os.path.relpath(OUT, oc.REPO_ROOT), len(rows)))


if __name__ == "__main__":
    main()
