/// What a text costs as SMS and why: the encoding, the length, the segments and the characters that
/// forced UCS-2, without the parts, the text changes and the suggestions of a full analysis.
///
/// Produced by ``SMSEncoder/measure(_:)``. Every field equals the field of the same name of
/// ``SMSEncoder/analyze(_:concatenationReference:)``'s ``SMSAnalysis`` for the same encoder and text
/// (``unencodableCharacters`` lists each of the analysis's characters once).
///
/// ```swift
/// let measurement = SMSEncoder().measure("Your code is 123456 — valid for 5 min")
/// measurement.encoding                // .ucs2 (the em dash is not in GSM 7-bit)
/// measurement.segmentCount            // 1
/// measurement.unencodableCharacters   // ["—"]
/// ```
public struct SMSMeasurement: Sendable, Hashable {
    /// The chosen encoding.
    public var encoding: SMSCharacterEncoding
    /// The national language tables used, or `nil` for the default tables or UCS-2.
    public var nationalLanguage: SMSNationalLanguageTables?
    /// The length of the encoded text: septets for GSM 7-bit (an escaped character counts two),
    /// UTF-16 code units for UCS-2 (a character outside the BMP counts two).
    public var length: Int
    /// The number of SMS segments (parts) the message needs. An empty text is one empty SMS.
    public var segmentCount: Int
    /// The septets or units still free in the last segment.
    public var remainingInLastSegment: Int
    /// The distinct characters that no enabled GSM table can encode, which force UCS-2, in the
    /// order of their first occurrence. Empty for GSM 7-bit messages.
    public var unencodableCharacters: [Unicode.Scalar]

    /// Whether the message needs more than 255 parts, the most a concatenated SMS can have.
    public var exceedsConcatenationLimit: Bool { segmentCount > 255 }

    /// Creates a measurement (normally made by ``SMSEncoder``).
    ///
    /// - Parameters:
    ///   - encoding: The chosen encoding.
    ///   - nationalLanguage: The national language tables used, or `nil`.
    ///   - length: Septets (GSM 7-bit) or UTF-16 units (UCS-2).
    ///   - segmentCount: The number of segments.
    ///   - remainingInLastSegment: The septets or units still free in the last segment.
    ///   - unencodableCharacters: The distinct characters that forced UCS-2, in text order.
    public init(
        encoding: SMSCharacterEncoding, nationalLanguage: SMSNationalLanguageTables?, length: Int, segmentCount: Int,
        remainingInLastSegment: Int, unencodableCharacters: [Unicode.Scalar]
    ) {
        self.encoding = encoding
        self.nationalLanguage = nationalLanguage
        self.length = length
        self.segmentCount = segmentCount
        self.remainingInLastSegment = remainingInLastSegment
        self.unencodableCharacters = unencodableCharacters
    }
}
