// Character classes of libphonenumber's parser, answered as the oracle answers them (see
// Generated/UnicodeTables.swift). ASCII is decided inline; other characters by binary search.

final class _UnicodeClasses: Sendable {
    static let shared = _UnicodeClasses()

    /// Flattened [first, last] pairs.
    private let decimal: [UInt32]
    private let alnum: [UInt32]
    /// Flattened [first, last, value] triples.
    private let digits: [UInt32]
    /// For each block of 16 code points of the BMP: the low nibble where its run of ten decimal
    /// digits starts, ``noDigits`` for none, ``searchBlock`` when a search must say.
    private let decimalBlocks: [UInt8]
    /// For each block of 16 code points of the BMP: whether a range of `digits` meets it.
    private let digitBlocks: [Bool]

    static var noDigits: UInt8 { 0xFF }
    static var searchBlock: UInt8 { 0xFE }

    private init() {
        /// "A-B,C-D" or "A-B-v,..." with hex A, B and decimal v, read from the literal's bytes.
        func parse(_ text: StaticString, fields: Int) -> [UInt32] {
            var out: [UInt32] = []
            var value: UInt32 = 0
            var field = 0
            let bytes = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "-"), UInt8(ascii: ","):
                    out.append(value)
                    value = 0
                    field = byte == UInt8(ascii: ",") ? 0 : field + 1
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    value = value * (field == 2 ? 10 : 16) + UInt32(byte - 0x30)
                default:
                    value = value * 16 + UInt32((byte | 0x20) - 0x61 + 10)
                }
            }
            out.append(value)
            precondition(out.count % fields == 0)
            return out
        }
        decimal = parse(_Metadata.decimalRanges, fields: 2)
        alnum = parse(_Metadata.alnumRanges, fields: 2)
        digits = parse(_Metadata.digitRuns, fields: 3)
        // Decimal digits come in runs of ten from 0 to 9; in the BMP each run lies in one block
        // of 16 (it starts at nibble 0 or 6), so a block's start nibble gives every value.
        var blocks = [UInt8](repeating: Self.noDigits, count: 0x1000)
        for k in stride(from: 0, to: decimal.count, by: 2) where decimal[k] < 0x10000 {
            let (first, last) = (decimal[k], min(decimal[k + 1], 0xFFFF))
            let block = Int(first >> 4)
            if last &- first == 9, Int(last >> 4) == block, blocks[block] == Self.noDigits {
                blocks[block] = UInt8(first & 15)
            } else {
                for b in block...Int(last >> 4) { blocks[b] = Self.searchBlock }
            }
        }
        decimalBlocks = blocks
        var met = [Bool](repeating: false, count: 0x1000)
        for k in stride(from: 0, to: digits.count, by: 3) where digits[k] < 0x10000 {
            for b in Int(digits[k] >> 4)...Int(min(digits[k + 1], 0xFFFF) >> 4) { met[b] = true }
        }
        digitBlocks = met
    }

    /// The decimal value of `value` (not ASCII) from the block table: nil for none, `searchBlock`
    /// (as a value) when the table cannot say. One load and no search: a binary search's
    /// comparisons are coin flips, about three mispredicted branches per character, and input
    /// in another script has one character of it per digit.
    @inline(__always)
    private func blockDecimal(_ value: UInt32) -> UInt8? {
        guard value < 0x10000 else { return Self.searchBlock }
        let start = decimalBlocks[Int(value &>> 4)]
        if start == Self.searchBlock { return Self.searchBlock }
        // With no run in the block (0xFF) the difference wraps and is never below 10.
        let digit = (value & 15) &- UInt32(start)
        return digit < 10 ? UInt8(truncatingIfNeeded: digit) : nil
    }

    /// Index of the range containing `value` in a flattened table with `stride` words per entry.
    private func find(_ table: [UInt32], _ stride: Int, _ value: UInt32) -> Int? {
        var lo = 0, hi = table.count / stride
        while lo < hi {
            let mid = (lo + hi) / 2
            if table[mid * stride + 1] < value { lo = mid + 1 } else { hi = mid }
        }
        return lo < table.count / stride && table[lo * stride] <= value ? lo : nil
    }

    /// Whether `re`'s `\d` matches (Unicode Nd). ASCII never touches the tables.
    @inline(__always)
    static func isDecimal(_ c: Unicode.Scalar) -> Bool {
        // ASCII without building an optional value (its test would be one more branch).
        if c.value < 0x80 { return c.value &- 0x30 < 10 }
        return decimalDigitValue(c) != nil
    }

    /// `unicodedata.digit`: the digit value or nil.
    @inline(__always)
    static func digitValue(_ c: Unicode.Scalar) -> UInt8? {
        if c.value < 0x80 { return c.value &- 0x30 < 10 ? UInt8(c.value - 0x30) : nil }
        // A decimal digit's digit value is its decimal value; a block that no range of digits
        // meets has none.
        let shared = shared
        let decimal = shared.blockDecimal(c.value)
        if decimal != searchBlock {
            if decimal != nil || (c.value < 0x10000 && !shared.digitBlocks[Int(c.value &>> 4)]) { return decimal }
        }
        return digitValueBySearch(c)
    }

    /// ``digitValue(_:)`` by a search of the ranges alone (the block tables' fallback and oracle).
    static func digitValueBySearch(_ c: Unicode.Scalar) -> UInt8? {
        if c.value < 0x80 { return c.value &- 0x30 < 10 ? UInt8(c.value - 0x30) : nil }
        let table = shared.digits
        guard let i = shared.find(table, 3, c.value) else { return nil }
        return UInt8(table[i * 3 + 2] + (c.value - table[i * 3]))
    }

    /// The value of a decimal digit (Unicode Nd, what `re`'s `\d` matches), nil for anything else.
    ///
    /// In the BMP from the block table; elsewhere one search: every range of `\d` is made of
    /// whole runs of ten from 0 to 9 (Unicode keeps decimal digits so), so the value is the
    /// distance from the range's first character, mod 10.
    @inline(__always)
    static func decimalDigitValue(_ c: Unicode.Scalar) -> UInt8? {
        if c.value < 0x80 { return c.value &- 0x30 < 10 ? UInt8(c.value - 0x30) : nil }
        let decimal = shared.blockDecimal(c.value)
        if decimal != searchBlock { return decimal }
        return decimalDigitValueBySearch(c)
    }

    /// ``decimalDigitValue(_:)`` by a search of the ranges alone (the block table's fallback
    /// and oracle).
    static func decimalDigitValueBySearch(_ c: Unicode.Scalar) -> UInt8? {
        if c.value < 0x80 { return c.value &- 0x30 < 10 ? UInt8(c.value - 0x30) : nil }
        let table = shared.decimal
        guard let i = shared.find(table, 2, c.value) else { return nil }
        return UInt8((c.value - table[i * 2]) % 10)
    }

    /// `str.isalnum`.
    @inline(__always)
    static func isAlnum(_ c: Unicode.Scalar) -> Bool {
        if c.value < 0x80 {
            let v = c.value
            return v &- 0x30 < 10 || (v | 0x20) &- 0x61 < 26
        }
        return shared.find(shared.alnum, 2, c.value) != nil
    }
}

/// Fixed character sets of libphonenumber's parser (phonenumberutil.py), matched with its
/// IGNORECASE flag where the pattern has it.
enum _Chars {
    @inline(__always)
    static func isPlus(_ c: Unicode.Scalar) -> Bool { c == "+" || c == "\u{FF0B}" }

    /// `_VALID_PUNCTUATION` under IGNORECASE (so `X` and `Ｘ` too).
    static func isPunctuation(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x2D, 0x78, 0x58, 0x20, 0x28, 0x29, 0x2E, 0x5B, 0x5D, 0x2F, 0x7E: return true  // - x X space ( ) . [ ] / ~
        case 0x2010...0x2015, 0x2212, 0x30FC, 0xFF0D...0xFF0F: return true
        case 0x00A0, 0x00AD, 0x200B, 0x2060, 0x3000, 0xFF08, 0xFF09, 0xFF3B, 0xFF3D, 0x2053, 0x223C, 0xFF5E: return true
        default: return false
        }
    }

    /// `_VALID_ALPHA`: ASCII letters.
    @inline(__always)
    static func isAlpha(_ c: Unicode.Scalar) -> Bool { (c.value | 0x20) &- 0x61 < 26 && c.value < 0x80 }

    /// `[A-Za-z]` under Python's IGNORECASE: also `İ`, `ı`, `ſ` and the Kelvin sign, which fold
    /// to ASCII letters.
    @inline(__always)
    static func isAlphaIgnoringCase(_ c: Unicode.Scalar) -> Bool {
        isAlpha(c) || c.value == 0x130 || c.value == 0x131 || c.value == 0x17F || c.value == 0x212A
    }
}

extension _Chars {
    /// Simple case folding for the letters of libphonenumber's extension labels, with the extra
    /// equivalences of Python's `re` IGNORECASE (`ı`, `İ` ~ `i`; `ſ` ~ `s`).
    @inline(__always)
    static func fold(_ c: Unicode.Scalar) -> UInt32 {
        let v = c.value
        // ASCII (nearly every label) in one range test, no branch; the switch tests its cases
        // in turn.
        if v < 0x80 { return v &- 0x41 < 26 ? v | 0x20 : v }
        switch v {
        case 0x130, 0x131: return 0x69
        case 0x17F: return 0x73
        case 0xC0...0xDE where v != 0xD7: return v + 0x20
        case 0x410...0x42F: return v + 0x20
        case 0xFF21...0xFF3A: return v + 0x20
        default: return v
        }
    }
}
