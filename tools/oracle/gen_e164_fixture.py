#!/usr/bin/env python3
"""Writes the E.164 oracle fixtures for the PhoneNumbers tests.

    python3 tools/oracle/gen_e164_fixture.py

Outputs (deterministic: fixed seed, sorted rows):
  Tests/PhoneNumbersTests/Fixtures/e164.tsv
      input  error  e164  possible  valid  type  region
      `input` is "+" and digits, parsed with no default region. `error` is empty or the
      parse error in snake case; when it is set, the other columns are empty.
  Tests/PhoneNumbersTests/Fixtures/examples.tsv
      region  type  e164
      Every example number of every region and non-geographic entity ("001"), per type.

Inputs: every region and non-geographic entity; for each number type, its example number
and numbers generated at random from the type's national number pattern (and from the
general pattern), then near misses of those (one digit more or less, another leading
digit, one digit changed), random digit strings of every length after each country code,
unassigned country codes, and degenerate inputs ("+", hundreds of digits).
"""

import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import phonenumbers  # noqa: E402
from phonenumbers import PhoneNumberFormat  # noqa: E402

from oracle_common import (  # noqa: E402
    DESC_TYPES, FIXTURES_DIR, PatternGenerator, assigned_country_codes, check_version,
    entities, generate_matches, parse_or_error, region_of, snake_possible, snake_type,
    unassigned_country_codes, write_tsv,
)

SEED = 20260521
PER_TYPE = 16       # generated numbers per type pattern
PER_GENERAL = 8     # generated numbers per general pattern
NEAR_MISSES = 2     # near misses per generated or example number


def near_misses(rng, cc, nsn, count):
    """One digit more or less, another first digit, one digit changed or inserted."""
    kinds = ["append", "drop_last", "lead", "change", "insert", "drop_first"]
    out = []
    for kind in rng.sample(kinds, count):
        d = rng.choice("0123456789")
        if kind == "append":
            s = nsn + d
        elif kind == "drop_last":
            s = nsn[:-1]
        elif kind == "drop_first":
            s = nsn[1:]
        elif kind == "lead":
            s = rng.choice([x for x in "0123456789" if x != nsn[:1]]) + nsn[1:]
        elif kind == "change":
            i = rng.randrange(len(nsn)) if nsn else 0
            s = nsn[:i] + d + nsn[i + 1:]
        else:
            i = rng.randrange(len(nsn) + 1)
            s = nsn[:i] + d + nsn[i:]
        out.append("+%d%s" % (cc, s))
    return out


def oracle_row(text):
    num, err = parse_or_error(text, None)
    if err:
        return [text, err, "", "", "", "", ""]
    return [
        text,
        "",
        phonenumbers.format_number(num, PhoneNumberFormat.E164),
        snake_possible(num),
        "true" if phonenumbers.is_valid_number(num) else "false",
        snake_type(num),
        region_of(num),
    ]


def example_rows():
    rows = []
    for label, md in entities():
        region = "001" if label.startswith("001/") else label
        for attr, tname in DESC_TYPES:
            desc = getattr(md, attr)
            if desc is not None and desc.example_number:
                rows.append([region, tname, "+%d%s" % (md.country_code, desc.example_number)])
    rows.sort()
    return rows


def inputs():
    rng = random.Random(SEED)
    gen = PatternGenerator(rng)
    out = set()
    for label, md in entities():
        cc = md.country_code
        nsns = []
        for attr, _ in DESC_TYPES:
            desc = getattr(md, attr)
            if desc is None or not desc.national_number_pattern:
                continue
            if desc.example_number:
                nsns.append(desc.example_number)
            nsns.extend(generate_matches(gen, desc, md.general_desc, PER_TYPE))
        if md.general_desc is not None and md.general_desc.national_number_pattern:
            nsns.extend(generate_matches(gen, md.general_desc, md.general_desc, PER_GENERAL))
        for nsn in nsns:
            out.add("+%d%s" % (cc, nsn))
            out.update(near_misses(rng, cc, nsn, NEAR_MISSES))

    # Random digits of every length after each assigned country code.
    for cc in assigned_country_codes():
        out.add("+%d" % cc)
        for length in range(1, 21):
            out.add("+%d%s" % (cc, "".join(rng.choice("0123456789") for _ in range(length))))
    # Unassigned three-digit country codes and leading zeros.
    for code in unassigned_country_codes():
        for length in (4, 8, 10, 12):
            out.add("+%s%s" % (code, "".join(rng.choice("0123456789") for _ in range(length))))
    for length in range(0, 18):
        out.add("+0" + "".join(rng.choice("0123456789") for _ in range(length)))
    # Degenerate lengths around the 17-digit national number limit and the 250-character
    # input limit, and hundreds of digits.
    out.add("+")
    for length in (18, 19, 20, 24, 30, 50, 100, 248, 249, 250, 251, 300, 500):
        out.add("+1" + "".join(rng.choice("0123456789") for _ in range(length - 2)))
        out.add("+44" + "".join(rng.choice("0123456789") for _ in range(length - 3)))
    return sorted(out)


def main():
    check_version()
    rows = [oracle_row(t) for t in inputs()]
    header = ["input", "error", "e164", "possible", "valid", "type", "region"]
    write_tsv(os.path.join(FIXTURES_DIR, "e164.tsv"), header, rows, "gen_e164_fixture.py")
    ex = example_rows()
    write_tsv(os.path.join(FIXTURES_DIR, "examples.tsv"), ["region", "type", "e164"], ex,
              "gen_e164_fixture.py")
    print("e164.tsv: %d rows; examples.tsv: %d rows" % (len(rows), len(ex)))


if __name__ == "__main__":
    main()
