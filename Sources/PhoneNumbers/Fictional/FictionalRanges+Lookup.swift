/// The table of fictional telephone number ranges compiled into the library, and its lookup.
///
/// The table is generated from `Resources/FictionalRanges/fictional_ranges.tsv`, which records for every
/// range its regulator, document and URL and what was checked. It covers the North American Numbering
/// Plan (555-0100 to 555-0199 behind every area code, the 555 test-number convention, toll-free
/// specifics), the United Kingdom (Ofcom's numbers for drama), Australia (ACMA's numbers for creative
/// works), Germany (the Bundesnetzagentur's drama numbers), and a few reported ranges for Sweden and
/// France. The generator compiles the table into comparisons, so a lookup reads no table at all.
///
/// Whether a number is fictional is independent of whether it is valid: Ofcom's 07700 900123 is not a
/// valid UK number, while NANP 555-0100 numbers are; both are found here. To ask about a parsed number,
/// use ``PhoneNumberEngine/fictionalRange(of:)``.
///
/// ```swift
/// for range in FictionalRanges.all where range.region == "GB" {
///     print(range.note)
/// }
/// ```
public enum FictionalRanges {
    /// Every range of the table, in table order.
    ///
    /// Exception rows of the table (numbers carved out of a wider range, such as 555-1212 directory
    /// assistance) are not ranges and are not listed.
    ///
    /// - Complexity: O(*r*) in the number of ranges.
    public static var all: [FictionalRange] {
        _rowData.indices.map { FictionalRange(_row: UInt16($0), kind: _rowData[$0].kind) }
    }

    /// Returns the fictional range that contains a national significant number, or `nil`.
    ///
    /// Exact ranges are tried before ranges with wildcard digits, so an exception or a more specific
    /// row wins over an any-area-code row. Works on any digits, valid numbers or not.
    ///
    /// - Parameters:
    ///   - countryCode: The country calling code, such as 1 or 44.
    ///   - digits: The national significant number as ASCII digits: no trunk prefix, no country code,
    ///     no separators. Anything that is not an ASCII digit, an empty number or more than 17 digits
    ///     matches nothing.
    /// - Returns: The matching range, or `nil`.
    /// - Complexity: O(*n*) in the number of digits; no allocation.
    package static func match<Digits: Collection<UInt8>>(
        countryCode: Int, nationalNumber digits: Digits
    ) -> FictionalRange? {
        var value: UInt64 = 0
        var length = 0
        for byte in digits {
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10, length < _maximumDigits else { return nil }
            value = value &* 10 &+ UInt64(digit)
            length &+= 1
        }
        guard length > 0 else { return nil }
        return _range(code: _lookupCode(countryCode: countryCode, length: length) { value })
    }

    /// Returns the fictional range that contains a national significant number given as its value and
    /// its number of digits (leading zeros included), or `nil`.
    ///
    /// This is the form a parsed number has: ``PhoneNumber/nationalNumber`` and its leading zeros.
    ///
    /// - Parameters:
    ///   - countryCode: The country calling code.
    ///   - value: The numeric value of the national significant number.
    ///   - length: Its number of digits, leading zeros included; 1 to 17, and at least the number of
    ///     digits of `value` (otherwise nothing matches).
    /// - Returns: The matching range, or `nil`.
    /// - Complexity: O(1); no allocation.
    package static func match(countryCode: Int, value: UInt64, length: Int) -> FictionalRange? {
        guard length > 0, length <= _maximumDigits, _decimalDigitCount(value) <= length else { return nil }
        return _range(code: _lookupCode(countryCode: countryCode, length: length) { value })
    }

    /// The range for a code of ``_lookupCode(countryCode:length:value:)``.
    @inline(__always)
    static func _range(code: Int) -> FictionalRange? {
        guard code >= 0 else { return nil }
        let kind: FictionalKind
        switch code & 3 {
        case 0: kind = .reservedForFiction
        case 1: kind = .nanp555Convention
        default: kind = .reported
        }
        return FictionalRange(_row: UInt16(truncatingIfNeeded: code >> 2), kind: kind)
    }

    /// The code for "no row contains the number".
    @inline(__always) static var _miss: Int { -2 }

    static var _maximumDigits: Int { 17 }
}
