/// A phone number in libphonenumber's model: a country calling code, a national number, the
/// leading zeros an Italian-style national number keeps, and an optional extension.
///
/// Values come from ``PhoneNumberEngine/parse(e164:)`` (and the other parsing entry points), or
/// from the memberwise initializer when you already hold the parts.
///
/// ```swift
/// let engine = PhoneNumberEngine()
/// let number = try engine.parse(e164: "+390612345678")
/// number.countryCode      // 39
/// number.nationalNumber   // 612345678
/// number.leadingZeros     // 1
/// ```
public struct PhoneNumber: Sendable, Hashable, Codable {
    /// The country calling code, e.g. 1, 44, 800.
    public var countryCode: Int
    /// The national number as an integer, without leading zeros.
    public var nationalNumber: UInt64
    /// How many zeros precede ``nationalNumber`` in the national significant number (Italy, ...).
    public var leadingZeros: Int
    /// The extension, digits only, or `nil`.
    public var `extension`: String?

    /// Creates a number from its parts.
    ///
    /// - Parameters:
    ///   - countryCode: The country calling code.
    ///   - nationalNumber: The national number without leading zeros.
    ///   - leadingZeros: Zeros that precede the national number (0 for most countries).
    ///   - extension: Extension digits, or `nil`.
    public init(countryCode: Int, nationalNumber: UInt64, leadingZeros: Int = 0, extension: String? = nil) {
        self.countryCode = countryCode
        self.nationalNumber = nationalNumber
        self.leadingZeros = leadingZeros
        self.extension = `extension`
    }

    /// The national significant number: the leading zeros, then the national number's digits.
    public var nationalSignificantNumber: String {
        withNationalSignificantNumber { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the national significant number as ASCII digits, without allocating.
    @inline(__always)
    func withNationalSignificantNumber<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var digits = _DigitString()
        digits.append(zeros: leadingZeros)
        digits.append(decimal: nationalNumber)
        return digits.withBuffer(body)
    }
}
