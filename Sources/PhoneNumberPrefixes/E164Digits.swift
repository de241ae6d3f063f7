import PhoneNumbers

/// The leading digits of a number's E.164 form without "+": the country calling code, the
/// national significant number's leading zeros, then the national number, as libphonenumber's
/// prefix mappers (time zones, carriers) read them. Built from ``PhoneNumber``'s public fields,
/// without allocating.
///
/// Holds at most ``capacity`` digits, the longest prefix of any table.
package struct E164Digits: Sendable {
    /// How many leading digits are kept.
    package static let capacity = 9

    /// The digits, four bits each, the first in the lowest bits.
    private var packed: UInt64 = 0
    /// How many digits are held (at most ``capacity``).
    package private(set) var count: Int = 0

    /// The leading digits of `number`'s E.164 form, or nil when its country calling code is not
    /// in 1...999 (no table has a prefix for it).
    package init?(_ number: PhoneNumber) {
        let countryCode = number.countryCode
        guard countryCode >= 1, countryCode <= 999 else { return nil }
        append(UInt64(countryCode))
        var zeros = number.leadingZeros
        while zeros > 0, count < Self.capacity {
            count &+= 1  // a zero digit: its bits are already 0
            zeros &-= 1
        }
        append(number.nationalNumber)
    }

    /// The country calling code's digits alone (libphonenumber's country-level time zones).
    package init?(countryCode: Int) {
        guard countryCode >= 1, countryCode <= 999 else { return nil }
        append(UInt64(countryCode))
    }

    /// The digit at `index` (0 ..< count).
    @inline(__always)
    package subscript(index: Int) -> Int {
        Int(truncatingIfNeeded: (packed >> UInt64(4 &* index)) & 0xF)
    }

    /// Appends the decimal digits of `value` ("0" for zero, as `String(value)` writes it), as
    /// many as fit. Counts digits by comparison and divides only by the constant 10 (a multiply),
    /// in plain loops: a division by a variable power of ten costs some 30 cycles, and a
    /// `for` over a range here compiled to generic index calls.
    private mutating func append(_ value: UInt64) {
        var length = 1
        var bound: UInt64 = 10
        while length < 20, value >= bound {
            length &+= 1
            bound = bound &* 10  // reaches 10^19 at most, below UInt64.max
        }
        let keep = min(length, Self.capacity &- count)
        guard keep > 0 else { return }
        var rest = value
        var drop = length &- keep
        while drop > 0 {
            rest /= 10
            drop &-= 1
        }
        var position = count &+ keep &- 1
        var remaining = keep
        while remaining > 0 {
            packed |= (rest % 10) << UInt64(truncatingIfNeeded: 4 &* position)
            rest /= 10
            position &-= 1
            remaining &-= 1
        }
        count &+= keep
    }
}
