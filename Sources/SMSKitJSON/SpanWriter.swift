@_spi(Tools) import PhoneNumbers

/// Writes one document, or one record of it, into memory the caller sized for it, with no
/// capacity or uniqueness checks per field (unlike appending to an Array piece by piece): the one
/// writer of the JSON, CSV, TSV and text bytes of the CLI's records and the service's answers.
/// Each method says how many bytes it may write at most; the caller reserves that much first.
@frozen
public struct SpanWriter {
    @usableFromInline let base: UnsafeMutablePointer<UInt8>
    /// Bytes written so far, from the start.
    public var count = 0

    /// `start` must have room for everything written.
    @inlinable
    public init(_ start: UnsafeMutablePointer<UInt8>) {
        base = start
    }

    /// `start` (bound to bytes) must have room for everything written.
    @inlinable
    public init(_ start: UnsafeMutableRawPointer) {
        base = start.assumingMemoryBound(to: UInt8.self)
    }

    @inlinable
    public var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    @inlinable @inline(__always)
    public mutating func byte(_ value: UInt8) {
        base[count] = value
        count &+= 1
    }

    /// A literal's bytes (a name, or a constant that folds to a fixed copy).
    @inlinable @inline(__always)
    public mutating func literal(_ text: StaticString) {
        copy(text.utf8Start, text.utf8CodeUnitCount)
    }

    @inlinable @inline(__always)
    public mutating func bytes(_ source: UnsafeBufferPointer<UInt8>) {
        guard let from = source.baseAddress else { return }
        copy(from, source.count)
    }

    /// Copies `n` bytes from a buffer that does not overlap this one, a word at a time: fields
    /// are mostly under 16 bytes, where a memmove call costs more than the copy.
    @inlinable @inline(__always)
    mutating func copy(_ from: UnsafePointer<UInt8>, _ n: Int) {
        let source = UnsafeRawPointer(from)
        let target = UnsafeMutableRawPointer(base + count)
        if n >= 8 {
            // Whole words, the last one overlapping the one before (unrolled for a literal).
            var offset = 0
            while offset &+ 8 < n {
                target.storeBytes(of: source.loadUnaligned(fromByteOffset: offset, as: UInt64.self), toByteOffset: offset, as: UInt64.self)
                offset &+= 8
            }
            target.storeBytes(of: source.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self), toByteOffset: n &- 8, as: UInt64.self)
        } else if n >= 4 {
            let head = source.loadUnaligned(as: UInt32.self)
            let tail = source.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
            target.storeBytes(of: head, as: UInt32.self)
            target.storeBytes(of: tail, toByteOffset: n &- 4, as: UInt32.self)
        } else {
            for k in 0..<n { base[count &+ k] = from[k] }
        }
        count &+= n
    }

    /// A String's bytes (names and raw values: ASCII, nothing to escape).
    @inlinable @inline(__always)
    public mutating func raw(_ text: String) {
        var text = text
        text.withUTF8 { bytes($0) }
    }

    @inlinable @inline(__always)
    public mutating func quoted(_ text: String) {
        byte(UInt8(ascii: "\""))
        raw(text)
        byte(UInt8(ascii: "\""))
    }

    /// A decimal integer (line numbers): two digits per division, from the last.
    @inlinable
    public mutating func int(_ value: Int) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        var rest = UInt64(value.magnitude)
        var digits = 1
        var power: UInt64 = 10
        while digits < 20, rest >= power {
            digits &+= 1
            power = power &* 10
        }
        let pairs = Self.decimalPairs.utf8Start
        var i = count &+ digits
        while rest >= 100 {
            let (q, r) = rest.quotientAndRemainder(dividingBy: 100)
            i &-= 2
            base[i] = pairs[2 &* Int(r)]
            base[i &+ 1] = pairs[2 &* Int(r) &+ 1]
            rest = q
        }
        if rest >= 10 {
            base[i &- 2] = pairs[2 &* Int(rest)]
            base[i &- 1] = pairs[2 &* Int(rest) &+ 1]
        } else {
            base[i &- 1] = UInt8(truncatingIfNeeded: rest) &+ 0x30
        }
        count &+= digits
    }

    /// "00" "01" ... "99".
    @inlinable
    static var decimalPairs: StaticString {
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
    }

    /// A number's E.164 form, written in place by the engine's writer (at most 64 bytes).
    @inlinable @inline(__always)
    public mutating func e164(of check: PhoneNumberCheck) {
        count &+= check.number?.writeE164(into: UnsafeMutableRawBufferPointer(start: base + count, count: 64)) ?? 0
    }

    /// A region's identifier (`US`, `001`), without making a String.
    @inline(__always)
    package mutating func region(_ region: RegionCode) {
        region.withIdentifierBytes { (identifier: UnsafeBufferPointer<UInt8>) -> Void in bytes(identifier) }
    }

    /// A quoted JSON string from valid UTF-8 (``JSONEscaping``: at most 6 bytes written per input
    /// byte, plus 2).
    @inlinable
    public mutating func jsonString(_ source: UnsafeBufferPointer<UInt8>) {
        // The usual phone number has nothing to escape: one scan, one word-wise copy.
        if !JSONEscaping.needsEscape(source) {
            byte(UInt8(ascii: "\""))
            bytes(source)
            byte(UInt8(ascii: "\""))
            return
        }
        count &+= JSONEscaping.writeQuoted(source, to: base + count)
    }

    /// A CSV field, quoted when ``CSVField/needsQuotes(_:)`` says so, quotes
    /// doubled (at most 2 bytes per input byte, plus 2).
    @inlinable
    public mutating func csvField(_ source: UnsafeBufferPointer<UInt8>) {
        let needsQuotes = CSVField.needsQuotes(source)
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
    @inlinable
    public mutating func tsvField(_ source: UnsafeBufferPointer<UInt8>) {
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
