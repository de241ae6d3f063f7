"""The one definition of the generated metadata's layout, shared by the generator and the reader.

generate_metadata.py writes the region and format tables as text records whose fields come in the
order of REGION_FIELDS and FORMAT_FIELDS, and writes Sources/PhoneNumbers/Generated/MetadataLayout.swift
from this module: the field indices as Swift enums (`_RegionField`, `_FormatField`), the type DFA's
label bits (`_TypeBits`) and the tail window (`_MetadataLayout.tailWindow`). The Swift reader
(Sources/PhoneNumbers/Metadata/_Store.swift) reads fields by those names, so a field added, removed
or moved here moves in both, and nothing is kept in sync by hand.
"""

from __future__ import annotations

from typing import NamedTuple


class Field(NamedTuple):
    """One field of a record: its Swift name, its kind ("int", "bool" or "string") and what it holds."""
    name: str
    kind: str
    doc: str


REGION_FIELDS: list[Field] = [
    Field("code", "string", 'ISO 3166-1 alpha-2 code, or "001" for a non-geographic entity.'),
    Field("countryCode", "int", "The country calling code."),
    Field("isMainCountryForCode", "bool", "Whether the region is the main one of its calling code."),
    Field("typeDFA", "int", "Word offset of the type DFA (labels: `_TypeBits`)."),
    Field("possibleLengths", "int", "Bit n set when n digits are a possible length (general description)."),
    Field("localOnlyLengths", "int", "Bit n set when n digits are a local-only possible length."),
    Field("hasNoPossibleLength", "bool", "The general description's possible lengths are `[-1]`."),
    Field("sameMobileAndFixedLinePattern", "bool", "Mobile and fixed-line numbers share one pattern."),
    Field("leadingDigits", "int", "Word offset of the leading-digits DFA, or -1."),
    Field("nationalPrefix", "string", "The national prefix, or none."),
    Field("nationalPrefixForParsing", "int", "Word offset of the Pike-VM program, or -1."),
    Field("nationalPrefixTransformRule", "string", "The transform rule (`$1` form), or none."),
    Field("internationalPrefix", "int", "Word offset of the IDD prefix's Pike-VM program, or -1."),
    Field("preferredInternationalPrefix", "string", "The preferred IDD prefix, or none."),
    Field("preferredExtensionPrefix", "string", "The preferred extension prefix, or none."),
    Field("nationalFormatsStart", "int", "First line of the region's national formats in the format table."),
    Field("nationalFormatsEnd", "int", "One past the last line of its national formats."),
    Field("intlFormatsStart", "int", "First line of the region's international formats."),
    Field("intlFormatsEnd", "int", "One past the last line of its international formats."),
    Field("typeRows", "int", "Byte offset of the type DFA's transitions in the row table."),
    Field("typeStates", "int", "The type DFA's number of states (dead and tail states included)."),
    Field("nationalPrefixDFA", "int", "Word offset of the national prefix for parsing's leftmost-first DFA, or -1."),
    Field("internationalPrefixDFA", "int", "Word offset of the IDD prefix's leftmost-first DFA, or -1."),
    Field("typeFirstTail", "int", "The type DFA's first tail state."),
    Field("noInternationalDiallingDFA", "int", "Word offset of the full-match DFA of numbers that cannot be dialled from abroad, or -1."),
    Field("noInternationalDiallingLengths", "int", "Bit n set when such a number may have n digits; 0: any length."),
    Field("exampleNumbers", "string", "Example national numbers, comma-separated, in `EXAMPLE_SLOTS` order; empty: none."),
]

# The order of the example numbers in a region's `exampleNumbers` field: phonenumbers' description
# attributes (general_desc answers the type `unknown`).
EXAMPLE_SLOTS: list[str] = [
    "general_desc", "fixed_line", "mobile", "toll_free", "premium_rate", "shared_cost", "voip",
    "personal_number", "pager", "uan", "voicemail",
]

FORMAT_FIELDS: list[Field] = [
    Field("pattern", "int", "Word offset of the pattern's Pike-VM program (full match, captures)."),
    Field("format", "string", "The format (`$1` form)."),
    Field("leadingDigits", "int", "Word offset of the DFA of the last leading-digits pattern, or -1."),
    Field("nationalPrefixFormattingRule", "string", "The national prefix formatting rule, or none."),
    Field("nationalPrefixOptionalWhenFormatting", "bool", "Whether the national prefix may be left out."),
    Field("domesticCarrierCodeFormattingRule", "string", "The domestic carrier code formatting rule, or none."),
]

# The type DFA's label bits, in order: (phonenumbers' description attribute, Swift name).
TYPE_BITS: list[tuple[str, str]] = [
    ("general_desc", "general"), ("premium_rate", "premiumRate"), ("toll_free", "tollFree"),
    ("shared_cost", "sharedCost"), ("voip", "voip"), ("personal_number", "personalNumber"),
    ("pager", "pager"), ("uan", "uan"), ("voicemail", "voicemail"), ("fixed_line", "fixedLine"),
    ("mobile", "mobile"),
]
DESCS = [attribute for attribute, _ in TYPE_BITS]

# Label bit of a type DFA state where the general description's pattern matches, the length aside.
GENERAL_PATTERN = 1 << len(TYPE_BITS)

# Words per tail window of a type DFA (`_TypeDFA.label` reads at most the last one).
TAIL_WINDOW = 16

# Pike-VM instruction opcodes (regex_compiler.py writes them, _PikeVM.swift runs them).
OP_CLASS = 0  # arg = 10-bit digit mask; consumes one digit
OP_SPLIT = 1  # arg = (x, y): try x first, then y
OP_JUMP = 2  # arg = x
OP_SAVE = 3  # arg = slot
OP_END = 4  # assert end of input ($)
OP_MATCH = 5
OPCODES = [("opClass", OP_CLASS), ("opSplit", OP_SPLIT), ("opJump", OP_JUMP), ("opSave", OP_SAVE),
           ("opEnd", OP_END), ("opMatch", OP_MATCH)]

# Label bits of a leftmost-first DFA (regex_compiler.build_leftmost_dfa, _LeftmostDFA.swift).
LEFTMOST_MATCH = 1  # the Pike VM would record a match here if more input followed
LEFTMOST_MATCH_GROUP = 2  # ... whose path entered the program's last group
LEFTMOST_END_MATCH = 4  # the Pike VM would match here if the input ended here
LEFTMOST_END_MATCH_GROUP = 8  # ... with the last group entered
LEFTMOST_LABELS = [("leftmostMatch", LEFTMOST_MATCH), ("leftmostMatchInLastGroup", LEFTMOST_MATCH_GROUP),
                   ("leftmostEndMatch", LEFTMOST_END_MATCH),
                   ("leftmostEndMatchInLastGroup", LEFTMOST_END_MATCH_GROUP)]


def record(fields: list[Field], values: dict) -> list:
    """`values` (by field name) in the schema's order; every field exactly once."""
    names = [f.name for f in fields]
    if set(values) != set(names):
        missing = sorted(set(names) - set(values))
        extra = sorted(set(values) - set(names))
        raise ValueError(f"record fields differ from the schema: missing {missing}, unexpected {extra}")
    return [values[name] for name in names]


def swift_source(header: str) -> str:
    """Sources/PhoneNumbers/Generated/MetadataLayout.swift."""
    out = [header.rstrip("\n"), "//",
           "// The layout of the generated metadata, from tools/metadata/schema.py: what the generator",
           "// writes and the reader (Metadata/_Store.swift) reads, defined once.", ""]

    def field_enum(name: str, table: str, fields: list[Field]) -> None:
        out.append(f"/// The fields of a line of `_Metadata.{table}`, in order ('|'-separated; strings start")
        out.append("/// with '=', an empty field is none).")
        out.append(f"enum {name}: Int {{")
        for i, f in enumerate(fields):
            out.append(f"    /// {f.doc} ({f.kind})")
            out.append(f"    case {f.name} = {i}")
        out.append("}")
        out.append("")

    field_enum("_RegionField", "regionTable", REGION_FIELDS)
    field_enum("_FormatField", "formatTable", FORMAT_FIELDS)
    out.append("/// Label bits of the type DFA. Bits 0...10 are set when the description's pattern matches the")
    out.append("/// digits read and its possible lengths admit their count (libphonenumber's `isNumberMatchingDesc`):")
    out.append("/// the DFA counts digits, so a walk needs no table of lengths.")
    out.append("enum _TypeBits {")
    for i, (_, swift) in enumerate(TYPE_BITS):
        out.append(f"    static let {swift}: UInt16 = 1 << {i}")
    out.append("    /// The general description's pattern matches, whatever the length: libphonenumber's")
    out.append("    /// `matchNationalNumber`, which parsing asks when it strips a national prefix.")
    out.append(f"    static let generalPattern: UInt16 = 1 << {len(TYPE_BITS)}")
    out.append("}")
    out.append("")
    out.append("/// Sizes the generated tables were laid out with.")
    out.append("enum _MetadataLayout {")
    out.append("    /// Words per tail window of a type DFA: a walk reads the label of the number from the")
    out.append("    /// window of the first tail state it enters, one word per number of digits left.")
    out.append(f"    static let tailWindow = {TAIL_WINDOW}")
    out.append("    /// Pike-VM opcodes (`_PikeVM`).")
    for name, value in OPCODES:
        out.append(f"    static let {name} = {value}")
    out.append("    /// Label bits of a leftmost-first DFA (`_LeftmostDFA`).")
    for name, value in LEFTMOST_LABELS:
        out.append(f"    static let {name}: UInt16 = {value}")
    out.append(f"    /// Fields of a region line.")
    out.append(f"    static let regionFields = {len(REGION_FIELDS)}")
    out.append(f"    /// Fields of a format line.")
    out.append(f"    static let formatFields = {len(FORMAT_FIELDS)}")
    out.append("}")
    out.append("")
    return "\n".join(out)
