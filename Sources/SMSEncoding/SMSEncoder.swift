/// Chooses the encoding of an SMS text, counts its segments and splits it into parts.
///
/// An encoder is an immutable value configured once with ``Options``; it is cheap to copy and safe to
/// share across threads. The encoding is GSM 7-bit with the default alphabet when every character is
/// in it (escaped characters such as `€`, `{` or `]` cost two septets), GSM 7-bit with a national
/// language table pair when the options allow it and it is needed, and UCS-2 otherwise.
///
/// | Encoding | One SMS | Per part of a concatenated SMS (8-bit / 16-bit reference) |
/// |---|---|---|
/// | GSM 7-bit | 160 septets | 153 / 152 septets |
/// | GSM 7-bit, one national table | 155 septets | 149 / 148 septets |
/// | GSM 7-bit, two national tables | 152 septets | 146 / 145 septets |
/// | UCS-2 | 70 units | 67 / 66 units |
///
/// ```swift
/// let encoder = SMSEncoder()
/// encoder.segmentCount(String(repeating: "a", count: 161))   // 2
///
/// let turkish = SMSEncoder(options: .init(nationalLanguageTables: .only([.turkish])))
/// let analysis = turkish.analyze("Doğrulama kodunuz: 123456")
/// analysis.encoding              // .gsm7
/// analysis.nationalLanguage      // Turkish locking-shift table (ğ is one septet there)
/// analysis.segmentCount          // 1
/// ```
public struct SMSEncoder: Sendable {
    /// The options the encoder was created with.
    public let options: Options

    /// The shared table lookup data (read once here, not per call).
    let index: _GSMCharacterIndex
    /// Enabled locking-shift tables, bit n = NLI n (bit 0, the default alphabet, is always set).
    let lockingMask: UInt16
    /// Enabled single-shift tables, bit n = NLI n (bit 0, the default extension table, is always set).
    let shiftMask: UInt16

    /// Creates an encoder.
    ///
    /// - Parameter options: What the encoder may do; by default GSM 7-bit with the default tables or
    ///   UCS-2, 8-bit concatenation references, no text changes.
    public init(options: Options = .init()) {
        self.options = options
        self.index = _gsmIndex
        var locking: UInt16 = 1
        var shift: UInt16 = 1
        let languages: [NationalLanguage]
        switch options.nationalLanguageTables {
        case .none: languages = []
        case .all: languages = NationalLanguage.allCases
        case .only(let set): languages = Array(set)
        }
        for language in languages {
            shift |= 1 << UInt16(language.rawValue)
            if language.hasLockingShiftTable { locking |= 1 << UInt16(language.rawValue) }
        }
        self.lockingMask = locking
        self.shiftMask = shift
    }
}

extension SMSEncoder {
    /// What an ``SMSEncoder`` may do to choose an encoding and split a message.
    ///
    /// ```swift
    /// var options = SMSEncoder.Options()
    /// options.nationalLanguageTables = .only([.hindi, .bengali])
    /// options.smartEncoding = true
    /// let encoder = SMSEncoder(options: options)
    /// ```
    public struct Options: Sendable, Hashable {
        /// Which national language tables the encoder may use.
        public enum NationalLanguageTables: Sendable, Hashable {
            /// Only the default alphabet and its extension table (the default: many handsets lack
            /// the national tables).
            case none
            /// All thirteen languages of TS 23.038 Annex A.
            case all
            /// The given languages (their locking-shift and single-shift tables).
            case only(Set<NationalLanguage>)
        }

        /// The size of the concatenation reference number in the user data header.
        public enum ConcatenationReference: String, Sendable, Hashable, Codable {
            /// IEI 0x00, 5 octets: 153 septets or 67 UCS-2 units per part.
            case eightBit
            /// IEI 0x08, 6 octets: 152 septets or 66 UCS-2 units per part (some US/CA toll-free routes).
            case sixteenBit
        }

        /// Which national language tables the encoder may use; `.none` by default.
        public var nationalLanguageTables: NationalLanguageTables
        /// Replace common lookalikes (curly quotes, dashes, ellipsis, Unicode spaces, ...) by GSM
        /// characters, when that lets the message use GSM 7-bit. Replacements are reported.
        public var smartEncoding: Bool
        /// Compose decomposed letters (such as `e` + U+0301) that have a precomposed form in a GSM
        /// table, as NFC does. Changes are reported. See ``SMSEncoder`` for the scope.
        public var normalizesToNFC: Bool
        /// The concatenation reference size; `.eightBit` by default.
        public var concatenationReference: ConcatenationReference
        /// Split parts only at grapheme-cluster boundaries (as Android and Twilio do), so that a
        /// flag, a ZWJ emoji sequence or a letter with its marks is never divided between parts.
        /// By default parts are split between Unicode scalars, never inside an escape pair or a
        /// surrogate pair.
        public var splitsAtGraphemeClusterBoundaries: Bool

        /// Creates options.
        ///
        /// - Parameters:
        ///   - nationalLanguageTables: The national language tables the encoder may use.
        ///   - smartEncoding: Whether to replace lookalikes by GSM characters.
        ///   - normalizesToNFC: Whether to compose decomposed letters.
        ///   - concatenationReference: The concatenation reference size.
        ///   - splitsAtGraphemeClusterBoundaries: Whether parts end only at grapheme-cluster boundaries.
        public init(
            nationalLanguageTables: NationalLanguageTables = .none,
            smartEncoding: Bool = false,
            normalizesToNFC: Bool = false,
            concatenationReference: ConcatenationReference = .eightBit,
            splitsAtGraphemeClusterBoundaries: Bool = false
        ) {
            self.nationalLanguageTables = nationalLanguageTables
            self.smartEncoding = smartEncoding
            self.normalizesToNFC = normalizesToNFC
            self.concatenationReference = concatenationReference
            self.splitsAtGraphemeClusterBoundaries = splitsAtGraphemeClusterBoundaries
        }
    }
}
