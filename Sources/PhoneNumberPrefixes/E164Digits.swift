import PhoneNumbers

/// The leading digits of a number's E.164 form without "+": the country calling code, the
/// national significant number's leading zeros, then the national number, as libphonenumber's
/// prefix mappers (time zones, carriers) read them. Built from ``PhoneNumber``'s public fields,
/// without allocating.
///
/// Holds at most ``capacity`` digits, which is more than the longest prefix of any table.
package struct E164Digits: Sendable {
    /// How many leading digits are kept.
    package static let capacity = 16

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
            append(digit: 0)
            zeros -= 1
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

    private mutating func append(digit: UInt64) {
        guard count < Self.capacity else { return }
        packed |= digit << UInt64(4 &* count)
        count &+= 1
    }

    /// Appends the decimal digits of `value` ("0" for zero, as `String(value)` writes it), as
    /// many as fit. Divides only by the constant 10, which compiles to a multiplication: a
    /// division by a variable power of ten costs some 30 cycles each.
    private mutating func append(_ value: UInt64) {
        var length = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            length &+= 1
        }
        let keep = min(length, Self.capacity &- count)
        guard keep > 0 else { return }
        rest = value
        for _ in 0 ..< length &- keep { rest /= 10 }
        var position = count &+ keep &- 1
        for _ in 0 ..< keep {
            packed |= (rest % 10) << UInt64(4 &* position)
            rest /= 10
            position &-= 1
        }
        count &+= keep
    }
}
