"""Shared helpers for the oracle scripts under tools/oracle/.

The oracle is PyPI `phonenumbers`, pinned in tools/requirements.txt. Every script that
writes a fixture imports this module, checks the pinned version, and uses the same
enum names, the same metadata walk and the same random generator for strings that
match the metadata's regular expressions.

Nothing here is used at build or test time: the outputs are committed.
"""

import os
import random
import re
import sys
import warnings

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    try:
        import re._parser as sre_parse  # Python 3.11+
        import re._constants as sre_constants
    except ImportError:  # pragma: no cover - older Pythons
        import sre_parse
        import sre_constants

import phonenumbers
from phonenumbers import PhoneMetadata, PhoneNumberFormat, PhoneNumberType, ValidationResult
from phonenumbers import NumberParseException

PINNED_VERSION = "9.0.43"

REPO_ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
FIXTURES_DIR = os.path.join(REPO_ROOT, "Tests", "PhoneNumbersTests", "Fixtures")


def check_version():
    """Refuses to run against any other `phonenumbers` than the pinned one."""
    if phonenumbers.__version__ != PINNED_VERSION:
        sys.exit(
            "phonenumbers %s is installed, the oracle is pinned to %s: "
            "pip install -r tools/requirements.txt" % (phonenumbers.__version__, PINNED_VERSION)
        )


# --- enum names (snake case, the names the Swift engine and the CLI use) ---------------

PARSE_ERROR_NAMES = {
    NumberParseException.INVALID_COUNTRY_CODE: "invalid_country_code",
    NumberParseException.NOT_A_NUMBER: "not_a_number",
    NumberParseException.TOO_SHORT_AFTER_IDD: "too_short_after_idd",
    NumberParseException.TOO_SHORT_NSN: "too_short_nsn",
    NumberParseException.TOO_LONG: "too_long",
}

POSSIBILITY_NAMES = {
    ValidationResult.IS_POSSIBLE: "is_possible",
    ValidationResult.IS_POSSIBLE_LOCAL_ONLY: "is_possible_local_only",
    ValidationResult.INVALID_COUNTRY_CODE: "invalid_country_code",
    ValidationResult.TOO_SHORT: "too_short",
    ValidationResult.INVALID_LENGTH: "invalid_length",
    ValidationResult.TOO_LONG: "too_long",
}

TYPE_NAMES = {
    PhoneNumberType.FIXED_LINE: "fixed_line",
    PhoneNumberType.MOBILE: "mobile",
    PhoneNumberType.FIXED_LINE_OR_MOBILE: "fixed_line_or_mobile",
    PhoneNumberType.TOLL_FREE: "toll_free",
    PhoneNumberType.PREMIUM_RATE: "premium_rate",
    PhoneNumberType.SHARED_COST: "shared_cost",
    PhoneNumberType.VOIP: "voip",
    PhoneNumberType.PERSONAL_NUMBER: "personal_number",
    PhoneNumberType.PAGER: "pager",
    PhoneNumberType.UAN: "uan",
    PhoneNumberType.VOICEMAIL: "voicemail",
    PhoneNumberType.UNKNOWN: "unknown",
}

# The PhoneNumberDesc attributes of a metadata record that carry a number type, in
# libphonenumber's order, with the snake-case type name.
DESC_TYPES = [
    ("fixed_line", "fixed_line"),
    ("mobile", "mobile"),
    ("toll_free", "toll_free"),
    ("premium_rate", "premium_rate"),
    ("shared_cost", "shared_cost"),
    ("personal_number", "personal_number"),
    ("voip", "voip"),
    ("pager", "pager"),
    ("uan", "uan"),
    ("voicemail", "voicemail"),
]

NON_GEO_CODES = sorted(phonenumbers.COUNTRY_CODES_FOR_NON_GEO_REGIONS)


def entities():
    """Every region (sorted) then every non-geographic entity, as (label, metadata).

    The label is the region code, or "001/<cc>" for a non-geographic entity.
    """
    out = []
    for region in sorted(phonenumbers.SUPPORTED_REGIONS):
        out.append((region, PhoneMetadata.metadata_for_region(region)))
    for cc in NON_GEO_CODES:
        out.append(("001/%d" % cc, PhoneMetadata.metadata_for_nongeo_region(cc)))
    return out


def assigned_country_codes():
    return sorted(phonenumbers.COUNTRY_CODE_TO_REGION_CODE.keys())


def unassigned_country_codes():
    """Every 3-digit code with no metadata that has no assigned code as its prefix, so that
    '+999...' really has no country code whatever digits follow."""
    assigned = {str(c) for c in assigned_country_codes()}
    out = []
    for n in range(100, 1000):
        s = str(n)
        if s in assigned:
            continue
        if any(s.startswith(a) for a in assigned):
            continue
        out.append(s)
    return out


# --- oracle calls -----------------------------------------------------------------------

def number(cc, nsn, ext=None):
    """The PhoneNumber with calling code `cc` and national significant number `nsn` (a string,
    leading zeros included: "0612345678" sets italian_leading_zero and one leading zero; "000" is
    the national number 0 after two leading zeros), and extension `ext` when given."""
    zeros = len(nsn) - len(nsn.lstrip("0"))
    if zeros == len(nsn):
        zeros -= 1
    n = phonenumbers.PhoneNumber(country_code=cc, national_number=int(nsn))
    if zeros:
        n.italian_leading_zero = True
        n.number_of_leading_zeros = zeros
    if ext:
        n.extension = ext
    assert phonenumbers.national_significant_number(n) == nsn, (cc, nsn, n)
    return n


def snake_possible(numobj):
    return POSSIBILITY_NAMES[phonenumbers.is_possible_number_with_reason(numobj)]


def snake_type(numobj):
    return TYPE_NAMES[phonenumbers.number_type(numobj)]


def region_of(numobj):
    r = phonenumbers.region_code_for_number(numobj)
    return r if r is not None else ""


def parse_or_error(text, region):
    """Returns (numobj, None) or (None, error_name)."""
    try:
        return phonenumbers.parse(text, region), None
    except NumberParseException as e:
        return None, PARSE_ERROR_NAMES[e.error_type]


# --- TSV ------------------------------------------------------------------------------

def tsv_escape(field):
    return (field.replace("\\", "\\\\").replace("\t", "\\t")
            .replace("\n", "\\n").replace("\r", "\\r"))


def write_tsv(path, header, rows, generator_name, extra_comment=None):
    """Writes a header line and rows (already strings); fields are escaped.

    No comment lines are written into the data file (the header is the first line);
    provenance goes into Fixtures/README.md instead.
    """
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("\t".join(header) + "\n")
        for row in rows:
            f.write("\t".join(tsv_escape(x) for x in row) + "\n")


# --- random strings that match a metadata regular expression ------------------------------

_DIGITS = "0123456789"


class PatternGenerator(object):
    """Generates random strings that fully match a regular expression of the subset the
    metadata uses: literals, character classes over digits, \\d, groups, alternation and
    bounded repeats. Parsed once per pattern with Python's own regex parser (sre_parse)."""

    def __init__(self, rng):
        self.rng = rng
        self._cache = {}

    def _parsed(self, pattern):
        p = self._cache.get(pattern)
        if p is None:
            p = sre_parse.parse(pattern)
            self._cache[pattern] = p
        return p

    def generate(self, pattern):
        out = []
        self._emit(self._parsed(pattern), out)
        return "".join(out)

    def _emit(self, seq, out):
        c = sre_constants
        rng = self.rng
        for op, av in seq:
            if op is c.LITERAL:
                out.append(chr(av))
            elif op is c.IN:
                out.append(self._pick_from_class(av))
            elif op is c.CATEGORY:
                if av is c.CATEGORY_DIGIT:
                    out.append(rng.choice(_DIGITS))
                else:
                    raise ValueError("unsupported category %r" % (av,))
            elif op is c.SUBPATTERN:
                self._emit(av[-1], out)
            elif op is c.BRANCH:
                self._emit(rng.choice(av[1]), out)
            elif op in (c.MAX_REPEAT, c.MIN_REPEAT) or op is getattr(c, "POSSESSIVE_REPEAT", None):
                lo, hi, sub = av
                if hi is c.MAXREPEAT or hi > lo + 4:
                    hi = lo + 4
                for _ in range(rng.randint(lo, hi)):
                    self._emit(sub, out)
            elif op is c.AT:
                pass
            elif op is c.ANY:
                out.append(rng.choice(_DIGITS))
            elif op is c.NOT_LITERAL:
                out.append(rng.choice([d for d in _DIGITS if ord(d) != av]))
            else:
                raise ValueError("unsupported regex op %r" % (op,))

    def _pick_from_class(self, items):
        c = sre_constants
        allowed = set()
        negate = False
        for op, av in items:
            if op is c.NEGATE:
                negate = True
            elif op is c.LITERAL:
                allowed.add(chr(av))
            elif op is c.RANGE:
                for x in range(av[0], av[1] + 1):
                    allowed.add(chr(x))
            elif op is c.CATEGORY and av is c.CATEGORY_DIGIT:
                allowed.update(_DIGITS)
            else:
                raise ValueError("unsupported class item %r" % ((op, av),))
        if negate:
            allowed = set(_DIGITS) - allowed
        choices = sorted(allowed)
        return self.rng.choice(choices)


def lengths_of(desc, general):
    """Possible lengths (national and local-only) for a desc, inheriting general_desc's."""
    pl = tuple(desc.possible_length or ())
    if not pl or pl == (-1,):
        pl = tuple(general.possible_length or ())
    local = tuple(desc.possible_length_local_only or ())
    return pl, local


def generate_matches(gen, desc, general, count, attempts_per=6):
    """Up to `count` distinct national numbers that fully match desc's pattern and have one
    of its possible lengths. Deterministic for a given generator state."""
    pattern = desc.national_number_pattern
    if not pattern:
        return []
    rx = re.compile("(?:%s)\\Z" % pattern)
    pl, local = lengths_of(desc, general)
    ok_lengths = set(pl) | set(local)
    out = []
    seen = set()
    for _ in range(count * attempts_per):
        s = gen.generate(pattern)
        if s in seen or not rx.match(s):
            continue
        if ok_lengths and len(s) not in ok_lengths:
            continue
        seen.add(s)
        out.append(s)
        if len(out) >= count:
            break
    return out


def valid_national_numbers(rng, gen, metadata, per_type):
    """(type_name, nsn) pairs for one metadata record: its example numbers and numbers
    generated from each type's pattern, kept only when the oracle says they are valid."""
    out = []
    cc = metadata.country_code
    for attr, tname in DESC_TYPES:
        desc = getattr(metadata, attr)
        if desc is None or not desc.national_number_pattern:
            continue
        cands = []
        if desc.example_number:
            cands.append(desc.example_number)
        cands.extend(generate_matches(gen, desc, metadata.general_desc, per_type))
        for nsn in cands:
            try:
                n = phonenumbers.parse("+%d%s" % (cc, nsn), None)
            except NumberParseException:
                continue
            if phonenumbers.is_valid_number(n):
                out.append((tname, nsn))
    return out
