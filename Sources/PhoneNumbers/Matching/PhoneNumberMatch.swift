/// A phone number found in text by ``PhoneNumberEngine/findNumbers(in:defaultRegion:leniency:maxTries:)``.
///
/// Offsets are given in two units: Unicode scalars (code points; what Python's `phonenumbers`
/// reports, and `text.unicodeScalars` indexes) and UTF-8 bytes (what a byte buffer indexes).
///
/// ```swift
/// let found = engine.findNumbers(in: "Ruf an: +49 30 1234567", defaultRegion: "DE")
/// found[0].range          // 8..<22 (Unicode scalars)
/// found[0].utf8Range      // 8..<22 (bytes)
/// found[0].rawString      // "+49 30 1234567"
/// ```
public struct PhoneNumberMatch: Sendable, Hashable {
    /// Where the number is in the text, in Unicode scalars (code points) from the start.
    public var range: Range<Int>
    /// Where the number is in the text's UTF-8 encoding, in bytes from the start.
    public var utf8Range: Range<Int>
    /// The text of the match, exactly as written.
    public var rawString: String
    /// The number parsed from ``rawString`` with the default region.
    public var number: PhoneNumber

    public init(range: Range<Int>, utf8Range: Range<Int>, rawString: String, number: PhoneNumber) {
        self.range = range
        self.utf8Range = utf8Range
        self.rawString = rawString
        self.number = number
    }
}
