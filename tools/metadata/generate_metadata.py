#!/usr/bin/env python3
"""Generates SMSKit's phone-number metadata from PyPI `phonenumbers` (pinned in tools/requirements.txt).

Run from the repository root:  python3 tools/metadata/generate_metadata.py
Writes Sources/PhoneNumbers/Generated/Metadata.swift, MetadataLayout.swift and UnicodeTables.swift and
Sources/CPhoneNumberTables/phone_number_tables.c, deterministically. The records' layout is defined
once, in schema.py, which also writes the Swift names the reader uses (MetadataLayout.swift).

    --regions CH,IT,001:800   only these regions (and non-geographic entities, `001:<code>`), for
                              the golden tests (tools/tests)
    --out-dir DIR             write all three files into DIR instead of the source tree

What it writes:
* every region's and non-geographic entity's scalar metadata (country calling code, national prefix,
  possible lengths, flags) as Swift values;
* all patterns compiled ahead of time (see regex_compiler.py): one minimized DFA per region whose
  state labels carry which number types match at that length (`leveled_type_dfa`), DFAs for
  leading digits, and Pike-VM programs for the patterns whose captures matter (national prefix for
  parsing, IDD prefixes, number formats); the national prefix for parsing and the IDD prefix also
  get leftmost-first DFAs, which tell parsing where the Pike VM's match would end without running
  it;
* the DFA and program words (12 bits each) as one C array of uint16_t, and the transitions of the
  type DFAs of fewer than 256 states as a second one of bytes: constant data in the binary, which
  the run time reads in place with nothing to decode (C because a Swift array literal of this size
  takes the compiler minutes).
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import phonenumbers  # noqa: E402
import schema  # noqa: E402
import unicode_tables  # noqa: E402
from phonenumbers import PhoneMetadata  # noqa: E402
from regex_compiler import (  # noqa: E402
    DFA, OP_CLASS, OP_END, OP_JUMP, OP_MATCH, OP_SAVE, OP_SPLIT, build_dfa, build_leftmost_dfa, compile_program,
    minimize)

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT_DIR = os.path.join(ROOT, "Sources", "PhoneNumbers", "Generated")
C_DIR = os.path.join(ROOT, "Sources", "CPhoneNumberTables")

# Label bit order of the per-region type DFA, tail window and general-pattern bit: schema.py,
# which writes them for Swift too (`_TypeBits`, `_MetadataLayout`).
DESCS = schema.DESCS
MAX_LENGTH_TABLE = 20  # national significant numbers are at most 17 digits
TAIL_WINDOW = schema.TAIL_WINDOW
GENERAL_PATTERN = schema.GENERAL_PATTERN


def leveled_type_dfa(dfa: DFA, per_length: list[int]) -> DFA:
    """`dfa` (labels: the DESCS bits whose patterns match) made to count digits, so that each
    state's label holds only the descriptions whose possible lengths admit the digits read so far,
    plus GENERAL_PATTERN when the general description's pattern matches whatever the length.

    A state is a pair (state of `dfa`, digits read), minimized again, so pairs whose labels agree
    from there on are one state: libphonenumber's length test ("is n among this type's possible
    lengths") is decided when the tables are generated, and a walk reads no table of lengths. It
    costs no state: every region's DFA kept its number of states when this was written (7,590
    with rows and 3,588 tail states in all), since where a state can be reached after different
    numbers of digits, the lengths seldom tell the types apart.
    """
    index: dict[tuple[int, int], int] = {}
    trans: list[list[int]] = [[0] * 10]  # state 0: dead
    label = [0]
    pairs: list[tuple[int, int]] = [(0, 0)]
    work: list[int] = []

    def state(q: int, n: int) -> int:
        if (q, n) not in index:
            index[(q, n)] = len(pairs)
            pairs.append((q, n))
            trans.append([0] * 10)
            bits = dfa.label[q]
            label.append(bits & per_length[n] | (GENERAL_PATTERN if bits & 1 else 0))
            work.append(index[(q, n)])
        return index[(q, n)]

    start = state(dfa.start, 0)
    while work:
        s = work.pop()
        q, n = pairs[s]
        for d in range(10):
            t = dfa.trans[q][d]
            if t == 0:
                continue
            if n + 1 >= len(per_length):
                raise ValueError(f"a type pattern reads {n + 1} digits or more: lengths stop at {len(per_length) - 1}")
            trans[s][d] = state(t, n + 1)
    return minimize(DFA(trans, label, start))


class Table:
    """An append-only table of values below `limit`; a run of values added twice is stored once."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.values: list[int] = []
        self.cache: dict[tuple, int] = {}

    def add(self, values: list[int]) -> int:
        key = tuple(values)
        if key in self.cache:
            return self.cache[key]
        offset = len(self.values)
        for v in values:
            if not 0 <= v < self.limit:
                raise ValueError(f"value out of range for {type(self).__name__}: {v}")
        self.values.extend(values)
        self.cache[key] = offset
        return offset


class Words(Table):
    """The packed 12-bit word table shared by all automata."""

    def __init__(self) -> None:
        super().__init__(4096)

    def add_type_dfa(self, patterns, per_length: list[int], rows: "Rows") -> tuple[int, int, int, int]:
        """A region's type DFA: (word offset, byte offset of its rows, states, first tail state).

        The DFA counts digits (`leveled_type_dfa`): its labels already carry the possible lengths,
        `per_length[n]` being the descriptions that admit a national number of n digits.

        Its tail states are gone from the walk: a state from which every digit leads to one same
        state, itself a tail state or the dead state, decides the label of the whole number from
        how many digits are left, whatever they are ("\\d{7}" after the leading digits). A walk
        stops at the first one it enters and reads the label from a window of 16 words, one per
        number of digits left (`_TypeDFA.label`). The other states keep their transitions in
        `rows`, one byte each, 10 per state, so a DFA has fewer than 256 states in all (the largest,
        GB's, has 249; 328 before its tail states were taken out).

        Words at the offset: the start state, one label per state before the first tail state,
        then each tail state's window.
        """
        dfa = leveled_type_dfa(build_dfa(patterns), per_length)
        n = len(dfa.trans)
        # Tail states, as a least fixed point from the dead state (never the start state: a walk
        # reads at least one digit before it looks for one).
        tail = [False] * n
        tail[0] = True
        changed = True
        while changed:
            changed = False
            for s in range(1, n):
                t = dfa.trans[s]
                if not tail[s] and s != dfa.start and all(x == t[0] for x in t) and tail[t[0]]:
                    tail[s] = changed = True
        walked = [s for s in range(n) if s == 0 or not tail[s]]  # depth-first order kept
        number = {s: i for i, s in enumerate(walked)}
        entries = sorted({t for s in walked for t in dfa.trans[s] if t != 0 and tail[t]})
        for i, s in enumerate(entries):
            number[s] = len(walked) + i
        states = len(walked) + len(entries)
        if states >= 256:
            raise ValueError(f"type DFA of {states} states: byte-wide rows and a byte for the first "
                             "tail state hold 255 at most")
        windows = []
        for s in entries:
            window = []
            while s != 0:
                window.append(dfa.label[s])
                s = dfa.trans[s][0]
            if len(window) >= TAIL_WINDOW:
                raise ValueError(f"tail of {len(window)} digits: windows hold {TAIL_WINDOW - 1}")
            windows.extend(window + [0] * (TAIL_WINDOW - len(window)))
        row_offset = rows.add([number[t] for s in walked for t in dfa.trans[s]])
        offset = self.add([number[dfa.start]] + [dfa.label[s] for s in walked] + windows)
        return offset, row_offset, states, len(walked)

    def add_dfa(self, patterns) -> int:
        return self._add_built_dfa(build_dfa(patterns))

    def add_leftmost_dfa(self, pattern: str) -> int:
        """A leftmost-first DFA of `pattern`'s program (`build_leftmost_dfa`), `add_dfa`'s layout."""
        return self._add_built_dfa(build_leftmost_dfa(compile_program(pattern)))

    def _add_built_dfa(self, dfa) -> int:
        if len(dfa.trans) >= 4096:
            raise ValueError("DFA too large for 12-bit state numbers")
        values = [dfa.start]
        for trans, label in zip(dfa.trans, dfa.label):
            values.extend(trans)
            values.append(label)
        return self.add(values)

    def add_program(self, pattern: str) -> int:
        prog = compile_program(pattern)
        values = [len(prog.ops), prog.ngroups]
        for op, arg in prog.ops:
            if op == OP_SPLIT:
                values.extend([op, arg[0], arg[1]])
            elif op in (OP_CLASS, OP_JUMP, OP_SAVE):
                values.extend([op, arg, 0])
            elif op in (OP_END, OP_MATCH):
                values.extend([op, 0, 0])
            else:
                raise ValueError(op)
        return self.add(values)


class Rows(Table):
    """Byte-wide DFA transitions (`Words.add_type_dfa`)."""

    def __init__(self) -> None:
        super().__init__(256)


def c_array(values: list[int], per_line: int) -> str:
    """`values` as the lines of a C initializer, `per_line` a line."""
    return "\n".join("    " + ", ".join(str(v) for v in values[i:i + per_line]) + ","
                     for i in range(0, len(values), per_line))


def c_tables(words: list[int], rows: list[int]) -> str:
    """The C source of the words and row bytes, with the padding CPhoneNumberTables.h promises."""
    return f"""
#include "CPhoneNumberTables.h"

// The padding after each array is the initializer's missing tail, which C fills with zeros.
static const uint16_t words[{len(words)} + SMSKIT_PHONE_WORDS_PADDING] __attribute__((aligned(64))) = {{
{c_array(words, 24)}
}};

static const uint8_t rows[SMSKIT_PHONE_ROWS_PADDING_BEFORE + {len(rows)} + SMSKIT_PHONE_ROWS_PADDING_AFTER]
    __attribute__((aligned(64))) = {{
    [SMSKIT_PHONE_ROWS_PADDING_BEFORE] =
{c_array(rows, 32)}
}};

const uint16_t *smskit_phone_words(void) {{ return words; }}
size_t smskit_phone_word_count(void) {{ return {len(words)}; }}
const uint8_t *smskit_phone_type_rows(void) {{ return rows + SMSKIT_PHONE_ROWS_PADDING_BEFORE; }}
size_t smskit_phone_type_row_count(void) {{ return {len(rows)}; }}
"""


def field(value) -> str:
    """One field of a record line: empty is nil, strings start with `=`; `|` never occurs."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int):
        return str(value)
    if any(c in value for c in "|\n") or "\"\"\"#" in value:
        raise ValueError(f"unexpected character in {value!r}")
    return "=" + value


def record(*values) -> str:
    return "|".join(field(v) for v in values)


def java_rule(rule: str | None) -> str | None:
    """phonenumbers stores replacement rules with `\\1`; we keep libphonenumber's `$1` form."""
    if rule is None:
        return None
    out = []
    i = 0
    while i < len(rule):
        if rule[i] == "\\" and i + 1 < len(rule) and rule[i + 1].isdigit():
            out.append("$" + rule[i + 1])
            i += 2
        else:
            out.append(rule[i])
            i += 1
    return "".join(out)


def length_mask(lengths) -> int:
    mask = 0
    for n in lengths:
        if n >= 0:
            mask |= 1 << n
    return mask


def all_metadata(only: set[str] | None = None):
    """(code, metadata) of every region, then every non-geographic entity; only those in `only`
    (region codes and `001:<calling code>`) when given."""
    regions = sorted(r for r in phonenumbers.SUPPORTED_REGIONS if only is None or r in only)
    nongeo = sorted(cc for cc in phonenumbers.COUNTRY_CODES_FOR_NON_GEO_REGIONS
                    if only is None or f"001:{cc}" in only)
    entries = [(r, PhoneMetadata.metadata_for_region(r)) for r in regions]
    entries += [("001", PhoneMetadata.metadata_for_nongeo_region(cc)) for cc in nongeo]
    return entries


def format_record(words: Words, fmt) -> str:
    pattern = words.add_program(fmt.pattern)
    leading = fmt.leading_digits_pattern
    ld = words.add_dfa([(leading[-1], True)]) if leading else -1
    return record(*schema.record(schema.FORMAT_FIELDS, dict(
        pattern=pattern, format=java_rule(fmt.format), leadingDigits=ld,
        nationalPrefixFormattingRule=java_rule(fmt.national_prefix_formatting_rule),
        nationalPrefixOptionalWhenFormatting=bool(fmt.national_prefix_optional_when_formatting),
        domesticCarrierCodeFormattingRule=java_rule(fmt.domestic_carrier_code_formatting_rule))))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--regions", help="comma-separated region codes and 001:<code> (golden tests)")
    parser.add_argument("--out-dir", help="write every file here instead of the source tree")
    args = parser.parse_args(argv)
    only = set(args.regions.split(",")) if args.regions else None
    out_dir = args.out_dir or OUT_DIR
    c_dir = args.out_dir or C_DIR
    version = phonenumbers.__version__
    words = Words()
    rows = Rows()
    entries = all_metadata(only)
    region_fields: list[dict] = []
    format_lines: list[str] = []
    index_of: dict[tuple[str, int], int] = {}
    for i, (code, md) in enumerate(entries):
        index_of[(code, md.country_code)] = i
        descs = [getattr(md, d) for d in DESCS]
        patterns = [((d.national_number_pattern or None) if d is not None else None, False) for d in descs]
        # Which descriptions admit each length (empty list: any length; [-1]: none).
        per_length = []
        for n in range(MAX_LENGTH_TABLE):
            bits = 0
            for b, d in enumerate(descs):
                if d is None:
                    continue
                pl = d.possible_length
                if len(pl) == 0 or n in pl:
                    bits |= 1 << b
            per_length.append(bits)
        type_dfa, type_rows, type_states, first_tail = words.add_type_dfa(patterns, per_length, rows)
        general = md.general_desc
        # The run time ends a number of a length outside this mask before its type DFA walk
        # (`_type` in Swift), which is libphonenumber's test only while the list is never empty
        # (empty would mean any length).
        if not general.possible_length:
            raise ValueError(f"{code}: the general description has no possible lengths")
        possible = length_mask(general.possible_length)
        local_only = length_mask(general.possible_length_local_only)
        invalid_lengths = len(general.possible_length) > 0 and general.possible_length[0] == -1
        leading = words.add_dfa([(md.leading_digits, True)]) if md.leading_digits else -1
        npp = words.add_program(md.national_prefix_for_parsing) if md.national_prefix_for_parsing else -1
        idd = words.add_program(md.international_prefix) if md.international_prefix else -1
        first_format = len(format_lines)
        for fmt in md.number_format:
            format_lines.append(format_record(words, fmt))
        national_formats = (first_format, len(format_lines))
        first_intl = len(format_lines)
        for fmt in md.intl_number_format:
            format_lines.append(format_record(words, fmt))
        intl_formats = (first_intl, len(format_lines))
        main_country = phonenumbers.COUNTRY_CODE_TO_REGION_CODE[md.country_code][0] == code
        region_fields.append(dict(
            code=code, countryCode=md.country_code, isMainCountryForCode=main_country, typeDFA=type_dfa,
            possibleLengths=possible, localOnlyLengths=local_only, hasNoPossibleLength=invalid_lengths,
            sameMobileAndFixedLinePattern=bool(md.same_mobile_and_fixed_line_pattern),
            leadingDigits=leading, nationalPrefix=md.national_prefix, nationalPrefixForParsing=npp,
            nationalPrefixTransformRule=java_rule(md.national_prefix_transform_rule),
            internationalPrefix=idd, preferredInternationalPrefix=md.preferred_international_prefix,
            preferredExtensionPrefix=md.preferred_extn_prefix,
            nationalFormatsStart=national_formats[0], nationalFormatsEnd=national_formats[1],
            intlFormatsStart=intl_formats[0], intlFormatsEnd=intl_formats[1],
            typeRows=type_rows, typeStates=type_states, typeFirstTail=first_tail))
    # The leftmost-first DFAs come after every other table, so adding them moved no offset.
    for fields, (_, md) in zip(region_fields, entries):
        for name, pattern in (("nationalPrefixDFA", md.national_prefix_for_parsing),
                              ("internationalPrefixDFA", md.international_prefix)):
            fields[name] = words.add_leftmost_dfa(pattern) if pattern else -1
    # The DFAs of numbers that cannot be dialled from abroad come last, for the same reason.
    for fields, (_, md) in zip(region_fields, entries):
        desc = md.no_international_dialling
        pattern = desc.national_number_pattern if desc is not None else None
        fields["noInternationalDiallingDFA"] = words.add_dfa([(pattern, False)]) if pattern else -1
        # [-1] (no length is possible) as bit 0: no national significant number has 0 digits.
        fields["exampleNumbers"] = ",".join(
            (getattr(md, slot, None) and getattr(md, slot).example_number) or "" for slot in schema.EXAMPLE_SLOTS)
        fields["noInternationalDiallingLengths"] = (length_mask(desc.possible_length) or (1 if desc.possible_length else 0)) if pattern else 0
    region_lines = [record(*schema.record(schema.REGION_FIELDS, fields)) for fields in region_fields]
    # Calling codes: code -> region indices, main country first (libphonenumber's order).
    cc_lines = []
    for cc in sorted(phonenumbers.COUNTRY_CODE_TO_REGION_CODE):
        regions = phonenumbers.COUNTRY_CODE_TO_REGION_CODE[cc]
        idx = [index_of[(r, cc)] for r in regions if (r, cc) in index_of]
        if only is not None and not idx:
            continue
        cc_lines.append(f"{cc}:" + ",".join(str(i) for i in idx))

    header = (
        "// Generated by tools/metadata/generate_metadata.py from PyPI phonenumbers "
        f"{version} (libphonenumber's metadata).\n"
        "// DO NOT EDIT: change the generator or the pinned version and regenerate.\n"
    )
    with open(os.path.join(out_dir, "Metadata.swift"), "w", encoding="utf-8") as f:
        f.write(header)
        f.write("//\n// Records are text, one per line, fields separated by '|', strings start with '='\n// and an empty field is none; the fields are named in MetadataLayout.swift (from\n// tools/metadata/schema.py) and read by Metadata/_Store.swift.\n")
        f.write("// (Text rather than Swift array literals: a literal of a thousand structs takes the compiler\n")
        f.write("// minutes and gigabytes; a string literal costs nothing.)\n\n")
        f.write("extension _Metadata {\n")
        f.write("    /// The upstream metadata version these tables were generated from.\n")
        f.write(f"    static let version = \"{version}\"\n\n")
        f.write("    /// The number of lines of the region and format tables, so that reading one allocates its array once.\n")
        f.write(f"    static let regionTableLines = {len(region_lines)}\n")
        f.write(f"    static let formatTableLines = {len(format_lines)}\n\n")
        f.write("    /// One region or non-geographic entity a line; fields: `_RegionField`.\n")
        f.write('    static let regionTable: StaticString = #"""\n')
        f.write("\n".join(region_lines))
        f.write('\n"""#\n\n')
        f.write("    /// One number format a line; fields: `_FormatField`.\n")
        f.write('    static let formatTable: StaticString = #"""\n')
        f.write("\n".join(format_lines))
        f.write('\n"""#\n\n')
        f.write("    /// callingCode:region indices (into regionTable's lines), main country first.\n")
        f.write('    static let callingCodeTable: StaticString = #"""\n')
        f.write("\n".join(cc_lines))
        f.write('\n"""#\n}\n')
    with open(os.path.join(out_dir, "MetadataLayout.swift"), "w", encoding="utf-8") as f:
        f.write(schema.swift_source(header))
    with open(os.path.join(c_dir, "phone_number_tables.c"), "w", encoding="utf-8") as f:
        f.write(header)
        f.write(c_tables(words.values, rows.values))
    with open(os.path.join(out_dir, "UnicodeTables.swift"), "w", encoding="utf-8") as f:
        f.write(unicode_tables.swift_source(header))
    print(f"phonenumbers {version}: {len(entries)} entities, {len(format_lines)} formats, "
          f"{len(words.values)} words, {len(rows.values)} DFA row bytes")


if __name__ == "__main__":
    main()
