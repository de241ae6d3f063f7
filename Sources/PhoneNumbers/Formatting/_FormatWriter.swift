// Byte sinks for formatting: output is written once into a caller's buffer, and counted past its
// end so that the caller learns the exact size when the buffer was too small.

/// Writes bytes into a fixed buffer and counts every byte, including those that did not fit.
struct _FormatWriter {
    let base: UnsafeMutablePointer<UInt8>
    let capacity: Int
    /// Bytes written (or that would have been written).
    var count = 0

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        base = buffer.baseAddress!
        capacity = buffer.count
    }

    /// Whether everything written fits in the buffer.
    var fits: Bool { count <= capacity }

    @inline(__always)
    mutating func write(_ byte: UInt8) {
        if count < capacity { base[count] = byte }
        count &+= 1
    }

    @inline(__always)
    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        for byte in bytes { write(byte) }
    }

    mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { write($0) }
    }

    /// Writes an integer in decimal, with a minus sign when negative (Java's `String.valueOf`).
    mutating func write(decimal value: Int) {
        if value < 0 { write(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var divisor: UInt = 1
        while magnitude / divisor >= 10 { divisor &*= 10 }
        while divisor > 0 {
            write(UInt8(truncatingIfNeeded: magnitude / divisor) &+ 0x30)
            magnitude %= divisor
            divisor /= 10
        }
    }
}

/// The national part of a formatted number. For RFC 3966 it applies libphonenumber's rewrite on
/// the fly: a leading run of separators is dropped and every other run becomes one `-`.
struct _NationalSink {
    let rfc3966: Bool
    /// Nothing but separators seen yet (RFC 3966 only).
    var atStart = true
    /// A run of separators waits to be written as `-` (RFC 3966 only).
    var pendingDash = false

    init(rfc3966: Bool) { self.rfc3966 = rfc3966 }

    /// Writes one Unicode scalar given as its UTF-8 bytes.
    @inline(__always)
    mutating func write(scalar bytes: UnsafeBufferPointer<UInt8>, into writer: inout _FormatWriter) {
        guard rfc3966 else { return writer.write(bytes) }
        if _isSeparator(bytes) {
            if !atStart { pendingDash = true }
            return
        }
        flushDash(into: &writer)
        atStart = false
        writer.write(bytes)
    }

    /// Writes an ASCII digit (never a separator).
    @inline(__always)
    mutating func write(digit: UInt8, into writer: inout _FormatWriter) {
        if rfc3966 {
            flushDash(into: &writer)
            atStart = false
        }
        writer.write(digit)
    }

    /// Ends the national part: a trailing run of separators still becomes `-`, as in
    /// libphonenumber.
    mutating func finish(into writer: inout _FormatWriter) {
        flushDash(into: &writer)
    }

    @inline(__always)
    private mutating func flushDash(into writer: inout _FormatWriter) {
        if pendingDash {
            writer.write(UInt8(ascii: "-"))
            pendingDash = false
        }
    }
}

/// Whether a scalar (its UTF-8 bytes) is in libphonenumber's `VALID_PUNCTUATION`, the class its
/// RFC 3966 formatting treats as separators.
@inline(__always)
func _isSeparator(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = bytes.first else { return false }
    if first < 0x80 {
        switch first {
        case UInt8(ascii: "-"), UInt8(ascii: "x"), UInt8(ascii: " "), UInt8(ascii: "("), UInt8(ascii: ")"),
             UInt8(ascii: "."), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "/"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
    var scalar = UInt32(0)
    switch bytes.count {
    case 2: scalar = UInt32(first & 0x1F) << 6 | UInt32(bytes[1] & 0x3F)
    case 3: scalar = UInt32(first & 0x0F) << 12 | UInt32(bytes[1] & 0x3F) << 6 | UInt32(bytes[2] & 0x3F)
    default: return false
    }
    switch scalar {
    case 0x2010...0x2015, 0x2212, 0x30FC, 0xFF0D...0xFF0F, 0x00A0, 0x00AD, 0x200B, 0x2060, 0x3000,
         0xFF08, 0xFF09, 0xFF3B, 0xFF3D, 0x2053, 0x223C, 0xFF5E:
        return true
    default:
        return false
    }
}

/// The length of the UTF-8 sequence that starts with `lead` (1 for a stray continuation byte).
@inline(__always)
func _utf8SequenceLength(_ lead: UInt8) -> Int {
    if lead < 0xC0 { return 1 }
    if lead < 0xE0 { return 2 }
    if lead < 0xF0 { return 3 }
    return 4
}
