/// A national significant number of 1 to 16 digits, one per four bits: digit k of a right-aligned
/// block of 16 in bits 4k...4k+3, and 0xF in the places before the first digit; all 0xF for any
/// other number (more digits, or fields no parse gives). One word, not the 16 ASCII bytes it
/// stands for: a `PhoneNumber` of more than six words is copied and destroyed through outlined
/// functions, which retain and release its extension on every parse.
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
