#!/usr/bin/env python3
"""Writes the isNumberMatch fixture: the oracle's phonenumbers.is_number_match answers.

Tests/PhoneNumbersTests/Fixtures/match.tsv, columns  kind first second match
where `kind` says what the two sides are: `nn` two numbers, `ns` a number and a text, `ss` two
texts. A number is written `cc:nsn` with its national significant number (leading zeros
included: "39:0612345678", "0:0123" for a number without calling code) and `;ext=digits` when it
has an extension. `match` is exact_match, nsn_match, short_nsn_match, no_match or not_a_number.

Inputs, for every region and non-geographic entity: its example numbers (every type that has
one), each as a number and written as E.164, in the international and national formats, as bare
national digits, from abroad through the region's IDD, without its first digits (a number kept
without its area code), with an extension (same, other), a digit changed, with another region's
calling code; and, across all of them, texts that are not numbers (letters, too short, too long,
unknown calling codes), Italian-style leading zeros and numbers without any calling code.

    pip install -r tools/requirements.txt
    python3 tools/oracle/gen_match_fixture.py
"""

import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle_common as oc  # noqa: E402

import phonenumbers  # noqa: E402
from phonenumbers import PhoneNumberFormat as F  # noqa: E402

MATCH_NAMES = {
    phonenumbers.MatchType.EXACT_MATCH: "exact_match",
    phonenumbers.MatchType.NSN_MATCH: "nsn_match",
    phonenumbers.MatchType.SHORT_NSN_MATCH: "short_nsn_match",
    phonenumbers.MatchType.NO_MATCH: "no_match",
    phonenumbers.MatchType.NOT_A_NUMBER: "not_a_number",
}


def write_number(n):
    text = "%d:%s" % (n.country_code, phonenumbers.national_significant_number(n))
    if n.extension:
        text += ";ext=" + n.extension
    return text


def core(n):
    """The fields the Swift number holds (the oracle's parse may set more)."""
    return oc.number(n.country_code, phonenumbers.national_significant_number(n), n.extension or None)


def examples(metadata):
    out = []
    for attr, _name in oc.DESC_TYPES:
        desc = getattr(metadata, attr, None)
        if desc is not None and desc.example_number:
            if desc.example_number not in out:
                out.append(desc.example_number)
    return out


def main():
    oc.check_version()
    rng = random.Random(27)
    rows = []
    seen = set()

    def add(kind, a, b):
        if kind == "nn":
            key = (kind, write_number(a), write_number(b))
            result = phonenumbers.is_number_match(a, b)
        elif kind == "ns":
            key = (kind, write_number(a), b)
            result = phonenumbers.is_number_match(a, b)
        else:
            key = (kind, a, b)
            result = phonenumbers.is_number_match(a, b)
        if key in seen:
            return
        seen.add(key)
        rows.append(list(key) + [MATCH_NAMES[result]])

    entities = oc.entities()
    codes = [m.country_code for _, m in entities]
    for index, (label, metadata) in enumerate(entities):
        cc = metadata.country_code
        region = label if not label.startswith("001") else None
        other_cc = codes[(index + 7) % len(codes)]
        if other_cc == cc:
            other_cc = 44 if cc != 44 else 49
        idd = metadata.preferred_international_prefix or metadata.international_prefix
        for nsn in examples(metadata)[:2]:
            n = oc.number(cc, nsn)
            e164 = phonenumbers.format_number(n, F.E164)
            intl = phonenumbers.format_number(n, F.INTERNATIONAL)
            national = phonenumbers.format_number(n, F.NATIONAL)
            texts = [e164, intl, national, nsn, nsn[3:], nsn[-6:], nsn[:-2],
                     e164 + " ext. 12", intl + " x 34", national + " ext 12", nsn + "#12",
                     "+%d %s" % (other_cc, nsn), "%d%s" % (cc, nsn),
                     nsn[:-1] + str((int(nsn[-1]) + 1) % 10), nsn + "1",
                     "tel:%s;ext=12" % e164, "Tel: " + intl + "!", "0" + nsn, "00" + nsn]
            if idd and idd.isdigit():
                texts.append("%s %d %s" % (idd, cc, nsn))
            texts += ["abc", "12", "", "+999 " + nsn, "+%d" % cc, "1-800-FLOWERS", nsn * 3,
                      "".join(chr(0x0660 + int(d)) for d in nsn)]
            # A number against texts.
            for t in texts:
                add("ns", n, t)
            n_ext = oc.number(cc, nsn, "12")
            for t in texts[:12]:
                add("ns", n_ext, t)
            # Two numbers.
            variants = [n, n_ext, oc.number(cc, nsn, "34"), oc.number(0, nsn), oc.number(0, nsn, "12"),
                        oc.number(cc, nsn[2:].lstrip("0") or "12"), oc.number(other_cc, nsn),
                        oc.number(cc, "0" + nsn.lstrip("0")), oc.number(cc, "00" + nsn.lstrip("0")),
                        oc.number(cc, nsn.lstrip("0") or "10")]
            for v in variants:
                add("nn", n, v)
                add("nn", v, n_ext)
            # Two texts, both orders for some.
            for a in (e164, national, intl + " ext. 12"):
                for t in texts:
                    add("ss", a, t)
            for t in texts[:10]:
                add("ss", t, e164)
            if region:
                # Parsed as a person of the region wrote it, against its own texts.
                parsed = core(phonenumbers.parse(national, region))
                for t in rng.sample(texts, 6):
                    add("ns", parsed, t)
    # Numbers without a calling code, unknown calling codes, Italian zeros.
    for a, b in [("39:0612345678", "39:612345678"), ("0:0612345678", "39:612345678"),
                 ("0:0612345678", "39:0612345678"), ("0:612345678", "39:0612345678"),
                 ("999:12345678", "999:12345678"), ("0:12345678", "0:345678"), ("0:12", "0:12"),
                 ("39:00612345", "39:0612345"), ("1:6502530000", "1:6502530000;ext=")]:
        def parse_number(s):
            cc, rest = s.split(":")
            nsn, _, ext = rest.partition(";ext=")
            return oc.number(int(cc), nsn, ext or None)
        add("nn", parse_number(a), parse_number(b))
        add("nn", parse_number(b), parse_number(a))
    for n in [oc.number(999, "12345678"), oc.number(0, "12345678"), oc.number(0, "0612345678"), oc.number(800, "12345678"),
              oc.number(979, "123456789")]:
        for t in ["12345678", "+99912345678", "345678", "0612345678", "612345678", "+800 1234 5678",
                  "1234 5678", "x", "+39 06 1234 5678", "(800) 1234-5678 ext. 5"]:
            add("ns", n, t)
    rows.sort()
    oc.write_tsv(os.path.join(oc.FIXTURES_DIR, "match.tsv"), ["kind", "first", "second", "match"], rows,
                 "gen_match_fixture.py")
    print("match.tsv: %d rows" % len(rows))


if __name__ == "__main__":
    main()
