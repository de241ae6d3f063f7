"""Shared by gen_timezone_fixture.py and gen_carrier_fixture.py: numbers built from the data's
E.164 prefixes, from every region's example and pattern-generated numbers, and near misses.

Numbers are PhoneNumber objects made from their parts (country code, national number, leading
zeros), which is also how the Swift tests make them, so the fixtures test the mappers and not
the parser. Everything is deterministic for a given seed.
"""

import os
import random

import phonenumbers
from phonenumbers import PhoneMetadata, PhoneNumber

import oracle_common as oc

EXTRAS_FIXTURES_DIR = os.path.join(oc.REPO_ROOT, "Tests", "PhoneNumberExtrasTests", "Fixtures")

_CODES = sorted((str(c) for c in phonenumbers.COUNTRY_CODE_TO_REGION_CODE), key=len)


def number_from_digits(cc, nsn):
    """A PhoneNumber with calling code `cc` and national significant number `nsn` (a string of
    digits, leading zeros kept as libphonenumber keeps Italian leading zeros)."""
    zeros = len(nsn) - len(nsn.lstrip("0"))
    if zeros == len(nsn):  # all zeros: the national number 0 after zeros - 1 leading zeros
        zeros -= 1
    n = PhoneNumber(country_code=cc, national_number=int(nsn) if nsn else 0)
    if zeros > 0:
        n.italian_leading_zero = True
        n.number_of_leading_zeros = zeros
    return n


def parts(numobj):
    """(country_code, national_number, leading_zeros) as strings, for the fixture's columns."""
    zeros = 0
    if numobj.italian_leading_zero:
        zeros = numobj.number_of_leading_zeros if numobj.number_of_leading_zeros is not None else 1
    return str(numobj.country_code), str(numobj.national_number), str(zeros)


def split_prefix(prefix):
    """(calling code, national digits) of an E.164 prefix; the code is None when the prefix is
    shorter than any code it could start."""
    for code in _CODES:
        if prefix.startswith(code):
            return int(code), prefix[len(code):]
    return None, prefix


def possible_lengths(cc):
    lengths = set()
    for region in phonenumbers.COUNTRY_CODE_TO_REGION_CODE.get(cc, ()):
        metadata = (PhoneMetadata.metadata_for_nongeo_region(cc) if region == "001"
                    else PhoneMetadata.metadata_for_region(region))
        if metadata is not None:
            lengths.update(l for l in metadata.general_desc.possible_length or () if l > 0)
    return sorted(lengths) or [10]


def complete(rng, cc, national_prefix, want, attempts=16):
    """A number whose E.164 digits start with cc + national_prefix, at one of the calling code's
    possible lengths: the first random completion `want(numobj)` accepts, else the last tried."""
    lengths = [l for l in possible_lengths(cc) if l >= len(national_prefix)] or [len(national_prefix) + 1]
    last = None
    for k in range(attempts):
        length = lengths[k % len(lengths)]
        nsn = national_prefix + "".join(rng.choice("0123456789") for _ in range(length - len(national_prefix)))
        last = number_from_digits(cc, nsn)
        if want(last):
            return last
    return last


def region_numbers(seed, per_type):
    """(label, type name, PhoneNumber) for the example and pattern-generated valid numbers of
    every region and non-geographic entity, every type."""
    rng = random.Random(seed)
    gen = oc.PatternGenerator(rng)
    out = []
    for label, metadata in oc.entities():
        for tname, nsn in oc.valid_national_numbers(rng, gen, metadata, per_type):
            out.append((label, tname, number_from_digits(metadata.country_code, nsn)))
    return out


def near_misses(rng, numobj):
    """Invalid neighbours of a number: one digit more and one digit fewer."""
    cc, nn, zeros = numobj.country_code, str(numobj.national_number), 0
    if numobj.italian_leading_zero:
        zeros = numobj.number_of_leading_zeros or 1
    nsn = "0" * zeros + nn
    out = [number_from_digits(cc, nsn + rng.choice("0123456789"))]
    if len(nsn) > 1:
        out.append(number_from_digits(cc, nsn[:-1]))
    return out
