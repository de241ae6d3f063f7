/// The table of fictional telephone number ranges compiled into the library, and its lookup.
///
/// The table is generated from `Resources/FictionalRanges/fictional_ranges.tsv`, which records for every
/// range its regulator, document and URL and what was checked. It covers the North American Numbering
/// Plan (555-0100 to 555-0199 behind every area code, the 555 test-number convention, toll-free
/// specifics), the United Kingdom (Ofcom's numbers for drama), Australia (ACMA's numbers for creative
/// works), Germany (the Bundesnetzagentur's drama numbers), and a few reported ranges for Sweden and
/// France.
///
/// Whether a number is fictional is independent of whether it is valid: Ofcom's 07700 900123 is not a
/// valid UK number, while NANP 555-0100 numbers are; both are found here.
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
    /// - Complexity: O(1); the array is built once.
    public static var all: [FictionalRange] { rows }

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
    /// - Complexity: O(*n*) in the number of digits plus O(log *r*) in the number of ranges; no
    ///   allocation.
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
        return match(countryCode: countryCode, value: value, length: length)
    }

    /// Returns the fictional range that contains a national significant number given as its value and
    /// its number of digits (leading zeros included), or `nil`.
    ///
    /// This is the form a parsed number has: `nationalNumber: UInt64` and its count of leading zeros.
    ///
    /// - Parameters:
    ///   - countryCode: The country calling code.
    ///   - value: The numeric value of the national significant number.
    ///   - length: Its number of digits, leading zeros included; 1 to 17.
    /// - Returns: The matching range, or `nil`.
    /// - Complexity: O(log *r*) in the number of ranges; no allocation.
    package static func match(countryCode: Int, value: UInt64, length: Int) -> FictionalRange? {
        let row = rowIndex(countryCode: countryCode, value: value, length: length)
        return row >= 0 ? rows[row] : nil
    }

    /// The index in ``rows`` of the range containing the number, or -1 when none does (including a
    /// match on an exception row).
    package static func rowIndex(countryCode: Int, value: UInt64, length: Int) -> Int {
        guard countryCode > 0, countryCode < 1000, length > 0, length <= _maximumDigits,
            value < _powersOfTen[length]
        else { return -1 }
        let base = UInt32(truncatingIfNeeded: countryCode) << 16 | UInt32(truncatingIfNeeded: length) << 8
        return groupKeys.withUnsafeBufferPointer { keys in
            // First group key >= base; groups of one (country code, length) are contiguous, exact first.
            var low = 0
            var high = keys.count
            while low < high {
                let middle = (low &+ high) &>> 1
                if keys[middle] < base { low = middle &+ 1 } else { high = middle }
            }
            var group = low
            while group < keys.count, keys[group] & 0xFFFF_FF00 == base {
                let wildcards = Int(keys[group] & 0xFF)
                let key = wildcards == 0 ? value : value % _powersOfTen[length &- wildcards]
                let bounds = groupBounds[group]
                let found = entries.withUnsafeBufferPointer { table in
                    _search(table, from: Int(bounds.start), to: Int(bounds.end), key: key)
                }
                if found != _notFound { return found }
                group &+= 1
            }
            return -1
        }
    }

    /// Binary search of one group: the row of the entry containing `key`, -1 for an exception row,
    /// `_notFound` when no entry contains it.
    @inline(__always)
    private static func _search(
        _ table: UnsafeBufferPointer<_FictionalRangeEntry>, from start: Int, to end: Int, key: UInt64
    ) -> Int {
        var low = start
        var high = end
        while low < high {
            let middle = (low &+ high) &>> 1
            if table[middle].last < key { low = middle &+ 1 } else { high = middle }
        }
        guard low < end, table[low].first <= key else { return _notFound }
        return Int(table[low].row)
    }

    private static let _maximumDigits = 17

    /// The number of decimal digits of `value` (1 for 0).
    static func _digitCount(_ value: UInt64) -> Int {
        _powersOfTen.withUnsafeBufferPointer { powers in
            var digits = 1
            while digits < powers.count, value >= powers[digits] { digits &+= 1 }
            return digits
        }
    }
    private static let _notFound = Int.min

    /// 10^0 ... 10^17.
    private static let _powersOfTen: [UInt64] = {
        var powers: [UInt64] = [1]
        for _ in 0..<_maximumDigits { powers.append(powers[powers.count - 1] * 10) }
        return powers
    }()
}
