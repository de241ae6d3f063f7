"""Unicode character classes as the oracle (PyPI phonenumbers on CPython) sees them.

libphonenumber's parser leans on three Unicode properties, and Python answers them from its own
Unicode database (14.0.0 for CPython 3.11), which is older than Swift's. To agree with the oracle
exactly we ship its answers:
* decimal: what `\\d` matches in `re` (Unicode category Nd), used where patterns say `\\d`;
* digit value: `unicodedata.digit`, used by phonenumbers' normalize_digits_only (Nd plus digits
  such as superscripts and circled numbers);
* alnum: `str.isalnum` (letters and numbers), used to trim trailing junk.
"""

import sys
import unicodedata


def ranges(predicate):
    out = []
    start = None
    for c in range(sys.maxunicode + 2):
        inside = c <= sys.maxunicode and predicate(chr(c))
        if inside and start is None:
            start = c
        elif not inside and start is not None:
            out.append((start, c - 1))
            start = None
    return out


def digit_runs():
    """Runs of code points whose digit values go up by one: (first, last, value of first)."""
    out = []
    prev = None
    for c in range(sys.maxunicode + 1):
        v = unicodedata.digit(chr(c), -1)
        if v < 0:
            prev = None
            continue
        if prev is not None and prev[1] == c - 1 and prev[2] + (c - prev[0]) == v:
            prev[1] = c
        else:
            prev = [c, c, v]
            out.append(prev)
    return [tuple(r) for r in out]


def swift_source(version_note: str) -> str:
    def enc(rs):
        return ",".join(f"{a:X}-{b:X}" for a, b in rs)

    decimal = ranges(lambda ch: ch.isdecimal())
    alnum = ranges(lambda ch: ch.isalnum())
    digits = ",".join(f"{a:X}-{b:X}-{v}" for a, b, v in digit_runs())
    return (
        f"{version_note}"
        f"// Unicode {unicodedata.unidata_version} as CPython {sys.version.split()[0]} answers it; see tools/metadata/unicode_tables.py.\n\n"
        "extension _Metadata {\n"
        f"    static let unicodeVersion = \"{unicodedata.unidata_version}\"\n"
        "    /// Ranges (hex first-last) of characters Python's `\\\\d` matches.\n"
        f"    static let decimalRanges: StaticString = \"{enc(decimal)}\"\n"
        "    /// Runs (hex first-last-value of first) of characters with a digit value (`unicodedata.digit`).\n"
        f"    static let digitRuns: StaticString = \"{digits}\"\n"
        "    /// Ranges (hex first-last) of letters and numbers (`str.isalnum`).\n"
        f"    static let alnumRanges: StaticString = \"{enc(alnum)}\"\n"
        "}\n"
    )
