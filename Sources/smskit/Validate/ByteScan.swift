/// Byte scans of a record's fields eight bytes at a time (SWAR), for the checks that every
/// record goes through and that almost every record passes (the JSON escape scan is
/// `JSONEscaping.needsEscape`).
///
/// Each test is exact as a yes/no answer: `(x - 0x01…01 * n) & ~x & 0x80…80` is non-zero exactly
/// when some byte of `x` is below `n` (for `n` ≤ 0x80). Inputs of eight bytes or more are read as
/// words, the last one overlapping the one before; shorter ones byte by byte.
enum _Scan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    @inline(__always)
    private static func hasByteBelow(_ x: UInt64, _ n: UInt64) -> Bool {
        (x &- ones &* n) & ~x & highs != 0
    }

    /// Whether every byte of `bytes` is ASCII and none is NUL (the usual number field).
    static func isASCIIWithoutNUL(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        if count < 8 {
            for k in 0..<count where base[k] == 0 || base[k] >= 0x80 { return false }
            return true
        }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        while offset &+ 8 < count {
            let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            if word & highs != 0 || hasByteBelow(word, 1) { return false }
            offset &+= 8
        }
        let word = raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        return word & highs == 0 && !hasByteBelow(word, 1)
    }
}
