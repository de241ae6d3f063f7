#!/usr/bin/env python3
"""Writes the parse-and-format oracle fixture for the PhoneNumbers tests.

    python3 tools/oracle/gen_parse_fixture.py

Outputs (deterministic: fixed seed, sorted rows):
  Tests/PhoneNumbersTests/Fixtures/parse.tsv
      input region error e164 possible valid type number_region international national
      rfc3966 extension
      `region` is the default region passed to parse ("ZZ" for none). Fields are escaped:
      backslash -> \\\\, tab -> \\t, newline -> \\n, carriage return -> \\r. When `error` is
      set, the later columns are empty.
  Tests/PhoneNumbersTests/Fixtures/digits.tsv
      codepoint digit
      Every character the oracle's parser treats as a decimal digit (Python's `\\d`, i.e.
      Unicode general category Nd in the Unicode version of the Python that ran this script),
      as hex code point and value.

Inputs, for every region (and the non-geographic entities where they apply), from valid
numbers of the region (example numbers and numbers generated from its type patterns):
E.164; international format with varied punctuation (Unicode spaces and dashes, dots,
slashes, parentheses, brackets); national format with the region; national without the
trunk prefix; the national form after "+CC"; the IDD prefixes of a dialling region (pattern
and preferred prefix); the country code without "+"; full-width plus and digits;
extensions in every form the parser knows and of every length; tel: URIs with
;phone-context= (global and domain), ;isub= and ;ext=; digits of every Unicode Nd block;
vanity letters; leading and trailing garbage; the number with another default region;
input that a national prefix transform rule rewrites, or only strips (transform_forms); and
invalid forms (too short, too long, bad country codes, letters, empty, only punctuation,
national input with ZZ, IDD with too few digits, 250/251/300-character inputs).
"""

import os
import random
import sys
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import phonenumbers  # noqa: E402
from phonenumbers import PhoneMetadata, PhoneNumberFormat  # noqa: E402

from oracle_common import (  # noqa: E402
    FIXTURES_DIR, NON_GEO_CODES, PatternGenerator, check_version, parse_or_error,
    region_of, snake_possible, snake_type, unassigned_country_codes,
    valid_national_numbers, write_tsv,
)

SEED = 3_2026_05_21
NUMBERS_PER_REGION = 24   # valid numbers drawn (with repetition when a region has few)
NON_GEO_NUMBERS = 20

# --- character pools ------------------------------------------------------------------

SEPARATORS = [" ", " ", " ", "-", "-", ".", "/", "\u00a0", "\u2010", "\u2011", "\u2012",
              "\u2013", "\u2014", "\u2015", "\u2212", "\u30fc", "\uff0d", "\uff0e", "\uff0f",
              "\u3000", "\u2060", "\u200b", "\u00ad", "  ", " - ", " / ", "~", "\u2053",
              "\u223c", "\uff5e", "\t", "\u2009", "\u202f", "\u2002", ""]

PARENS = [("(", ")"), ("[", "]"), ("\uff08", "\uff09"), ("\uff3b", "\uff3d")]

EXT_LABELS = [" ext. ", " ext ", " ext.", " ext:", " Ext. ", " EXT ", " ext: ", " extn ",
              " extn. ", " extension ", " Extension: ", " EXTENSION ", " x ", " x", "x", " X ",
              " x.", " #", "#", ";ext=", " ;ext=", ",, ", ",,", ", ", ",", ";", " ; ",
              " anexo ", " Anexo: ", " \u0434\u043e\u0431 ", " \u0434\u043e\u0431. ",
              " \u0414\u041e\u0411 ", " int ", " int. ", " INT ", " ~", " ~ ", " \uff5e",
              " \uff58", " \uff45\uff58\uff54", " \uff45\uff58\uff54\uff4e ", " \uff58\uff54 ",
              " \uff49\uff4e\uff54 ", " \uff03", " extensi\u00f3n ", " extensio\u0301n ",
              " ext-", "\u00a0ext.\u00a0", "\text\t", " ext\uff0e", " xt ", " xtn ", " e ",
              " - ", " -", " ext #", " ext. #"]

GARBAGE_PREFIXES = ["Tel: ", "tel ", "Phone:", "call ", "(", "[", "abc ", "#", "*", "**",
                    "--", "..", "mobile: ", "\u260e ", "\U0001f4de ", "\u200e", "\"", "'",
                    "<", "Tel.:\u00a0", "\u0647\u0627\u062a\u0641: ", "\u0924\u0947\u0932: ",
                    "No. ", "_", "\ufeff", " \t ", "x", "ph ", "=", "%"]
GARBAGE_SUFFIXES = [" ", ".", ")", "!", " now", " (mobile)", "#", "*", "\n", "\t", " x",
                    "/", "\u200f", " \U0001f600", ",", ";", "\"", " ..", " tel", "-", "_",
                    " \u0928\u092e\u0938\u094d\u0924\u0947", "\r\n", "?", ">", "]", " abc",
                    "\u3002", "\ufeff", "+"]

LETTERS_FOR_DIGIT = {"2": "ABC", "3": "DEF", "4": "GHI", "5": "JKL", "6": "MNO",
                     "7": "PQRS", "8": "TUV", "9": "WXYZ"}

FAVOURED_ZEROS = [0x660, 0x6F0, 0x966, 0x9E6, 0xFF10]


def nd_zeros():
    return [c for c in range(0x110000)
            if unicodedata.category(chr(c)) == "Nd" and unicodedata.digit(chr(c)) == 0]


NON_ND_DIGITS = ["\u00b2", "\u00b3", "\u00b9", "\u2070", "\u2074", "\u2080", "\u2081",
                 "\u2460", "\u2461", "\u2776", "\u1369", "\u19da"]


class Maker(object):
    def __init__(self, rng, gen):
        self.rng = rng
        self.gen = gen
        self.zeros = nd_zeros()
        self.regions = sorted(phonenumbers.SUPPORTED_REGIONS)
        self.out = set()

    def add(self, text, region):
        self.out.add((text, region))

    # -- small transforms --------------------------------------------------------------

    def digits(self, n):
        return "".join(self.rng.choice("0123456789") for _ in range(n))

    def respace(self, formatted):
        """Replace the separators of a formatted number, and sometimes bracket a group."""
        rng = self.rng
        mode = rng.random()
        if mode < 0.5:
            sep = rng.choice(SEPARATORS)
            seps = None
        else:
            sep = None
            seps = True
        out = []
        for ch in formatted:
            if ch in " -":
                out.append(rng.choice(SEPARATORS) if seps else sep)
            else:
                out.append(ch)
        s = "".join(out)
        if rng.random() < 0.2:
            # Bracket the first group after the country code or at the start.
            parts = s.split(" ")
            if len(parts) > 2:
                i = 1 if parts[0].startswith("+") else 0
                o, c = rng.choice(PARENS)
                parts[i] = o + parts[i] + c
                s = " ".join(parts)
        return s

    def group_digits(self, digits):
        """Split a digit string into random groups with random separators."""
        rng = self.rng
        out = []
        i = 0
        while i < len(digits):
            k = rng.randint(1, 4)
            out.append(digits[i:i + k])
            i += k
        sep = rng.choice(SEPARATORS)
        return sep.join(out)

    def translit(self, text, mixed=False):
        rng = self.rng
        zero = rng.choice(FAVOURED_ZEROS) if rng.random() < 0.6 else rng.choice(self.zeros)
        out = []
        for ch in text:
            if "0" <= ch <= "9" and (not mixed or rng.random() < 0.5):
                out.append(chr(zero + ord(ch) - 48))
            else:
                out.append(ch)
        return "".join(out)

    def idd_for(self, region):
        md = PhoneMetadata.metadata_for_region(region)
        choices = []
        if md.international_prefix:
            choices.append(self.gen.generate(md.international_prefix))
        if md.preferred_international_prefix:
            choices.append(md.preferred_international_prefix)
        return self.rng.choice(choices) if choices else None

    def other_region(self, not_region):
        r = self.rng.choice(self.regions)
        return r if r != not_region else self.rng.choice(self.regions)

    def ext_suffix(self):
        rng = self.rng
        label = rng.choice(EXT_LABELS)
        n = rng.choice([1, 2, 3, 4, 4, 5, 6, 6, 7, 9, 10, 12, 15, 16, 20, 21, 25])
        d = self.digits(n)
        tail = rng.choice(["", "", "", "#", " ", "/x12", " / x 99"])
        return label + d + tail

    def vanity(self, nsn):
        rng = self.rng
        k = rng.randint(3, min(8, len(nsn)))
        head, tail = nsn[:-k], nsn[-k:]
        letters = []
        for ch in tail:
            pool = LETTERS_FOR_DIGIT.get(ch)
            letters.append(rng.choice(pool) if pool else ch)
        word = "".join(letters)
        if rng.random() < 0.3:
            word = word.lower()
        return head, word

    # -- per number ----------------------------------------------------------------------

    def number_forms(self, region, cc, nsn):
        """Every form of one valid number of `region` (None for a non-geo entity)."""
        rng = self.rng
        num = phonenumbers.parse("+%d%s" % (cc, nsn), None)
        e164 = "+%d%s" % (cc, nsn)
        intl = phonenumbers.format_number(num, PhoneNumberFormat.INTERNATIONAL)
        natl = phonenumbers.format_number(num, PhoneNumberFormat.NATIONAL)
        natl_digits = phonenumbers.normalize_digits_only(natl)
        home = region or "ZZ"
        other = self.other_region(region)
        add = self.add

        # E.164, with no region, the home region and another one.
        add(e164, rng.choice(["ZZ", home, other]))
        # International format, decorated.
        add(self.respace(intl), rng.choice(["ZZ", "ZZ", home, other]))
        add(intl, "ZZ")
        # "+CC" then the national format (trunk prefix kept), e.g. "+44 (0)20 ..." or "+44 020 ...".
        if region and natl_digits != nsn:
            trunk = natl_digits[:len(natl_digits) - len(nsn)] if natl_digits.endswith(nsn) else ""
            if trunk and rng.random() < 0.5:
                add("+%d (%s) %s" % (cc, trunk, self.respace(natl[len(trunk):].strip())), rng.choice(["ZZ", home]))
            else:
                add("+%d %s" % (cc, self.respace(natl)), rng.choice(["ZZ", home]))
        # National format, plain and decorated, with the home region; national digits only.
        if region:
            add(natl, home)
            add(self.respace(natl), home)
            add(nsn, home)
            add(self.group_digits(nsn), home)
            # National number with a neighbour on the same country code, or any other region.
            siblings = phonenumbers.region_codes_for_country_code(cc)
            add(self.respace(natl), rng.choice(siblings) if len(siblings) > 1 and rng.random() < 0.5 else other)
            add(nsn, other)
            # Without the default region.
            if rng.random() < 0.3:
                add(natl, "ZZ")
        # IDD of a dialling region.
        dialler = rng.choice([other, other, home if region else other])
        idd = self.idd_for(dialler)
        if idd is not None:
            sep = rng.choice(["", " ", " ", "-", "\u00a0", " (", ") "])
            add(idd + sep + str(cc) + rng.choice(["", " ", "-"]) + self.group_digits(nsn), dialler)
            if rng.random() < 0.3:
                add(idd + str(cc) + natl_digits, dialler)
        # Country code without "+".
        cc_region = home if region else other
        add(str(cc) + rng.choice(["", " ", "-", " "]) + nsn, cc_region if rng.random() < 0.7 else other)
        if region and rng.random() < 0.4:
            add(str(cc) + " " + natl, home)
        # Full-width plus and digits.
        fw = "\uff0b" + self.translit("%d %s" % (cc, nsn)) if rng.random() < 0.5 else "\uff0b" + e164[1:]
        if rng.random() < 0.5:
            fw = "\uff0b" + "".join(chr(0xFF10 + ord(c) - 48) if c.isdigit() else c for c in intl[1:])
        add(fw, rng.choice(["ZZ", home]))
        # Extensions on each base form.
        base = rng.choice([e164, intl, self.respace(intl)] + ([natl, self.respace(natl)] if region else []))
        add(base + self.ext_suffix(), home if region and not base.startswith("+") else rng.choice(["ZZ", home]))
        add(rng.choice([e164, intl]) + self.ext_suffix(), rng.choice(["ZZ", home]))
        # tel: URIs.
        add(self.tel_uri(cc, nsn, natl, region), home if region else "ZZ")
        if rng.random() < 0.5:
            add(self.tel_uri(cc, nsn, natl, region), rng.choice(["ZZ", home, other]))
        # Other Unicode digits.
        add(self.translit(rng.choice([e164, intl, self.respace(intl)])), rng.choice(["ZZ", home]))
        if region:
            add(self.translit(rng.choice([natl, nsn, self.respace(natl)]), mixed=rng.random() < 0.2), home)
        # Vanity letters.
        if region and len(nsn) >= 5:
            head, word = self.vanity(natl_digits)
            add(self.group_digits(head) + rng.choice(["-", " ", ""]) + word, home)
            h2, w2 = self.vanity(nsn)
            add("+%d %s %s" % (cc, h2, w2), "ZZ")
        # Leading and trailing garbage.
        g = rng.choice([e164, intl, natl if region else intl, self.respace(intl)])
        add(rng.choice(GARBAGE_PREFIXES) + g + rng.choice(GARBAGE_SUFFIXES), home if region else "ZZ")
        add(g + rng.choice(GARBAGE_SUFFIXES), rng.choice(["ZZ", home]))
        add(rng.choice(GARBAGE_PREFIXES) + g, rng.choice(["ZZ", home]))
        # Near misses: one digit more or less, in E.164 and national form.
        add(e164 + rng.choice("0123456789"), rng.choice(["ZZ", home]))
        add(e164[:-1], rng.choice(["ZZ", home]))
        if region:
            add(natl_digits + rng.choice("0123456789"), home)
            add(natl_digits[:-1], home)
            add(self.respace(natl) + self.digits(rng.randint(3, 12)), home)

    def tel_uri(self, cc, nsn, natl, region):
        rng = self.rng
        kind = rng.randrange(9)
        g = self.group_digits(nsn).replace(" ", "-")
        if kind == 0 or not region:
            s = "tel:+%d-%s" % (cc, g)
        elif kind == 1:
            s = "tel:%s;phone-context=+%d" % (nsn, cc)
        elif kind == 2:
            s = "tel:%s;phone-context=+%d-%s" % (nsn[-4:], cc, nsn[:-4]) if len(nsn) > 6 else "tel:%s;phone-context=+%d" % (nsn, cc)
        elif kind == 3:
            s = "tel:%s;phone-context=%s" % (
                phonenumbers.normalize_digits_only(natl),
                rng.choice(["example.com", "ims.mnc001.mcc001.3gppnetwork.org", "a-b.example.", "x"]))
        elif kind == 4:
            s = "tel:%s;phone-context=%s" % (nsn, rng.choice(["", "+", "+-", "abc-", "-example.com", "1234", "+1a", ".com", "exa mple.com"]))
        elif kind == 5:
            s = "tel:+%d%s;isub=%s" % (cc, nsn, self.digits(rng.randint(1, 8)))
        elif kind == 6:
            s = "tel:+%d-%s;ext=%s" % (cc, g, self.digits(rng.randint(1, 22)))
        elif kind == 7:
            s = "%s;phone-context=+%d" % (nsn, cc)
        else:
            s = "tel:%s;isub=%s;phone-context=+%d" % (nsn, self.digits(4), cc)
        if rng.random() < 0.1:
            s = s.replace("tel:", rng.choice(["TEL:", "Tel:", "tel:/", "tel: "]), 1)
        if rng.random() < 0.1:
            s += rng.choice([";ext=12", ";isub=1", ";foo=bar", ";phone-context=+1", ";ext="])
        return s

    # -- per region invalid forms ------------------------------------------------------

    def invalid_forms(self, region, cc):
        rng = self.rng
        add = self.add
        other = self.other_region(region)
        for n in (1, 2, 3):
            add(self.digits(n), region)
            add("+%d%s" % (cc, self.digits(n - 1)), rng.choice(["ZZ", region]))
        for n in (18, 19, 22, 30):
            add(self.digits(n), region)
            add("+%d %s" % (cc, self.digits(n)), "ZZ")
        letters = "".join(rng.choice("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(rng.randint(1, 12)))
        add(letters, region)
        add(letters[:2] + self.digits(2), region)
        add(rng.choice(["", " ", "-", "()", "+", "++", "...", "\u00a0", "/ /", "-()-", "\u3000", "#", "*", "x", "ext. 12", ";ext=1"]), region)
        add(self.group_digits(self.digits(rng.randint(6, 11))), "ZZ")
        code = rng.choice(unassigned_country_codes())
        add("+%s %s" % (code, self.group_digits(self.digits(rng.randint(6, 10)))), rng.choice(["ZZ", region]))
        idd = self.idd_for(region)
        if idd:
            add("%s %s %s" % (idd, code, self.digits(8)), region)
            add("%s%s" % (idd, self.digits(rng.randint(0, 2))), region)
            add("%s %d" % (idd, cc), region)
        add("+0" + self.digits(rng.randint(5, 10)), rng.choice(["ZZ", region]))
        add("++%d %s" % (cc, self.digits(8)), rng.choice(["ZZ", region]))
        add("+ %d %s" % (cc, self.digits(8)), rng.choice(["ZZ", region]))
        add("*%s#" % self.digits(rng.randint(2, 5)), region)
        add("%s%s%s" % (self.digits(3), rng.choice(NON_ND_DIGITS), self.digits(5)), region)
        add(self.digits(5) + "\x01" + self.digits(4), region)
        if rng.random() < 0.1:
            n = rng.choice([249, 250, 251, 252, 300])
            add(("+%d" % cc + self.digits(n))[:n], rng.choice(["ZZ", region]))
            pad = " " * (n - 12)
            add(pad + "+%d%s" % (cc, self.digits(9)), region)
        if rng.random() < 0.05:
            add(rng.choice(["x", "ab", "-", "\u00e9"]) * rng.choice([100, 260, 300]), region)
        add("%s-%s-%s" % (self.digits(3), rng.choice(["ABC", "abcd", "XYZ", "q"]), self.digits(4)), other)


FIXED_INPUTS = [
    ("1-800-FLOWERS", "US"), ("1-800-flowers", "US"), ("1 800 GOT-JUNK", "US"),
    ("1-800-MICROSOFT", "US"), ("+1 800 FLOWERS", "ZZ"), ("0800 REVERSE", "GB"),
    ("1300 FLOWERS", "AU"), ("(650) 253-0000", "US"), ("020 7946 0000", "GB"),
    ("00 49 30 1234567", "FR"), ("+90 (542) 145 60 13", "ZZ"),
    ("\u096f\u0966\u0966-\u0967\u0968\u0967\u0967\u0969\u096c\u096b", "IN"),
    ("0888 966 7622 ext. 8577", "US"), ("tel:+1-201-555-0123;ext=1234", "ZZ"),
    ("(530) 583-6985 x302/x2303", "US"), ("+44 (0) 20 7946 0000", "ZZ"),
    ("+39 06 6988 0000", "ZZ"), ("06 6988 0000", "IT"), ("+39 0 6988 0000", "ZZ"),
    ("+54 9 11 1234 5678", "ZZ"), ("011 15 1234 5678", "AR"), ("0343 15 555 1212", "AR"),
    ("+52 1 55 1234 5678", "ZZ"), ("044 55 1234 5678", "MX"), ("0 21 11 1234 5678", "BR"),
    ("(11) 91234-5678", "BR"), ("8 800 555 35 35", "RU"), ("8~10 1 650 253 0000", "RU"),
    ("810 1 650 253 0000", "RU"), ("0011 1 650 253 0000", "AU"), ("+7 701 123 4567", "ZZ"),
    ("+44 7911 123456", "ZZ"), ("07911 123456", "JE"), ("+262 269 12 34 56", "ZZ"),
    ("+590 590 12 34 56", "ZZ"), ("+599 9 123 4567", "ZZ"), ("+47 79 12 34 56", "ZZ"),
    ("+61 8 9162 1234", "ZZ"), ("+800 1234 5678", "ZZ"), ("+979 1 2345 6789", "ZZ"),
    ("", "ZZ"), ("", "US"), ("+", "ZZ"), ("0", "US"), ("00", "US"), ("011", "US"),
    ("12", "US"), ("123", "US"), ("ZZ 123", "ZZ"), ("650 253 0000", "ZZ"),
    ("+1 650 253 0000", "ZZ"), ("1 650 253 0000", "US"), ("1 650 253 0000", "ZZ"),
    ("+1 650 253 0000\u00a0ext.\u00a01234", "ZZ"), ("+1 650 253 0000 #1234", "ZZ"),
    ("+1 650 253 0000;ext=1234", "ZZ"), ("+1 650 253 0000,,1234", "ZZ"),
    ("+1 650 253 0000 - 503#", "ZZ"), ("+1 650 253 0000 \u0434\u043e\u0431 123", "ZZ"),
    ("\uff0b\uff11 \uff16\uff15\uff10 \uff12\uff15\uff13 \uff10\uff10\uff10\uff10", "ZZ"),
    ("\u0660\u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669", "EG"),
    ("\u06f0\u06f9\u06f1\u06f2 \u06f3\u06f4\u06f5 \u06f6\u06f7\u06f8\u06f9", "IR"),
    ("\u09e6\u09e7\u09ed\u09e7\u09e8-\u09e9\u09ea\u09eb\u09ec\u09ed\u09ee", "BD"),
    ("tel:0201234567;phone-context=+44", "ZZ"), ("tel:253-0000;phone-context=+1-650", "ZZ"),
    ("tel:253-0000;phone-context=www.google.com", "US"), ("tel:+1-650-253-0000;isub=123", "ZZ"),
    ("tel:;phone-context=+1", "ZZ"), ("tel:+", "ZZ"), ("tel:", "ZZ"),
    ("+1 (650) 253-0000 x", "ZZ"), ("+1 650 253 0000 ext", "ZZ"), ("++1 650 253 0000", "ZZ"),
    ("+-1 650 253 0000", "ZZ"), ("+1+650 253 0000", "ZZ"), ("+1 650 253 0000+", "ZZ"),
    ("+49 (0)30 1234 5678", "ZZ"), ("0049 30 1234 5678", "DE"), ("+49 030 1234 5678", "ZZ"),
    ("+1 212-555-0123", "ZZ"), ("+1 650-555-3434", "ZZ"), ("07700 900123", "GB"),
    ("0491 570 156", "AU"), ("030 23125123", "DE"),
    # Unicode case-insensitive extension labels (dotted capital I, Kelvin sign, long s).
    ("+1 650 253 0000 \u0130nt 1234", "ZZ"), ("+1 650 253 0000 \u212aext 1", "ZZ"),
    ("+1 650 253 0000 exten\u017fion 1", "ZZ"), ("+1 650 253 0000 EXTN. 77", "ZZ"),
    # Three letters or more turn the whole input into a vanity number, labels included.
    ("+1 650 253 0000 ext", "ZZ"), ("+1 650 253 0000 abc", "ZZ"), ("650 253 0000 ext", "US"),
    # Digits outside Nd (superscripts, circled), and an Nd digit newer than the oracle's Unicode.
    ("+1 650 253 000\u00b2", "ZZ"), ("+1 \u2465\u2464\u2460 253 0000", "ZZ"),
    ("+1 650 253 \U00011f50000", "ZZ"), ("+1 650 253 0000 \U0001f600", "ZZ"),
    # Control characters (no NUL: it would make git treat the fixture as binary).
    ("+16502530000\x01", "ZZ"), ("\x01+16502530000", "ZZ"), ("+1650\x7f2530000", "ZZ"),
    # The 250-character limit counts Unicode scalars (code points), not UTF-16 or UTF-8 units.
    ("+1" + "\U0001d7ce" * 10 + " " * 238, "ZZ"), ("+1" + "\U0001d7ce" * 10 + " " * 239, "ZZ"),
    ("+1" + "\U0001d7ce" * 10 + " " * 240, "ZZ"), ("+16502530000" + "\u00a0" * 238, "ZZ"),
    ("+16502530000" + "\u00a0" * 239, "ZZ"), ("+16502530000" + " " * 238, "ZZ"),
    ("+16502530000" + " " * 239, "ZZ"), ("\U0001d7ce" * 250, "US"), ("\U0001d7ce" * 251, "US"),
    # IDD prefixes are only recognised for the default region.
    ("0044 20 7946 0000", "ZZ"), ("00 1 650 253 0000", "US"), ("011 44 20 7946 0000", "GB"),
]


def transform_forms(mk):
    """Inputs that reach a national prefix transform rule, with and without its last group.

    For each region with a transform rule (NANP islands' seven-digit local numbers, Jersey's
    six, Argentina's "15", Brazil's carrier codes, ...), the region's valid numbers, their
    suffixes and those with a prefix in front are matched against the region's national prefix
    for parsing, as the oracle matches it; kept are some where the match enters the pattern's
    last group (the rule rewrites the number) and some where it does not (the match is only
    stripped), as national input and after "+" and the calling code. A separate random stream,
    so that the rows drawn before stay as they were.
    """
    import re
    rng = random.Random(SEED + 1)
    gen = PatternGenerator(rng)
    for region in sorted(phonenumbers.SUPPORTED_REGIONS):
        md = PhoneMetadata.metadata_for_region(region)
        if not md.national_prefix_transform_rule or not md.national_prefix_for_parsing:
            continue
        pattern = re.compile(md.national_prefix_for_parsing)
        prefixes = sorted({"", md.national_prefix or "", "0", "1", "15", "90", "0015"})
        entered, stripped = set(), set()
        for _, nsn in valid_national_numbers(rng, gen, md, 4):
            for k in range(3, len(nsn) + 1):
                for prefix in prefixes:
                    candidate = prefix + nsn[len(nsn) - k:]
                    match = pattern.match(candidate)
                    if not match or not match.groups():
                        continue
                    (entered if match.groups()[-1] is not None else stripped).add(candidate)
        chosen = rng.sample(sorted(entered), min(8, len(entered))) + \
            rng.sample(sorted(stripped), min(4, len(stripped)))
        for candidate in chosen:
            mk.add(candidate, region)
            mk.add("+%d %s" % (md.country_code, candidate), "ZZ")


def main():
    check_version()
    rng = random.Random(SEED)
    gen = PatternGenerator(rng)
    mk = Maker(rng, gen)

    for region in sorted(phonenumbers.SUPPORTED_REGIONS):
        md = PhoneMetadata.metadata_for_region(region)
        nums = valid_national_numbers(rng, gen, md, 3)
        if not nums:
            continue
        for i in range(NUMBERS_PER_REGION):
            _, nsn = nums[i % len(nums)] if i < len(nums) else rng.choice(nums)
            mk.number_forms(region, md.country_code, nsn)
        mk.invalid_forms(region, md.country_code)
    for cc in NON_GEO_CODES:
        md = PhoneMetadata.metadata_for_nongeo_region(cc)
        nums = valid_national_numbers(rng, gen, md, 4)
        for i in range(NON_GEO_NUMBERS):
            _, nsn = nums[i % len(nums)]
            mk.number_forms(None, cc, nsn)
    for text, region in FIXED_INPUTS:
        mk.add(text, region)
    transform_forms(mk)

    rows = []
    for text, region in sorted(mk.out):
        num, err = parse_or_error(text, region)
        if err:
            rows.append([text, region, err] + [""] * 9)
            continue
        rows.append([
            text, region, "",
            phonenumbers.format_number(num, PhoneNumberFormat.E164),
            snake_possible(num),
            "true" if phonenumbers.is_valid_number(num) else "false",
            snake_type(num),
            region_of(num),
            phonenumbers.format_number(num, PhoneNumberFormat.INTERNATIONAL),
            phonenumbers.format_number(num, PhoneNumberFormat.NATIONAL),
            phonenumbers.format_number(num, PhoneNumberFormat.RFC3966),
            num.extension or "",
        ])
    header = ["input", "region", "error", "e164", "possible", "valid", "type", "number_region",
              "international", "national", "rfc3966", "extension"]
    write_tsv(os.path.join(FIXTURES_DIR, "parse.tsv"), header, rows, "gen_parse_fixture.py")

    digits = [["%04X" % c, str(unicodedata.digit(chr(c)))] for c in range(0x110000)
              if unicodedata.category(chr(c)) == "Nd"]
    write_tsv(os.path.join(FIXTURES_DIR, "digits.tsv"), ["codepoint", "digit"], digits,
              "gen_parse_fixture.py")
    print("parse.tsv: %d rows; digits.tsv: %d rows (Unicode %s)"
          % (len(rows), len(digits), unicodedata.unidata_version))


if __name__ == "__main__":
    main()
