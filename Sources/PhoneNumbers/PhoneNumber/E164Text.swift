/// A number's E.164 form held inline, without a heap allocation: "+", the country calling code and
/// the national significant number, at most 21 ASCII bytes.
///
/// ``PhoneNumberEngine/formatE164(_:)`` returns a `String`, which holds at most 15 bytes inline: a
/// number whose E.164 form is 16 bytes or more ("+878 1084 3212 9611", "+882 ...", and numbers that
/// are too long) gets heap storage, about 3 numbers in 100 of a real list. ``PhoneNumber/e164``
/// gives the same text as this value instead, for a loop that writes it out, compares it or uses
/// it as a key: no allocation, no reference counting, three words.
///
/// ```swift
/// let number = try engine.parse(e164: "+878108432129611")   // a valid +878 VoIP number
/// if let e164 = number.e164 {
///     e164.count                                     // 16: as a String it would allocate
///     e164.withUTF8 { output.append(contentsOf: $0) }  // the bytes, in place
///     print(e164)                                    // +878108432129611
/// }
/// ```
public struct E164Text: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The text's bytes from the first (memory order), zeros after them, the count in the last
    /// byte (`countWord(_:)`).
    var _words: (UInt64, UInt64, UInt64)

    /// The most bytes the text has: "+", three digits of calling code, 17 of national number
    /// (libphonenumber's longest national significant number).
    public static var maxCount: Int { 21 }

    /// The third word with the count in its last byte in memory.
    @inline(__always)
    static func countWord(_ count: Int) -> UInt64 { (UInt64(truncatingIfNeeded: count) &<< 56).littleEndian }

    /// The number of ASCII bytes (3...21: "+", at least one digit of code and one of number).
    @inline(__always)
    public var count: Int { Int(truncatingIfNeeded: _words.2.littleEndian &>> 56) }

    /// Calls `body` with the text's ASCII bytes, in place.
    @inline(__always)
    public func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let count = count
        return try withUnsafeBytes(of: _words) { raw in
            try body(UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count))
        }
    }

    /// The text as a `String` (which allocates for 16 bytes or more).
    public var description: String {
        withUTF8 { String(decoding: $0, as: UTF8.self) }
    }

    public static func == (a: E164Text, b: E164Text) -> Bool {
        a._words.0 == b._words.0 && a._words.1 == b._words.1 && a._words.2 == b._words.2
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(_words.0)
        hasher.combine(_words.1)
        hasher.combine(_words.2)
    }

    /// Byte order, as `String` compares ASCII: "+1..." before "+44...", a text before the longer
    /// texts that start with it.
    public static func < (a: E164Text, b: E164Text) -> Bool {
        // The bytes after the text are zero and every byte of a text is above zero, so comparing
        // the zero-padded words compares the texts; the count byte is never reached first.
        let x = (a._words.0.bigEndian, a._words.1.bigEndian, a._words.2.bigEndian)
        let y = (b._words.0.bigEndian, b._words.1.bigEndian, b._words.2.bigEndian)
        return x < y
    }

    /// The E.164 text of a number whose fields have one (calling code 1...999, national
    /// significant number of 1...17 digits: the caller checked), from the one writer
    /// (``PhoneNumber/_writeE164(to:)``), which writes at most 21 bytes here and the zeros after
    /// them.
    @inline(__always)
    init(_ number: borrowing PhoneNumber) {
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        let count = withUnsafeMutableBytes(of: &words) { number._writeE164(to: $0.baseAddress!) }
        _words = (words.0, words.1, words.2 | Self.countWord(count))
    }
}

extension PhoneNumber {
    /// The number in E.164 ("+" and digits, no extension), held inline: the text of
    /// ``PhoneNumberEngine/formatE164(_:)`` without a `String`, so without an allocation for the
    /// 16- to 21-byte ones.
    ///
    /// `nil` only for a number built by hand with fields no E.164 text has: a calling code outside
    /// 1...999, or a national significant number (leading zeros and national number) of more than
    /// 17 digits. Every parsed number has one.
    ///
    /// - Complexity: O(1) for the numbers of 16 digits or fewer that parsing makes; no allocation.
    @inline(__always)
    public var e164: E164Text? {
        let code = countryCode
        if code > 0, code < 1000, _digits.count != 0 { return E164Text(self) }
        return _longE164
    }

    /// ``e164`` for 17 digits, or for the fields of no E.164 number.
    var _longE164: E164Text? {
        let code = countryCode
        guard code > 0, code < 1000, leadingZeros >= 0,
              leadingZeros <= PhoneNumberEngine.maxNationalLength,
              _decimalDigitCount(nationalNumber) &+ leadingZeros <= PhoneNumberEngine.maxNationalLength
        else { return nil }
        return E164Text(self)
    }
}
