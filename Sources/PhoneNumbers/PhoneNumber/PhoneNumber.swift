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
    /// ``leadingZeros`` are read off them when asked (about 40 instructions). `.none` for a
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

    /// The national significant number's digits packed four bits each (`_NationalDigits`), for
    /// the command-line tool's record writer.
    package var _packedNationalDigits: UInt64 { _digits.packed }

    /// The national number and leading zeros of a number its digits do not hold (both 0
    /// otherwise), for the same writer.
    package var _longFields: (value: UInt64, zeros: Int) { (_longValue, _longZeros) }

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

/// A national significant number of 1 to 16 digits, one per four bits: digit k of a right-aligned
/// block of 16 in bits 4k...4k+3, and 0xF in the places before the first digit; all 0xF for any
/// other number (more digits, or fields no parse gives). One word, not the 16 ASCII bytes it
/// stands for: a `PhoneNumber` of more than six words is copied and destroyed through outlined
/// functions, which retain and release its extension (measured: +40 instructions per parse).
@usableFromInline
struct _NationalDigits: Equatable, Sendable {
    @usableFromInline var packed: UInt64

    /// The number of digits: the places of 0xF before the first, a digit (0...9) being never
    /// four one bits.
    @inline(__always)
    var count: Int { 16 &- (~packed).trailingZeroBitCount &>> 2 }

    /// The digits as 16 ASCII bytes in memory order (the first word holds the first bytes),
    /// right-aligned; the bytes before the first digit are not digits.
    @inline(__always)
    var block: (UInt64, UInt64) {
        (Self.unpack(UInt32(truncatingIfNeeded: packed)), Self.unpack(UInt32(truncatingIfNeeded: packed &>> 32)))
    }

    /// Eight nibbles to eight ASCII bytes, the first (lowest) nibble in the lowest byte.
    @inline(__always)
    static func unpack(_ nibbles: UInt32) -> UInt64 {
        spread(nibbles) | 0x3030_3030_3030_3030
    }

    /// Eight nibbles to eight bytes of their values, the first (lowest) nibble in the lowest byte.
    @inline(__always)
    static func spread(_ nibbles: UInt32) -> UInt64 {
        var x = UInt64(nibbles)
        x = (x | x &<< 16) & 0x0000_FFFF_0000_FFFF
        x = (x | x &<< 8) & 0x00FF_00FF_00FF_00FF
        return (x | x &<< 4) & 0x0F0F_0F0F_0F0F_0F0F
    }

    /// The places before the first digit (all 0xF) as a mask of one bits; 0 for 16 digits.
    @inline(__always)
    var _before: UInt64 { (1 &<< UInt64(4 &* (16 &- count))) &- 1 }

    /// The number the digits spell, leading zeros dropped (1 to 16 digits: below 10^16). Two
    /// words of one digit per byte, eight digits each by multiplies (`_eightDigits`).
    @inline(__always)
    var value: UInt64 {
        let digits = packed & ~_before
        let high = PhoneNumberEngine._eightDigits(Self.spread(UInt32(truncatingIfNeeded: digits)))
        let low = PhoneNumberEngine._eightDigits(Self.spread(UInt32(truncatingIfNeeded: digits &>> 32)))
        return high &* 100_000_000 &+ low
    }

    /// libphonenumber's Italian leading zeros: the zeros the digits start with, all but a last
    /// digit (1 to 16 digits).
    @inline(__always)
    var leadingZeros: Int {
        let count = count
        let digits = (packed & ~_before) &>> UInt64(4 &* (16 &- count))  // the first digit lowest
        return min(digits.trailingZeroBitCount &>> 2, count &- 1)
    }

    /// The low nibbles of eight bytes, the lowest byte's first.
    @inline(__always)
    static func pack(_ bytes: UInt64) -> UInt64 {
        var x = bytes & 0x0F0F_0F0F_0F0F_0F0F
        x = (x | x &>> 4) & 0x00FF_00FF_00FF_00FF
        x = (x | x &>> 8) & 0x0000_FFFF_0000_FFFF
        return (x | x &>> 16) & 0x0000_0000_FFFF_FFFF
    }

    /// From 16 right-aligned ASCII bytes of which the last `count` (1...16) are the digits.
    @inline(__always)
    init(block: (UInt64, UInt64), count: Int) {
        let before: UInt64 = (1 &<< UInt64(4 &* (16 &- count))) &- 1  // no shift of 64: count >= 1
        packed = (Self.pack(block.0) | Self.pack(block.1) &<< 32) | before
    }

    /// Not a number of 1 to 16 digits.
    static var none: _NationalDigits { _NationalDigits(packed: ~0) }

    @inline(__always)
    init(packed: UInt64) { self.packed = packed }

    /// The digits of `leadingZeros` zeros followed by `value`.
    @inline(__always)
    init(_ value: UInt64, leadingZeros: Int) {
        let count = _decimalDigitCount(value) &+ leadingZeros
        if leadingZeros >= 0, leadingZeros <= 16, count <= 16 {
            self.init(block: _decimal16(value), count: count)  // its leading "0" bytes are the zeros
        } else {
            self = .none
        }
    }

    /// The last 8 or fewer ASCII digits of a number: `last` holds the eight bytes that end with
    /// them (the first byte lowest), of which the highest `count` (1...8) are the digits.
    @inline(__always)
    init(last: UInt64, count: Int) {
        self.init(block: (0, last), count: count)
    }

    /// 9 to 16 ASCII digits: `first` holds the first eight, `last` the last eight.
    @inline(__always)
    init(first: UInt64, last: UInt64, count: Int) {
        self.init(block: (first &<< UInt64(8 &* (16 &- count)), last), count: count)
    }

    /// 1 to 16 ASCII digits read from memory (any other count: the empty value).
    @inline(__always)
    init(_ digits: UnsafeBufferPointer<UInt8>) {
        let n = digits.count
        guard n >= 1, n <= 16, let base = digits.baseAddress else {
            self = .none
            return
        }
        if n >= 8 {
            let last = PhoneNumberEngine._word(base, n &- 8)
            if n == 8 {
                self.init(block: (0, last), count: 8)
            } else {
                self.init(first: PhoneNumberEngine._word(base, 0), last: last, count: n)
            }
            return
        }
        // Fewer than eight: each digit enters at the top and moves down.
        var last: UInt64 = 0
        for digit in digits { last = last &>> 8 | UInt64(digit) &<< 56 }
        self.init(block: (0, last), count: n)
    }
}
