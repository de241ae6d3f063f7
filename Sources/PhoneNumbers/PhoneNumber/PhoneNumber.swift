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
    public var nationalNumber: UInt64 {
        @inline(__always) get { _digits.count != 0 ? _digits.value : _longValue }
        set { _setNational(newValue, leadingZeros: leadingZeros) }
    }
    /// How many zeros precede ``nationalNumber`` in the national significant number (Italy, ...).
    public var leadingZeros: Int {
        @inline(__always) get { _digits.count != 0 ? _digits.leadingZeros : _longZeros }
        set { _setNational(nationalNumber, leadingZeros: newValue) }
    }
    /// The extension, digits only, or `nil`.
    public var `extension`: String?
    /// The national significant number's digits: what validation walks and E.164 copies, so
    /// parsing stores them as it reads them and derives nothing else; ``nationalNumber`` and
    /// ``leadingZeros`` are read off them when asked, which is rare. `.none` for a
    /// national significant number of more than 16 digits or fields no parse gives, whose
    /// national number and leading zeros are then `_longValue` and `_longZeros` (both 0
    /// otherwise, so that comparing the stored fields compares the numbers).
    @usableFromInline var _digits: _NationalDigits
    @usableFromInline var _longValue: UInt64
    @usableFromInline var _longZeros: Int

    /// Creates a number from its parts.
    ///
    /// - Parameters:
    ///   - countryCode: The country calling code.
    ///   - nationalNumber: The national number without leading zeros.
    ///   - leadingZeros: Zeros that precede the national number (0 for most countries).
    ///   - extension: Extension digits, or `nil`.
    public init(countryCode: Int, nationalNumber: UInt64, leadingZeros: Int = 0, extension: String? = nil) {
        self.countryCode = countryCode
        self.extension = `extension`
        self._digits = .none
        self._longValue = 0
        self._longZeros = 0
        _setNational(nationalNumber, leadingZeros: leadingZeros)
    }

    /// A parsed number of 1 to 16 national digits.
    @inline(__always)
    init(countryCode: Int, digits: _NationalDigits, extension: String?) {
        assert(digits.count != 0, "no digits")
        self.countryCode = countryCode
        self.extension = `extension`
        self._digits = digits
        self._longValue = 0
        self._longZeros = 0
    }

    /// Stores a national number and its leading zeros: as digits when there are 16 or fewer.
    mutating func _setNational(_ value: UInt64, leadingZeros: Int) {
        _digits = _NationalDigits(value, leadingZeros: leadingZeros)
        let long = _digits.count == 0
        _longValue = long ? value : 0
        _longZeros = long ? leadingZeros : 0
    }

    enum CodingKeys: String, CodingKey {
        case countryCode, nationalNumber, leadingZeros, `extension`
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(countryCode: try container.decode(Int.self, forKey: .countryCode),
                  nationalNumber: try container.decode(UInt64.self, forKey: .nationalNumber),
                  leadingZeros: try container.decode(Int.self, forKey: .leadingZeros),
                  extension: try container.decodeIfPresent(String.self, forKey: .extension))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(countryCode, forKey: .countryCode)
        try container.encode(nationalNumber, forKey: .nationalNumber)
        try container.encode(leadingZeros, forKey: .leadingZeros)
        try container.encodeIfPresent(`extension`, forKey: .extension)
    }

    /// Equal when the country code, national number, leading zeros and extension are: the
    /// stored fields hold exactly those (the digits are a one-to-one form of the other two).
    public static func == (a: PhoneNumber, b: PhoneNumber) -> Bool {
        a.countryCode == b.countryCode && a._digits.packed == b._digits.packed && a._longValue == b._longValue
            && a._longZeros == b._longZeros && a.extension == b.extension
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(countryCode)
        hasher.combine(_digits.packed)
        hasher.combine(_longValue)
        hasher.combine(_longZeros)
        hasher.combine(`extension`)
    }

    /// The national significant number: the leading zeros, then the national number's digits.
    public var nationalSignificantNumber: String {
        withNationalSignificantNumber { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the national significant number as ASCII digits, without allocating.
    @inline(__always)
    func withNationalSignificantNumber<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        // Every parsed number (17 digits at most, nearly all 16 or fewer): its digits are at hand.
        let count = _digits.count
        if count != 0 {
            return withUnsafeBytes(of: _digits.block) { raw in
                body(UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + (16 &- count), count: count))
            }
        }
        return _withLongNationalSignificantNumber(body)
    }

    /// ``withNationalSignificantNumber(_:)`` for more than 16 digits.
    func _withLongNationalSignificantNumber<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        // At most 20 digits of value and a few leading zeros; 32 bytes on the stack.
        var storage: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        let digits = _decimalDigitCount(nationalNumber)
        let zeros = min(max(leadingZeros, 0), 32 &- digits)
        return withUnsafeMutableBytes(of: &storage) { raw in
            let p = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            for k in 0..<zeros { p[k] = 0x30 }
            _writeDecimal(nationalNumber, digits: digits, to: p + zeros)
            return body(UnsafeBufferPointer(start: p, count: zeros &+ digits))
        }
    }
}
