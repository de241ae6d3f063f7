#!/usr/bin/env python3
"""Generate Sources/PhoneNumbers/Generated/FictionalRanges.swift from the fictional-range table.

Input:  Resources/FictionalRanges/fictional_ranges.tsv (format documented at the top of that file)
Output: Sources/PhoneNumbers/Generated/FictionalRanges.swift

    python3 tools/generate_fictional_ranges.py            # write the Swift file
    python3 tools/generate_fictional_ranges.py --check    # exit 1 if the Swift file is stale

The output is deterministic: it depends only on the bytes of the TSV. The table is validated first
(field counts, digits, lengths, kinds, overlaps); any error names the line and stops the generator.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
from dataclasses import dataclass

ROOT = pathlib.Path(__file__).resolve().parent.parent
TSV = ROOT / "Resources" / "FictionalRanges" / "fictional_ranges.tsv"
OUT = ROOT / "Sources" / "PhoneNumbers" / "Generated" / "FictionalRanges.swift"

HEADER = ("region", "country_code", "first", "last", "kind", "source", "verified_by", "note")

# TSV kind -> Swift `FictionalKind` case. `not-fictional` is an exception row, not a kind.
KINDS = {
    "reserved-for-fiction": "reservedForFiction",
    "nanp-555-convention": "nanp555Convention",
    "reported": "reported",
}
EXCLUSION = "not-fictional"

MAX_NSN_DIGITS = 17  # E.164 allows 15 digits in all; 17 keeps every value below 10^17 < 2^63.


class TableError(Exception):
    pass


@dataclass(frozen=True)
class Row:
    line: int
    region: str
    country_code: int
    first: str
    last: str
    kind: str
    source: str
    verified_by: str
    note: str

    @property
    def wildcards(self) -> int:
        return len(self.first) - len(self.first.lstrip("x"))

    @property
    def length(self) -> int:
        return len(self.first)

    @property
    def first_value(self) -> int:
        return int(self.first[self.wildcards:])

    @property
    def last_value(self) -> int:
        return int(self.last[self.wildcards:])

    @property
    def group(self) -> int:
        return (self.country_code << 16) | (self.length << 8) | self.wildcards


def fnv1a64(data: bytes) -> int:
    """FNV-1a, 64 bit: the checksum the Swift test recomputes over the same bytes."""
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def parse(data: bytes, name: str = TSV.name) -> list[Row]:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise TableError(f"{name}: not UTF-8 ({e})") from None
    rows: list[Row] = []
    header_seen = False
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip("\r")
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        where = f"{name}:{number}"
        if not header_seen:
            if tuple(fields) != HEADER:
                raise TableError(f"{where}: expected the header {'<TAB>'.join(HEADER)}")
            header_seen = True
            continue
        if len(fields) != len(HEADER):
            raise TableError(f"{where}: expected {len(HEADER)} tab-separated fields, found {len(fields)}")
        region, cc, first, last, kind, source, verified_by, note = (f.strip() for f in fields)
        if not (region == "NANP" or (len(region) == 2 and region.isascii() and region.isupper())):
            raise TableError(f"{where}: region {region!r} is neither NANP nor an ISO 3166-1 alpha-2 code")
        if not (cc.isascii() and cc.isdigit() and 1 <= len(cc) <= 3 and not cc.startswith("0")):
            raise TableError(f"{where}: country_code {cc!r} must be 1 to 3 digits without a leading 0")
        for column, value in (("first", first), ("last", last)):
            body = value.lstrip("x")
            if not value or not body or not (body.isascii() and body.isdigit()):
                raise TableError(f"{where}: {column} {value!r} must be digits, optionally after leading 'x'")
            if len(value) > MAX_NSN_DIGITS:
                raise TableError(f"{where}: {column} {value!r} is longer than {MAX_NSN_DIGITS} digits")
        if len(first) != len(last):
            raise TableError(f"{where}: first and last have different lengths ({len(first)} and {len(last)})")
        wildcards = len(first) - len(first.lstrip("x"))
        if len(last) - len(last.lstrip("x")) != wildcards:
            raise TableError(f"{where}: first and last must start with the same number of 'x'")
        if int(first[wildcards:]) > int(last[wildcards:]):
            raise TableError(f"{where}: first {first} is above last {last}")
        if kind not in KINDS and kind != EXCLUSION:
            allowed = ", ".join(sorted([*KINDS, EXCLUSION]))
            raise TableError(f"{where}: unknown kind {kind!r} (allowed: {allowed})")
        if not source or not verified_by:
            raise TableError(f"{where}: source and verified_by must not be empty")
        rows.append(Row(number, region, int(cc), first, last, kind, source, verified_by, note))
    if not header_seen:
        raise TableError(f"{name}: no header line")
    if not rows:
        raise TableError(f"{name}: no rows")
    check_overlaps(rows, name)
    return rows


def check_overlaps(rows: list[Row], name: str) -> None:
    ordered = sorted(rows, key=lambda r: (r.group, r.first_value))
    for a, b in zip(ordered, ordered[1:]):
        if a.group == b.group and b.first_value <= a.last_value:
            raise TableError(
                f"{name}:{b.line}: {b.first}..{b.last} overlaps {a.first}..{a.last} (line {a.line}); "
                "rows with the same country code, length and wildcards must be disjoint"
            )


def swift_string(value: str) -> str:
    out = []
    for ch in value:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ord(ch) < 0x20 or ord(ch) > 0x7E:
            out.append(f"\\u{{{ord(ch):X}}}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


# Result codes of the generated group functions: a fictional row is (row << 2 | kind index) >= 0.
MISS = -2
EXCEPTION = -1
KIND_ORDER = ["reserved-for-fiction", "nanp-555-convention", "reported"]  # FictionalKind case order
PREFIX_DIGITS = 4  # leading digits indexed by each group's reject bitmap (10^4 bits = 1.25 KB)


def tree(entries: list[tuple[int, int, int]], indent: str) -> list[str]:
    """Binary search over disjoint sorted (first, last, code) intervals, compiled to comparisons."""
    if len(entries) <= 3:
        out = []
        for first, last, code in entries:
            if first == last:
                out.append(f"{indent}if key == {first} {{ return {code} }}")
            else:
                out.append(f"{indent}if key >= {first} && key <= {last} {{ return {code} }}")
        out.append(f"{indent}return _miss")
        return out
    middle = len(entries) // 2
    pivot = entries[middle][0]
    return (
        [f"{indent}if key < {pivot} {{"]
        + tree(entries[:middle], indent + "    ")
        + [f"{indent}}}"]
        + tree(entries[middle:], indent)
    )


def render(rows: list[Row], checksum: int) -> str:
    public_rows = [r for r in rows if r.kind != EXCLUSION]
    index_of = {id(r): i for i, r in enumerate(public_rows)}

    def code(r: Row) -> int:
        if r.kind == EXCLUSION:
            return EXCEPTION
        return (index_of[id(r)] << 2) | KIND_ORDER.index(r.kind)

    # country code -> length -> wildcards -> sorted intervals
    groups: dict[int, dict[int, dict[int, list[tuple[int, int, int]]]]] = {}
    for r in sorted(rows, key=lambda r: (r.group, r.first_value)):
        groups.setdefault(r.country_code, {}).setdefault(r.length, {}).setdefault(r.wildcards, []).append(
            (r.first_value, r.last_value, code(r))
        )

    lines: list[str] = []
    emit = lines.append
    emit("// DO NOT EDIT. Generated by tools/generate_fictional_ranges.py")
    emit("// Input: Resources/FictionalRanges/fictional_ranges.tsv")
    emit(f"// Input checksum (FNV-1a 64): 0x{checksum:016X}")
    emit("// Regenerate: python3 tools/generate_fictional_ranges.py")
    emit("")
    emit("extension FictionalRanges {")
    emit("    /// FNV-1a 64-bit checksum of the TSV this file was generated from.")
    emit(f"    package static let tableChecksum: UInt64 = 0x{checksum:016X}")
    emit("")
    emit("    /// The fictional rows of the table, in TSV order (exception rows are not listed).")
    emit("    static let _rowData: [_FictionalRowData] = [")
    for r in public_rows:
        emit("        _FictionalRowData(")
        emit(f"            region: {swift_string(r.region)}, countryCode: {r.country_code},")
        emit(f"            first: {swift_string(r.first)}, last: {swift_string(r.last)}, kind: .{KINDS[r.kind]},")
        emit(f"            source: {swift_string(r.source)},")
        emit(f"            note: {swift_string(r.note)}")
        emit("        ),")
    emit("    ]")
    emit("")
    emit("    /// The table compiled to comparisons: `(row << 2 | kind)` of the row containing the number,")
    emit("    /// `_exception` for an exception row, `_miss` for none. `value` gives the number's value, of at")
    emit("    /// most `length` digits; it is called only for a calling code and length that have rows (a")
    emit("    /// parsed number keeps its digits, and most have no row to compare with).")
    emit("    /// Rows without wildcards are tried first; a wildcard row compares the digits after its wildcards.")
    emit("    @inline(__always)")
    emit("    static func _lookupCode(countryCode: Int, length: Int, value: () -> UInt64) -> Int {")
    emit("        switch countryCode {")
    functions: list[str] = []
    bitmaps: list[tuple[str, int, int, int, int, list[int]]] = []
    for cc in sorted(groups):
        emit(f"        case {cc}:")
        emit("            switch length {")
        for length in sorted(groups[cc]):
            emit(f"            case {length}:")
            emit("                let value = value()")
            by_wildcards = groups[cc][length]
            ordered = sorted(by_wildcards)
            for position, wildcards in enumerate(ordered):
                name = f"_group_{cc}_{length}_{wildcards}"
                key = "value" if wildcards == 0 else f"value % {10 ** (length - wildcards)}"
                last = position == len(ordered) - 1
                if last:
                    emit(f"                return {name}({key})")
                else:
                    emit(f"                let code{position} = {name}({key})")
                    emit(f"                if code{position} != _miss {{ return code{position} }}")
                intervals = by_wildcards[wildcards]
                digits = length - wildcards
                prefix_digits = min(PREFIX_DIGITS, digits)
                divisor = 10 ** (digits - prefix_digits)
                bitmap = prefix_bitmap(intervals, prefix_digits, divisor)
                bitmap_name = f"_prefixes_{cc}_{length}_{wildcards}"
                bitmaps.append((bitmap_name, cc, length, wildcards, prefix_digits, bitmap))
                functions.append(f"    /// +{cc}, {length} digits, {wildcards} leading wildcard digits.")
                functions.append("    @inline(__always)")
                functions.append(f"    private static func {name}(_ key: UInt64) -> Int {{")
                functions.append(f"        // Most numbers stop here: no range starts with these {prefix_digits} digits.")
                functions.append(f"        let prefix = Int(truncatingIfNeeded: key / {divisor})")
                functions.append(f"        guard {bitmap_name}[prefix &>> 6] & (1 &<< UInt64(prefix & 63)) != 0 else {{ return _miss }}")
                functions.extend(tree(intervals, "        "))
                functions.append("    }")
                functions.append("")
        emit("            default:")
        emit("                return _miss")
        emit("            }")
    emit("        default:")
    emit("            return _miss")
    emit("        }")
    emit("    }")
    emit("")
    lines.extend(functions)
    if lines[-1] == "":
        lines.pop()
    emit("}")
    for name, cc, length, wildcards, prefix_digits, words in bitmaps:
        emit("")
        emit(f"/// Bit p is set when a range of +{cc}, {length} digits, {wildcards} wildcards has numbers whose")
        emit(f"/// first {prefix_digits} digits (after the wildcards) are p.")
        emit(f"private let {name}: [UInt64] = [")
        for start in range(0, len(words), 4):
            emit("    " + ", ".join(f"0x{w:016X}" for w in words[start:start + 4]) + ",")
        emit("]")
    return "\n".join(lines) + "\n"


def prefix_bitmap(intervals: list[tuple[int, int, int]], prefix_digits: int, divisor: int) -> list[int]:
    """Bits for every leading-digits prefix that some interval (exception rows included) touches."""
    size = 10 ** prefix_digits
    words = [0] * ((size + 63) // 64)
    for first, last, _ in intervals:
        for prefix in range(first // divisor, last // divisor + 1):
            words[prefix >> 6] |= 1 << (prefix & 63)
    return words


def shown(path: pathlib.Path) -> str:
    """`path` relative to the repository when inside it."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the generated file is out of date")
    parser.add_argument("--input", type=pathlib.Path, default=TSV, help=argparse.SUPPRESS)
    parser.add_argument("--output", type=pathlib.Path, default=OUT, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    data = args.input.read_bytes()
    try:
        rows = parse(data, args.input.name)
    except TableError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    text = render(rows, fnv1a64(data))
    if args.check:
        current = args.output.read_text(encoding="utf-8") if args.output.exists() else ""
        if current != text:
            print(f"error: {shown(args.output)} is stale; run tools/generate_fictional_ranges.py", file=sys.stderr)
            return 1
        print(f"{shown(args.output)} is up to date ({len(rows)} rows)")
        return 0
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text, encoding="utf-8")
    print(f"wrote {shown(args.output)} ({len(rows)} rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
