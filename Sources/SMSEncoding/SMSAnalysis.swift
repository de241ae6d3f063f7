/// Everything a gateway needs to know about how a text will be sent as SMS.
///
/// Produced by ``SMSEncoder/analyze(_:concatenationReference:)``.
///
/// ```swift
/// let analysis = SMSEncoder().analyze("Your code is 123456 — valid for 5 min")
/// analysis.encoding                         // .ucs2 (the em dash is not in GSM 7-bit)
/// analysis.unencodableCharacters[0].character   // "—"
/// analysis.suggestions                      // replacing "—" by "-": still 1 segment, but GSM 7-bit
/// ```
public struct SMSAnalysis: Sendable {
    /// The text that is encoded: the input, after the reported ``changes``.
    public var text: String
    /// The chosen encoding.
    public var encoding: SMSCharacterEncoding
    /// The national language tables used, or `nil` for the default tables or UCS-2.
    public var nationalLanguage: SMSNationalLanguageTables?
    /// The length of ``text``: septets for GSM 7-bit (an escaped character counts two), UTF-16 code
    /// units for UCS-2 (a character outside the BMP counts two).
    public var length: Int
    /// The number of SMS segments (parts) the message needs. An empty text is one empty SMS.
    public var segmentCount: Int
    /// The septets or units still free in the last segment.
    public var remainingInLastSegment: Int
    /// Whether the message needs more than 255 parts, the most a concatenated SMS can have. The
    /// parts are still listed, but their headers cannot number them correctly: do not send them.
    public var exceedsConcatenationLimit: Bool
    /// The parts, in order, with their user data headers.
    ///
    /// A one-part message without a header (default tables or UCS-2) is stored as its text only, and
    /// its part is built when this property is read, so that ``SMSEncoder/analyze(_:concatenationReference:)``
    /// does not allocate for it: read the property once and keep the array when you use it often.
    public var parts: [SMSPart] {
        get { _parts.parts }
        set { _parts = .explicit(newValue) }
    }
    /// The stored form of ``parts``.
    var _parts: _SMSParts
    /// The characters that no enabled GSM table can encode, which force UCS-2, in text order.
    /// Empty for GSM 7-bit messages.
    public var unencodableCharacters: [SMSUnencodableCharacter]
    /// What smart encoding and NFC normalization changed, in text order.
    public var changes: [SMSTextChange]
    /// Fixes and how many segments each would save, most savings first: replacing or removing each
    /// unencodable character (for the first ten distinct ones), removing all of them, and turning on
    /// smart encoding, normalization or national tables when that changes the result. Empty for a
    /// single-segment GSM 7-bit message.
    public var suggestions: [SMSSuggestion]

    /// Creates an analysis (normally made by ``SMSEncoder``).
    public init(
        text: String, encoding: SMSCharacterEncoding, nationalLanguage: SMSNationalLanguageTables?,
        length: Int, segmentCount: Int, remainingInLastSegment: Int, exceedsConcatenationLimit: Bool,
        parts: [SMSPart], unencodableCharacters: [SMSUnencodableCharacter], changes: [SMSTextChange],
        suggestions: [SMSSuggestion]
    ) {
        self.text = text
        self.encoding = encoding
        self.nationalLanguage = nationalLanguage
        self.length = length
        self.segmentCount = segmentCount
        self.remainingInLastSegment = remainingInLastSegment
        self.exceedsConcatenationLimit = exceedsConcatenationLimit
        self._parts = .explicit(parts)
        self.unencodableCharacters = unencodableCharacters
        self.changes = changes
        self.suggestions = suggestions
    }
}

extension SMSAnalysis {
    /// The analysis of a one-part message without a header whose part is all of `text` (see
    /// `_SMSParts.single`), with nothing unencodable, changed or to suggest unless given.
    init(
        singlePart text: String, encoding: SMSCharacterEncoding, length: Int, remainingInLastSegment: Int,
        unencodableCharacters: [SMSUnencodableCharacter] = [], changes: [SMSTextChange] = [],
        suggestions: [SMSSuggestion] = []
    ) {
        self.text = text
        self.encoding = encoding
        self.nationalLanguage = nil
        self.length = length
        self.segmentCount = 1
        self.remainingInLastSegment = remainingInLastSegment
        self.exceedsConcatenationLimit = false
        self._parts = .single(text: text, encoding: encoding, length: length)
        self.unencodableCharacters = unencodableCharacters
        self.changes = changes
        self.suggestions = suggestions
    }
}

/// One SMS of a (possibly concatenated) message.
///
/// ``userData`` is the complete TP-User-Data: the user data header (``userDataHeader``), fill bits,
/// and the packed septets (GSM 7-bit) or UTF-16 big-endian units (UCS-2). With ``userDataLength``
/// (TP-UDL) and the encoding's ``SMSCharacterEncoding/dataCodingScheme`` it fills an SMPP `submit_sm`
/// with `esm_class` UDHI set, or a TPDU.
public struct SMSPart: Sendable, Hashable, Codable {
    /// The text carried by this part.
    public var text: String
    /// The user data header, starting with its length octet (UDHL); empty when there is none.
    public var userDataHeader: [UInt8]
    /// The length of ``text`` in septets (GSM 7-bit) or UTF-16 units (UCS-2).
    public var length: Int
    /// The fill bits between the header and the first septet (GSM 7-bit with a header), 0 to 6.
    public var fillBits: Int
    /// TP-UDL: septets including the header and fill bits (GSM 7-bit), or octets (UCS-2).
    public var userDataLength: Int
    /// TP-UD: header, fill bits and packed septets, or header and UTF-16BE; at most 140 octets.
    public var userData: [UInt8]

    /// Creates a part (normally made by ``SMSEncoder``).
    public init(text: String, userDataHeader: [UInt8], length: Int, fillBits: Int, userDataLength: Int, userData: [UInt8]) {
        self.text = text
        self.userDataHeader = userDataHeader
        self.length = length
        self.fillBits = fillBits
        self.userDataLength = userDataLength
        self.userData = userData
    }
}

/// A character that no enabled GSM 7-bit table can encode.
public struct SMSUnencodableCharacter: Sendable, Hashable, Codable {
    /// The character (one Unicode scalar).
    public var character: String
    /// Its code point.
    public var codePoint: UInt32
    /// Its offset in the input text, in UTF-16 code units.
    public var utf16Offset: Int
    /// Its offset in the input text, in Unicode scalars.
    public var scalarOffset: Int

    /// Creates a record.
    public init(character: String, codePoint: UInt32, utf16Offset: Int, scalarOffset: Int) {
        self.character = character
        self.codePoint = codePoint
        self.utf16Offset = utf16Offset
        self.scalarOffset = scalarOffset
    }
}

/// A change that smart encoding or NFC normalization made to the text.
public struct SMSTextChange: Sendable, Hashable, Codable {
    /// Which option made the change.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A lookalike replaced by GSM characters (or an invisible character removed).
        case smartEncoding
        /// A decomposed sequence composed, or a singleton mapped, as NFC does.
        case normalization
    }
    /// Which option made the change.
    public var kind: Kind
    /// The original text.
    public var original: String
    /// The replacement (empty when the original was removed).
    public var replacement: String
    /// Where the original starts in the input text, in UTF-16 code units.
    public var utf16Offset: Int

    /// Creates a record.
    public init(kind: Kind, original: String, replacement: String, utf16Offset: Int) {
        self.kind = kind
        self.original = original
        self.replacement = replacement
        self.utf16Offset = utf16Offset
    }
}

/// A fix for a message and what it would cost afterwards.
public struct SMSSuggestion: Sendable, Hashable, Codable {
    /// A fix.
    public enum Fix: Sendable, Hashable, Codable {
        /// Replace every occurrence of a character by GSM text.
        case replaceCharacter(String, with: String)
        /// Remove every occurrence of a character.
        case removeCharacter(String)
        /// Remove every character that no enabled GSM table encodes.
        case removeUnencodableCharacters
        /// Turn on ``SMSEncoder/Options/smartEncoding``.
        case enableSmartEncoding
        /// Turn on ``SMSEncoder/Options/normalizesToNFC``.
        case enableNormalization
        /// Allow all national language tables.
        case enableNationalLanguageTables
    }
    /// The fix.
    public var fix: Fix
    /// How many characters the fix changes (0 for the option fixes).
    public var occurrences: Int
    /// The encoding after the fix.
    public var encoding: SMSCharacterEncoding
    /// The segment count after the fix.
    public var segmentCount: Int
    /// Segments saved by the fix (negative if it would cost more).
    public var segmentsSaved: Int

    /// Creates a suggestion.
    public init(fix: Fix, occurrences: Int, encoding: SMSCharacterEncoding, segmentCount: Int, segmentsSaved: Int) {
        self.fix = fix
        self.occurrences = occurrences
        self.encoding = encoding
        self.segmentCount = segmentCount
        self.segmentsSaved = segmentsSaved
    }
}
