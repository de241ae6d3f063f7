/// Writes one output record into a buffer the caller sized for it, with no capacity or
/// uniqueness checks per field (unlike appending to an Array piece by piece).
struct _ByteWriter {
    private let base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0

    /// `buffer` must have room for everything written (``_RecordFormatter`` sizes it from the
    /// input's length).
    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        base = buffer.baseAddress!
    }

    var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    @inline(__always)
    mutating func byte(_ value: UInt8) {
        base[count] = value
        count &+= 1
    }

    @inline(__always)
    mutating func literal(_ text: StaticString) {
        let p = text.utf8Start
        for k in 0..<text.utf8CodeUnitCount { base[count &+ k] = p[k] }
        count &+= text.utf8CodeUnitCount
    }

    @inline(__always)
    mutating func bytes(_ source: UnsafeBufferPointer<UInt8>) {
        for k in 0..<source.count { base[count &+ k] = source[k] }
        count &+= source.count
    }

    /// A String's bytes (names and raw values: ASCII, nothing to escape).
    @inline(__always)
    mutating func raw(_ text: String) {
        var text = text
        text.withUTF8 { bytes($0) }
    }

    @inline(__always)
    mutating func quoted(_ text: String) {
        byte(UInt8(ascii: "\""))
        raw(text)
        byte(UInt8(ascii: "\""))
    }

    mutating func int(_ value: Int) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        var remaining = value.magnitude
        var digits = 1
        var limit: UInt = 10
        while digits < 20, remaining >= limit {
            digits &+= 1
            limit = limit &* 10
        }
        var k = count &+ digits
        count = k
        repeat {
            k &-= 1
            base[k] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining % 10)
            remaining /= 10
        } while remaining > 0
    }

    /// A quoted JSON string from valid UTF-8 (at most 6 bytes written per input byte, plus 2).
    mutating func jsonString(_ source: UnsafeBufferPointer<UInt8>) {
        byte(UInt8(ascii: "\""))
        for value in source {
            switch value {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): byte(UInt8(ascii: "\\")); byte(value)
            case UInt8(ascii: "\n"): byte(UInt8(ascii: "\\")); byte(UInt8(ascii: "n"))
            case UInt8(ascii: "\r"): byte(UInt8(ascii: "\\")); byte(UInt8(ascii: "r"))
            case UInt8(ascii: "\t"): byte(UInt8(ascii: "\\")); byte(UInt8(ascii: "t"))
            case 0..<0x20, 0x7F:
                literal("\\u00")
                let hex: StaticString = "0123456789abcdef"
                byte(hex.utf8Start[Int(value >> 4)])
                byte(hex.utf8Start[Int(value & 0xF)])
            default: byte(value)
            }
        }
        byte(UInt8(ascii: "\""))
    }

    /// A CSV field (RFC 4180): quoted when it holds a comma, quote, CR or LF, or starts or ends
    /// with a space; quotes doubled (at most 2 bytes per input byte, plus 2).
    mutating func csvField(_ source: UnsafeBufferPointer<UInt8>) {
        var needsQuotes = source.first == UInt8(ascii: " ") || source.last == UInt8(ascii: " ")
        if !needsQuotes {
            for value in source where value == UInt8(ascii: ",") || value == UInt8(ascii: "\"")
                || value == UInt8(ascii: "\n") || value == UInt8(ascii: "\r") {
                needsQuotes = true
                break
            }
        }
        guard needsQuotes else { bytes(source); return }
        byte(UInt8(ascii: "\""))
        for value in source {
            if value == UInt8(ascii: "\"") { byte(value) }
            byte(value)
        }
        byte(UInt8(ascii: "\""))
    }

    /// A TSV field: tab, LF, CR and backslash written as `\t`, `\n`, `\r`, `\\` (at most 2 bytes
    /// per input byte).
    mutating func tsvField(_ source: UnsafeBufferPointer<UInt8>) {
        for value in source {
            switch value {
            case UInt8(ascii: "\t"): byte(UInt8(ascii: "\\")); byte(UInt8(ascii: "t"))
            case UInt8(ascii: "\n"): byte(UInt8(ascii: "\\")); byte(UInt8(ascii: "n"))
            case UInt8(ascii: "\r"): byte(UInt8(ascii: "\\")); byte(UInt8(ascii: "r"))
            case UInt8(ascii: "\\"): byte(UInt8(ascii: "\\")); byte(UInt8(ascii: "\\"))
            default: byte(value)
            }
        }
    }
}
