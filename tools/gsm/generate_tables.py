#!/usr/bin/env python3
"""Generate Sources/SMSEncoding/Generated/_GSMTables.swift.

Input: the 3GPP TS 23.038 (v18.0.0) character tables as CSV (one row per low nibble, one column
per high nibble; a cell is a hex code point, a literal ASCII character, SP, QM, LF, CR or empty),
by default ../shared/data/gsm0338 relative to the repository root, and Python's unicodedata
(for the small NFC composition table).

The documented errata of that CSV set are applied here (see ERRATA), so the Swift tables hold
the standard's values as implemented by Android's GsmAlphabet.

Usage: python3 tools/gsm/generate_tables.py [path/to/gsm0338] [--output FILE]
(writes the Swift file in place unless --output says otherwise; the output is deterministic).
"""
import argparse
import csv
import os
import sys
import unicodedata

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DEFAULT_DATA = os.path.join(ROOT, "..", "shared", "data", "gsm0338")
OUT = os.path.join(ROOT, "Sources", "SMSEncoding", "Generated", "_GSMTables.swift")

# (NLI, name, locking CSV or None, single-shift CSV)
LANGUAGES = [
    (0, "default", "default_lock.csv", "default_shift.csv"),
    (1, "turkish", "turkish_lock.csv", "turkish_shift.csv"),
    (2, "spanish", None, "spanish_shift.csv"),
    (3, "portuguese", "portugese_lock.csv", "portugese_shift.csv"),
    (4, "bengali", "bengali_lock.csv", "bengali_shift.csv"),
    (5, "gujarati", "gujarati_lock.csv", "gujarati_shift.csv"),
    (6, "hindi", "hindi_lock.csv", "hindi_shift.csv"),
    (7, "kannada", "kannada_lock.csv", "kannada_shift.csv"),
    (8, "malayalam", "malayalam_lock.csv", "malayalam_shift.csv"),
    (9, "oriya", "oriya_lock.csv", "oriya_shift.csv"),
    (10, "punjabi", "punjabi_lock.csv", "punjabi_shift.csv"),
    (11, "tamil", "tamil_lock.csv", "tamil_shift.csv"),
    (12, "telugu", "telugu_lock.csv", "telugu_shift.csv"),
    (13, "urdu", "urdu_lock.csv", "urdu_shift.csv"),
]
INDIC = {4, 5, 6, 7, 8, 9, 10, 11, 12}

# (kind, nli, septet) -> code point. Checked against Android's GsmAlphabet.java.
ERRATA = {}
for nli in sorted(INDIC | {13}):  # the ten Indic-script locking tables, Urdu included
    ERRATA[("lock", nli, 0x2C)] = 0x002C  # CSV has U+0027
ERRATA[("lock", 7, 0x24)] = 0x0CA1           # CSV has U+0CAA (duplicate of 0x3D)
ERRATA[("shift", 12, 0x65)] = 0x20AC         # CSV lacks the euro sign

ESCAPE = 0x1B


def cell_value(text, septet):
    if text == "":
        return 0
    if septet == ESCAPE:
        return 0  # escape to the extension table (the CSV shows it as SP)
    if text == "SP":
        return 0x20
    if text == "QM":
        return 0x22
    if text == "LF":
        return 0x0A
    if text == "CR":
        return 0x0D
    if len(text) == 1:
        return ord(text)
    return int(text, 16)


def read_table(data, name, kind, nli):
    with open(os.path.join(data, name), encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    table = [0] * 128
    for row in rows[1:]:
        low = int(row[0], 16)
        for high, text in enumerate(row[1:9]):
            septet = high * 16 + low
            table[septet] = cell_value(text, septet)
    for (k, n, septet), value in ERRATA.items():
        if k == kind and n == nli:
            table[septet] = value
    return table


def swift_table(values):
    lines = []
    for start in range(0, 128, 16):
        chunk = ", ".join("0x%04X" % v for v in values[start:start + 16])
        lines.append("        %s, // 0x%02X" % (chunk, start))
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="?", default=DEFAULT_DATA, help="the gsm0338 CSV directory")
    parser.add_argument("--output", default=OUT, help="the Swift file to write")
    args = parser.parse_args(argv)
    locking, shift = {}, {}
    for nli, name, lock_csv, shift_csv in LANGUAGES:
        if lock_csv:
            locking[nli] = read_table(args.data, lock_csv, "lock", nli)
        shift[nli] = read_table(args.data, shift_csv, "shift", nli)

    # NFC data for the characters the tables can encode: canonical pairs (chained through
    # intermediate compositions) and singletons whose NFC form is a table character.
    targets = set()
    for table in list(locking.values()) + list(shift.values()):
        targets.update(v for v in table if v)
    pairs = {}

    def add_pairs(cp):
        decomposition = unicodedata.decomposition(chr(cp))
        if not decomposition or decomposition.startswith("<"):
            return
        parts = [int(p, 16) for p in decomposition.split()]
        if len(parts) != 2:
            return
        if unicodedata.normalize("NFC", chr(parts[0]) + chr(parts[1])) != chr(cp):
            return  # composition exclusion
        pairs[(parts[0], parts[1])] = cp
        add_pairs(parts[0])

    for cp in sorted(targets):
        add_pairs(cp)
    singletons = {}
    for cp in range(0x80, 0x10000):
        if 0xD800 <= cp < 0xE000:
            continue
        nfc = unicodedata.normalize("NFC", chr(cp))
        if len(nfc) == 1 and ord(nfc) != cp and ord(nfc) in targets:
            singletons[cp] = ord(nfc)
    marks = sorted({m for (_, m) in pairs})
    ccc = {m: unicodedata.combining(chr(m)) for m in marks}

    out = []
    out.append("// Generated by tools/gsm/generate_tables.py. DO NOT EDIT.")
    out.append("// Input: 3GPP TS 23.038 v18.0.0 character tables (CSV set in ../shared/data/gsm0338),")
    out.append("// with the documented errata applied (Indic and Urdu locking 0x2C = ',', Kannada locking 0x24 = U+0CA1,")
    out.append("// Telugu single shift 0x65 = U+20AC); NFC pairs from Unicode %s (Python unicodedata)." % unicodedata.unidata_version)
    out.append("// A cell is a UTF-16 code unit (all table characters are in the BMP); 0 means undefined.")
    out.append("// Septet 0x1B is the escape to the single-shift table and is 0 in every table.")
    out.append("")
    out.append("/// The version of the standard the tables follow.")
    out.append("package let _gsmTablesStandardVersion = \"3GPP TS 23.038 v18.0.0\"")
    out.append("")
    out.append("/// The Unicode version the NFC composition data was generated from.")
    out.append("package let _gsmNFCUnicodeVersion = \"%s\"" % unicodedata.unidata_version)
    out.append("")
    out.append("/// Locking-shift tables indexed by NLI (0 = GSM 7-bit default alphabet); NLI 2 (Spanish) has none")
    out.append("/// and repeats the default alphabet so that the index stays the NLI.")
    out.append("package let _gsmLockingTables: [[UInt16]] = [")
    for nli in range(14):
        table = locking.get(nli, locking[0])
        note = "" if nli in locking else " (no locking table: default alphabet)"
        out.append("    // NLI %d %s%s" % (nli, LANGUAGES[nli][1], note))
        out.append("    [")
        out.append(swift_table(table))
        out.append("    ],")
    out.append("]")
    out.append("")
    out.append("/// Single-shift tables indexed by NLI (0 = the default alphabet extension table).")
    out.append("package let _gsmSingleShiftTables: [[UInt16]] = [")
    for nli in range(14):
        out.append("    // NLI %d %s" % (nli, LANGUAGES[nli][1]))
        out.append("    [")
        out.append(swift_table(shift[nli]))
        out.append("    ],")
    out.append("]")
    out.append("")
    out.append("/// Canonical compositions (starter, combining mark, composed) that lead to table characters,")
    out.append("/// sorted by starter then mark.")
    out.append("package let _nfcCompositions: [(UInt16, UInt16, UInt16)] = [")
    for (a, m), c in sorted(pairs.items()):
        out.append("    (0x%04X, 0x%04X, 0x%04X), // %s" % (a, m, c, unicodedata.name(chr(c), "?")))
    out.append("]")
    out.append("")
    out.append("/// Canonical combining classes of the marks used in `_nfcCompositions`, sorted by mark.")
    out.append("package let _nfcCombiningClasses: [(UInt16, UInt8)] = [")
    for m in marks:
        out.append("    (0x%04X, %d), // %s" % (m, ccc[m], unicodedata.name(chr(m), "?")))
    out.append("]")
    out.append("")
    out.append("/// Singleton canonical mappings whose NFC form is a table character, sorted by source.")
    out.append("package let _nfcSingletons: [(UInt16, UInt16)] = [")
    for s, t in sorted(singletons.items()):
        out.append("    (0x%04X, 0x%04X), // %s -> %s" % (s, t, unicodedata.name(chr(s), "?"), unicodedata.name(chr(t), "?")))
    out.append("]")
    out.append("")
    with open(args.output, "w", encoding="utf-8") as handle:
        handle.write("\n".join(out))
    print("wrote %s: %d compositions, %d singletons" % (args.output, len(pairs), len(singletons)))


if __name__ == "__main__":
    main()
