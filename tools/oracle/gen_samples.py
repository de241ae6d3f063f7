#!/usr/bin/env python3
"""Writes Resources/Samples/numbers.csv, the bundled sample list for `smskit validate`.

    python3 tools/oracle/gen_samples.py [--check]

About 1,000 numbers as people type them, from many regions: international and national
forms with the region they were collected in (or none), decorated ones, fictional numbers
reserved for drama and documentation (NANP 555-01xx, Ofcom, ACMA, Bundesnetzagentur,
ARCEP), and invalid ones (too short, too long, wrong region, letters, unassigned country
codes). Columns: `number,region`; region may be empty. Fields with commas are quoted.
Deterministic (fixed seed). With --check, prints what the oracle says about the file.
"""

import collections
import csv
import io
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import phonenumbers  # noqa: E402
from phonenumbers import PhoneMetadata, PhoneNumberFormat  # noqa: E402

from oracle_common import (  # noqa: E402
    REPO_ROOT, PatternGenerator, check_version, parse_or_error, valid_national_numbers,
)

SEED = 1000
OUT = os.path.join(REPO_ROOT, "Resources", "Samples", "numbers.csv")

# Regions weighted roughly by how often they turn up in an international SMS list.
WEIGHTED_REGIONS = {
    "US": 60, "IN": 50, "GB": 35, "BR": 30, "DE": 30, "FR": 25, "MX": 20, "ID": 20, "NG": 15,
    "TR": 15, "PK": 12, "BD": 12, "EG": 12, "SA": 12, "AE": 12, "PH": 12, "VN": 10, "JP": 10,
    "KR": 8, "CN": 10, "RU": 10, "IT": 15, "ES": 15, "CA": 12, "AU": 12, "AR": 10, "CO": 10,
    "ZA": 10, "KE": 8, "PL": 8, "NL": 8, "SE": 6, "CH": 6, "BE": 6, "IR": 6, "MA": 6, "DZ": 5,
    "TH": 6, "MY": 6, "SG": 5, "IL": 5, "UA": 5, "KZ": 4, "PE": 5, "CL": 5, "VE": 4, "GH": 4,
    "NZ": 4, "IE": 4, "PT": 5, "GR": 4, "AT": 4, "NO": 3, "DK": 3, "FI": 3, "HK": 3, "TW": 3,
    "JE": 1, "GG": 1, "IM": 1, "PR": 2, "RE": 1, "GP": 1, "CW": 1, "BQ": 1,
}

# Numbers reserved for fiction and documentation, as published by the regulators.
FICTIONAL = [
    ("+1 650-555-3434", ""), ("+1 212-555-0123", ""), ("(212) 555-0199", "US"),
    ("202-555-0147", "US"), ("+1 (416) 555-0110", ""), ("1-800-555-0100", "US"),
    ("07700 900123", "GB"), ("07700 900999", "GB"), ("+44 7700 900000", ""),
    ("020 7946 0123", "GB"), ("+44 20 7946 0999", ""), ("0113 496 0555", "GB"),
    ("0161 496 0000", "GB"), ("0131 496 0123", "GB"), ("029 2018 0555", "GB"),
    ("0808 157 0123", "GB"), ("0909 879 0123", "GB"), ("03069 990123", "GB"),
    ("0491 570 156", "AU"), ("0491 570 006", "AU"), ("+61 491 570 110", ""),
    ("0491 578 888", "AU"), ("(02) 5550 1234", "AU"), ("(03) 7010 4321", "AU"),
    ("1800 160 401", "AU"), ("1900 654 321", "AU"),
    ("030 23125123", "DE"), ("+49 30 23125000", ""), ("069 90009100", "DE"),
    ("01 99 00 12 34", "FR"), ("+33 6 39 98 12 34", ""), ("04 65 71 00 00", "FR"),
]

# Hand-written forms people really send: the worked examples of the parsing issue and friends.
HANDWRITTEN = [
    ("(650) 253-0000", "US"), ("020 7946 0000", "GB"), ("00 49 30 1234567", "FR"),
    ("+90 (542) 145 60 13", ""), ("\u096f\u0966\u0966-\u0967\u0968\u0967\u0967\u0969\u096c\u096b", "IN"),
    ("0888 966 7622 ext. 8577", "US"), ("tel:+1-201-555-0123;ext=1234", ""),
    ("1-800-FLOWERS", "US"), ("+1 650-253-0000, ext. 1234", ""), ("(02) 9374 4000, 123", "AU"),
    ("\u0660\u0661\u0660\u0660\u0661\u0662\u0663\u0664\u0665\u0666\u0667", "EG"),
    ("\u06f0\u06f9\u06f1\u06f2 \u06f3\u06f4\u06f5 \u06f6\u06f7\u06f8\u06f9", "IR"),
    ("\u09e6\u09e7\u09ed\u09e7\u09e8-\u09e9\u09ea\u09eb\u09ec\u09ed\u09ee", "BD"),
    ("\uff0b\uff18\uff11 \uff13\uff0d\uff11\uff12\uff13\uff14\uff0d\uff15\uff16\uff17\uff18", ""),
    ("+44 (0) 20 7946 0000", ""), ("0044 7911 123456", "DE"), ("011 44 20 7946 0000", "US"),
    ("+39 06 6988 3000", ""), ("06 6988 3000", "IT"), ("+54 9 11 4321-5678", ""),
    ("011 15-4321-5678", "AR"), ("+55 11 91234-5678", ""), ("(11) 3456-7890", "BR"),
    ("+7 (495) 123-45-67", ""), ("8 (912) 345-67-89", "RU"), ("+7 701 123 4567", ""),
    ("+971 50 123 4567", ""), ("050 123 4567", "AE"), ("+966 50 123 4567", ""),
    ("+234 803 123 4567", ""), ("0803 123 4567", "NG"), ("+91 98765 43210", ""),
    ("098765 43210", "IN"), ("+62 812-3456-7890", ""), ("0812 3456 7890", "ID"),
    ("+63 917 123 4567", ""), ("+84 91 234 56 78", ""), ("+81 90-1234-5678", ""),
    ("+82 10-1234-5678", ""), ("+86 138 0013 8000", ""), ("+852 5123 4567", ""),
    ("Tel: +49 (0)89 1234567", ""), ("+31 (0)20 123 4567", ""), ("0032 2 123 45 67", "NL"),
    ("+800 1234 5678", ""), ("+882 3423 4567", ""), ("+979 1 2345 6789", ""),
]

INVALID = [
    ("12345", "US"), ("", "GB"), ("n/a", ""), ("none", "FR"), ("---", "DE"),
    ("+999 123 456 789", ""), ("+0 123 456 789", ""), ("00 999 1234 5678", "FR"),
    ("650 253 0000", ""), ("020 7946 0000", ""), ("+1 650 253 00000", ""),
    ("+44 20 7946 000", ""), ("+49 30 1", ""), ("+1 123 456 7890", ""),
    ("555-1234", "US"), ("+1 (650) 253-0000 x", ""), ("call me", ""),
    ("+12345678901234567890", ""), ("0000000000", "US"), ("+44 0 0", ""),
    ("john@example.com", ""), ("+33 1 23", ""), ("011", "US"), ("+", ""),
    ("0123456789012345678901", "DE"), ("+91 12345", ""), ("+86 1", ""),
]

SEPS = [" ", " ", "-", ".", "", " / ", "\u00a0"]


def decorate(rng, formatted):
    sep = rng.choice(SEPS)
    s = formatted.replace(" ", sep) if rng.random() < 0.4 else formatted
    return s


def build():
    rng = random.Random(SEED)
    gen = PatternGenerator(rng)
    regions = sorted(WEIGHTED_REGIONS)
    weights = [WEIGHTED_REGIONS[r] for r in regions]
    others = sorted(set(phonenumbers.SUPPORTED_REGIONS) - set(regions))
    pools = {}

    def numbers_for(region):
        if region not in pools:
            md = PhoneMetadata.metadata_for_region(region)
            # Mostly mobiles and fixed lines, as real lists are.
            nums = [n for n in valid_national_numbers(rng, gen, md, 6)
                    if n[0] in ("mobile", "fixed_line", "fixed_line_or_mobile")]
            pools[region] = nums or valid_national_numbers(rng, gen, md, 2)
        return pools[region]

    rows = []
    rows.extend(FICTIONAL)
    rows.extend(HANDWRITTEN)
    rows.extend(INVALID)
    while len(rows) < 1000:
        region = rng.choices(regions, weights)[0] if rng.random() < 0.85 else rng.choice(others)
        nums = numbers_for(region)
        if not nums:
            continue
        _, nsn = rng.choice(nums)
        cc = PhoneMetadata.metadata_for_region(region).country_code
        num = phonenumbers.parse("+%d%s" % (cc, nsn), None)
        roll = rng.random()
        if roll < 0.30:
            rows.append((decorate(rng, phonenumbers.format_number(num, PhoneNumberFormat.NATIONAL)), region))
        elif roll < 0.55:
            text = phonenumbers.format_number(num, PhoneNumberFormat.INTERNATIONAL)
            rows.append((decorate(rng, text), rng.choice(["", "", region])))
        elif roll < 0.75:
            rows.append(("+%d%s" % (cc, nsn), rng.choice(["", region])))
        elif roll < 0.80:
            rows.append(("%d%s" % (cc, nsn), region))
        elif roll < 0.84:
            text = phonenumbers.format_number(num, PhoneNumberFormat.INTERNATIONAL)
            rows.append(("%s, ext. %d" % (text, rng.randint(10, 9999)), ""))
        elif roll < 0.88:
            # Typed with one digit too many or too few.
            text = "+%d%s" % (cc, nsn)
            rows.append((text[:-1] if rng.random() < 0.5 else text + str(rng.randint(0, 9)), ""))
        elif roll < 0.92:
            # National form given with the wrong region or none.
            natl = phonenumbers.format_number(num, PhoneNumberFormat.NATIONAL)
            rows.append((natl, rng.choice(["", rng.choice(regions)])))
        elif roll < 0.96:
            # From a spreadsheet: a trailing note or a label in front.
            text = phonenumbers.format_number(num, PhoneNumberFormat.INTERNATIONAL)
            rows.append((rng.choice(["Mobile: ", "Tel. ", "", "WhatsApp "]) + text
                         + rng.choice([" (mobile)", " (home)", ", office", ""]), ""))
        else:
            rows.append(("+%d %s" % (cc, rng.choice(["1", "12", "123"])), ""))
    return rows


def render(rows):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["number", "region"])
    for row in rows:
        w.writerow(row)
    return buf.getvalue()


def main():
    check_version()
    rows = build()
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", encoding="utf-8", newline="") as f:
        f.write(render(rows))
    print("%s: %d rows" % (os.path.relpath(OUT, REPO_ROOT), len(rows)))
    if "--check" in sys.argv:
        stats = collections.Counter()
        for text, region in rows:
            num, err = parse_or_error(text, region or "ZZ")
            if err:
                stats["error:" + err] += 1
            else:
                stats["valid" if phonenumbers.is_valid_number(num) else "invalid"] += 1
        for k, v in sorted(stats.items()):
            print("  %s %d" % (k, v))


if __name__ == "__main__":
    main()
