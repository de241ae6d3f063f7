/// Byte scans of a record's fields eight bytes at a time (SWAR), for the checks that every
/// record goes through and that almost every record passes.
///
/// Each test is exact as a yes/no answer: `(x - 0x01…01 * n) & ~x & 0x80…80` is non-zero exactly
/// when some byte of `x` is below `n` (for `n` ≤ 0x80), and a byte equal to `c` is a zero byte
/// of `x ^ (0x01…01 * c)`. Inputs of eight bytes or more are read as words, the last one
/// overlapping the one before; shorter ones byte by byte.
enum _Scan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    @inline(__always)
    private static func hasByteBelow(_ x: UInt64, _ n: UInt64) -> Bool {
        (x &- ones &* n) & ~x & highs != 0
    }

    @inline(__always)
    private static func hasByte(_ x: UInt64, equalTo c: UInt64) -> Bool {
        hasByteBelow(x ^ (ones &* c), 1)
    }

    /// Whether `word` holds a byte that JSON escapes: a control character, `"`, `\` or DEL.
    @inline(__always)
    private static func needsJSONEscape(_ word: UInt64) -> Bool {
        hasByteBelow(word, 0x20) || hasByte(word, equalTo: 0x22) || hasByte(word, equalTo: 0x5C) || hasByte(word, equalTo: 0x7F)
    }

    @inline(__always)
    private static func needsJSONEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F
    }

    /// Whether any byte of `bytes` needs a JSON escape.
    static func anyNeedsJSONEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let count = bytes.count
        if count < 8 {
            for k in 0..<count where needsJSONEscape(base[k]) { return true }
            return false
        }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        while offset &+ 8 < count {
            if needsJSONEscape(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) { return true }
            offset &+= 8
        }
        return needsJSONEscape(raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
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
