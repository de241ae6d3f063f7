/// A national language of 3GPP TS 23.038 Annex A, identified by its National Language Identifier (NLI).
///
/// National language tables let text in these languages stay in GSM 7-bit (160 characters per SMS)
/// instead of UCS-2 (70). A *locking-shift* table replaces the whole default alphabet for the message;
/// a *single-shift* table replaces the extension table reached through the escape septet. Spanish has
/// only a single-shift table. The raw value is the NLI carried in the user data header.
///
/// ```swift
/// let hindi = NationalLanguage(rawValue: 6)   // .hindi
/// hindi?.hasLockingShiftTable                 // true
/// ```
public enum NationalLanguage: UInt8, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Turkish: locking-shift and single-shift tables (A.3.1, A.2.1).
    case turkish = 1
    /// Spanish: a single-shift table only (A.2.2).
    case spanish = 2
    /// Portuguese (A.3.3, A.2.3).
    case portuguese = 3
    /// Bengali (A.3.4, A.2.4).
    case bengali = 4
    /// Gujarati (A.3.5, A.2.5).
    case gujarati = 5
    /// Hindi (A.3.6, A.2.6).
    case hindi = 6
    /// Kannada (A.3.7, A.2.7).
    case kannada = 7
    /// Malayalam (A.3.8, A.2.8).
    case malayalam = 8
    /// Oriya (A.3.9, A.2.9).
    case oriya = 9
    /// Punjabi (A.3.10, A.2.10).
    case punjabi = 10
    /// Tamil (A.3.11, A.2.11).
    case tamil = 11
    /// Telugu (A.3.12, A.2.12).
    case telugu = 12
    /// Urdu (A.3.13, A.2.13).
    case urdu = 13

    /// Whether the standard defines a locking-shift table for this language (all but Spanish).
    public var hasLockingShiftTable: Bool { self != .spanish }

    /// The English name of the language, such as `"Turkish"`.
    public var description: String {
        switch self {
        case .turkish: "Turkish"
        case .spanish: "Spanish"
        case .portuguese: "Portuguese"
        case .bengali: "Bengali"
        case .gujarati: "Gujarati"
        case .hindi: "Hindi"
        case .kannada: "Kannada"
        case .malayalam: "Malayalam"
        case .oriya: "Oriya"
        case .punjabi: "Punjabi"
        case .tamil: "Tamil"
        case .telugu: "Telugu"
        case .urdu: "Urdu"
        }
    }
}

/// The pair of GSM 7-bit tables a message is encoded with.
///
/// `nil` in either field means the default: the GSM 7-bit default alphabet as the locking table, or
/// its extension table as the single-shift table. Each non-`nil` field costs a 3-octet national
/// language information element in the user data header of every part.
///
/// ```swift
/// let tables = SMSNationalLanguageTables(lockingShift: .turkish, singleShift: nil)
/// ```
public struct SMSNationalLanguageTables: Sendable, Hashable, Codable {
    /// The locking-shift table, or `nil` for the GSM 7-bit default alphabet.
    public var lockingShift: NationalLanguage?
    /// The single-shift table, or `nil` for the default extension table.
    public var singleShift: NationalLanguage?

    /// Creates a table pair.
    /// - Parameters:
    ///   - lockingShift: The locking-shift language, or `nil` for the default alphabet.
    ///     Spanish has no locking-shift table; APIs that take a pair reject it.
    ///   - singleShift: The single-shift language, or `nil` for the default extension table.
    public init(lockingShift: NationalLanguage? = nil, singleShift: NationalLanguage? = nil) {
        self.lockingShift = lockingShift
        self.singleShift = singleShift
    }

    /// The default tables (no national language information elements).
    public static let `default` = SMSNationalLanguageTables()

    /// Whether both tables are the defaults.
    public var isDefault: Bool { lockingShift == nil && singleShift == nil }

    /// The number of national language information elements the pair needs in a user data header.
    public var informationElementCount: Int {
        (lockingShift == nil ? 0 : 1) + (singleShift == nil ? 0 : 1)
    }
}

/// The character encoding (data coding scheme alphabet) chosen for a message.
public enum SMSCharacterEncoding: String, Sendable, Hashable, Codable, CaseIterable {
    /// GSM 7-bit, with the default or national language tables: 160 septets in one SMS.
    case gsm7
    /// UCS-2, sent as UTF-16 big-endian (characters outside the BMP take two units): 70 units in one SMS.
    case ucs2

    /// The TP-DCS value for this alphabet in the general data coding group (class-less, uncompressed).
    public var dataCodingScheme: UInt8 {
        switch self {
        case .gsm7: 0x00
        case .ucs2: 0x08
        }
    }
}
