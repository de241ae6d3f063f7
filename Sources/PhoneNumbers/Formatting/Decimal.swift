// Decimal printing of unsigned integers, shared by every writer of numbers (E.164, the formats).

/// Writes the `digits` decimal digits of `value` at `out`, two at a time.
@inline(__always)
func _writeDecimal(_ value: UInt64, digits: Int, to out: UnsafeMutablePointer<UInt8>) {
    let pairs = _decimalPairs.utf8Start
    var v = value
    var i = digits
    while i >= 2 {
        let (q, r) = v.quotientAndRemainder(dividingBy: 100)
        i &-= 2
        out[i] = pairs[2 &* Int(r)]
        out[i &+ 1] = pairs[2 &* Int(r) &+ 1]
        v = q
    }
    if i == 1 { out[0] = UInt8(truncatingIfNeeded: v) &+ 0x30 }
}

/// The 16 decimal digits of `value` (< 10^16), zero-padded, as ASCII bytes in memory order.
@inline(__always)
func _decimal16(_ value: UInt64) -> (UInt64, UInt64) {
    let high = value / 100_000_000
    return (_decimal8(UInt32(truncatingIfNeeded: high)),
            _decimal8(UInt32(truncatingIfNeeded: value &- high &* 100_000_000)))
}

/// The 8 decimal digits of `x` (< 10^8), zero-padded, as ASCII bytes in memory order (first digit
/// in the lowest byte): four digits per 32-bit lane, split into hundreds per 16-bit lane and into
/// tens per byte with multiply-shift divisions. No branch, no table: a loop over the digits costs a
/// mispredicted exit whenever the count changes from one number to the next.
@inline(__always)
func _decimal8(_ x: UInt32) -> UInt64 {
    let merged = UInt64(x / 10_000) | UInt64(x % 10_000) << 32
    // x * 10486 >> 20 == x / 100 for x < 10,000; x * 103 >> 10 == x / 10 for x < 100.
    let top = ((merged &* 10486) >> 20) & 0x0000_007F_0000_007F
    let hundreds = (merged &- 100 &* top) << 16 &+ top
    var tens = ((hundreds &* 103) >> 10) & 0x000F_000F_000F_000F
    tens &+= (hundreds &- 10 &* tens) << 8
    return (tens | 0x3030_3030_3030_3030).littleEndian
}

/// "00" "01" ... "99": two digits per division.
private var _decimalPairs: StaticString {
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
}

/// The number of decimal digits of `value` (1 for 0).
///
/// log10 from the bit length (1233 / 4096 ≈ log10 2), corrected by one comparison: no loop.
/// `value | 1` has as many digits as `value`, and 1 for 0.
@inline(__always)
func _decimalDigitCount(_ value: UInt64) -> Int {
    let value = value | 1
    let bits = 64 &- value.leadingZeroBitCount
    let estimate = (bits &* 1233) &>> 12
    return estimate &+ (value >= _powerOfTen(estimate) ? 1 : 0)
}

/// 10^exponent for 0...19, from a constant table (statically initialized: no lazy-init check).
/// Not a `switch`: that compiles to an indirect jump per call, mispredicted whenever the digit
/// count changes from one number to the next.
@inline(__always)
func _powerOfTen(_ exponent: Int) -> UInt64 {
    _powersOfTen[exponent]
}

private let _powersOfTen: [UInt64] = [
    1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
    10_000_000_000, 100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000,
    1_000_000_000_000_000, 10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000,
    10_000_000_000_000_000_000,
]
