/// JSON string escaping, for every JSON the package writes: quote, backslash, the control
/// characters and DEL are escaped (`\n`, `\r`, `\t` by name, the rest as `\u00XX`); everything
/// else, valid UTF-8 as every Swift string is, is copied as it is.
public enum JSONEscaping {
    /// The most bytes ``writeQuoted(_:to:)`` writes for `count` source bytes: six a byte
    /// (`\u00XX`) and the two quotes.
    @inlinable
    public static func maximumQuotedCount(_ count: Int) -> Int { count &* 6 &+ 2 }

    /// Writes `"source"`, escaped, at `target`, which must have room for
    /// ``maximumQuotedCount(_:)`` bytes; returns the number of bytes written.
    @inlinable
    public static func writeQuoted(_ source: UnsafeBufferPointer<UInt8>, to target: UnsafeMutablePointer<UInt8>) -> Int {
        target[0] = UInt8(ascii: "\"")
        var count = 1
        // The usual text has nothing to escape: one scan, one copy.
        if !needsEscape(source) {
            if let base = source.baseAddress { (target + 1).update(from: base, count: source.count) }
            count &+= source.count
            target[count] = UInt8(ascii: "\"")
            return count &+ 1
        }
        let hex: StaticString = "0123456789abcdef"
        for value in source {
            switch value {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                target[count] = UInt8(ascii: "\\"); target[count &+ 1] = value; count &+= 2
            case UInt8(ascii: "\n"):
                target[count] = UInt8(ascii: "\\"); target[count &+ 1] = UInt8(ascii: "n"); count &+= 2
            case UInt8(ascii: "\r"):
                target[count] = UInt8(ascii: "\\"); target[count &+ 1] = UInt8(ascii: "r"); count &+= 2
            case UInt8(ascii: "\t"):
                target[count] = UInt8(ascii: "\\"); target[count &+ 1] = UInt8(ascii: "t"); count &+= 2
            case 0..<0x20, 0x7F:
                target[count] = UInt8(ascii: "\\"); target[count &+ 1] = UInt8(ascii: "u")
                target[count &+ 2] = UInt8(ascii: "0"); target[count &+ 3] = UInt8(ascii: "0")
                target[count &+ 4] = hex.utf8Start[Int(value >> 4)]
                target[count &+ 5] = hex.utf8Start[Int(value & 0xF)]
                count &+= 6
            default:
                target[count] = value; count &+= 1
            }
        }
        target[count] = UInt8(ascii: "\"")
        return count &+ 1
    }

    /// Appends `"text"`, escaped.
    package static func appendQuoted(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendQuoted(bytes: $0, to: &out) }
    }

    /// Appends the quoted, escaped form of valid UTF-8 bytes.
    package static func appendQuoted(bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        let start = out.count
        let most = maximumQuotedCount(bytes.count)
        out.append(contentsOf: repeatElement(0, count: most))
        let written = out.withUnsafeMutableBufferPointer { writeQuoted(bytes, to: $0.baseAddress! + start) }
        out.removeLast(most - written)
    }

    /// Whether any byte of `bytes` needs an escape, eight bytes at a time: `(x - 0x01…01 * n) &
    /// ~x & 0x80…80` is non-zero exactly when some byte of `x` is below `n` (for `n` ≤ 0x80), and
    /// a byte equal to `c` is a zero byte of `x ^ (0x01…01 * c)`.
    @inlinable
    public static func needsEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let count = bytes.count
        if count < 8 {
            for k in 0..<count where needsEscape(base[k]) { return true }
            return false
        }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        while offset &+ 8 < count {
            if needsEscape(word: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) { return true }
            offset &+= 8
        }
        return needsEscape(word: raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
    }

    @inlinable
    public static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F
    }

    @inlinable
    public static func needsEscape(word x: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasByteBelow(_ x: UInt64, _ n: UInt64) -> Bool { (x &- ones &* n) & ~x & highs != 0 }
        return hasByteBelow(x, 0x20) || hasByteBelow(x ^ (ones &* 0x22), 1) || hasByteBelow(x ^ (ones &* 0x5C), 1)
            || hasByteBelow(x ^ (ones &* 0x7F), 1)
    }
}
