import SMSEncoding
import SMSTemplates

/// `POST /v1/segments`: `{"text": "...", "national_tables": "none|all|tr,es", "smart_encoding":
/// false, "normalize": false, "sixteen_bit_reference": false, "grapheme_split": false}`.
struct SegmentsQuery: Decodable, Sendable {
    var text: String
    var national_tables: String?
    var smart_encoding: Bool?
    var normalize: Bool?
    var sixteen_bit_reference: Bool?
    var grapheme_split: Bool?

    /// The encoder these options describe.
    func encoder() throws(ServiceError) -> SMSEncoder {
        SMSEncoder(options: .init(
            nationalLanguageTables: try Self.tables(national_tables),
            smartEncoding: smart_encoding ?? false,
            normalizesToNFC: normalize ?? false,
            concatenationReference: sixteen_bit_reference == true ? .sixteenBit : .eightBit,
            splitsAtGraphemeClusterBoundaries: grapheme_split ?? false
        ))
    }

    private static let codes: [String: NationalLanguage] = [
        "tr": .turkish, "es": .spanish, "pt": .portuguese, "bn": .bengali, "gu": .gujarati,
        "hi": .hindi, "kn": .kannada, "ml": .malayalam, "or": .oriya, "pa": .punjabi,
        "ta": .tamil, "te": .telugu, "ur": .urdu,
    ]

    /// `none`, `all` or a comma-separated list of languages by name, ISO 639-1 code or NLI,
    /// as the CLI's `--national-tables`.
    static func tables(_ text: String?) throws(ServiceError) -> SMSEncoder.Options.NationalLanguageTables {
        guard let text = text?.lowercased(), text != "none", !text.isEmpty else { return .none }
        if text == "all" { return .all }
        var set = Set<NationalLanguage>()
        for item in text.split(separator: ",") {
            let name = String(item.trimmingAll(of: " "))
            let language = UInt8(name).flatMap(NationalLanguage.init(rawValue:)) ?? codes[name]
                ?? NationalLanguage.allCases.first { $0.description.lowercased() == name }
            guard let language else {
                throw .invalidRequest("'national_tables' names an unknown language; use none, all, or names, ISO codes or NLIs such as turkish,es,6.")
            }
            set.insert(language)
        }
        return .only(set)
    }
}

/// `POST /v1/messages/render`: the CLI's `render` options.
struct RenderQuery: Decodable, Sendable {
    var message: String?
    var lang: String
    var code: String
    var app: String
    var minutes: Int?
    var webotp: String?
    var app_hash: String?
    var segment_budget: Int?
    var national_tables: String?
    var smart_encoding: Bool?
    var normalize: Bool?
    var sixteen_bit_reference: Bool?
    var grapheme_split: Bool?

    var segmentsOptions: SegmentsQuery {
        SegmentsQuery(text: "", national_tables: national_tables, smart_encoding: smart_encoding, normalize: normalize,
                      sixteen_bit_reference: sixteen_bit_reference, grapheme_split: grapheme_split)
    }
}

/// The JSON of analyses and rendered messages: the fields of `smskit segments --format json`
/// and `smskit render --format json`.
enum MessageJSON {
    static func analysis(_ analysis: SMSAnalysis) -> JSONValue {
        let tables: JSONValue
        if let national = analysis.nationalLanguage, !national.isDefault {
            tables = .object([
                ("locking_shift", .optional(national.lockingShift.map { $0.description.lowercased() })),
                ("single_shift", .optional(national.singleShift.map { $0.description.lowercased() })),
            ])
        } else {
            tables = .null
        }
        return .object([
            ("text", .string(analysis.text)),
            ("encoding", .string(analysis.encoding.rawValue)),
            ("national_language_tables", tables),
            ("length", .int(analysis.length)),
            ("length_unit", .string(analysis.encoding == .gsm7 ? "septets" : "utf16_units")),
            ("segments", .int(analysis.segmentCount)),
            ("remaining_in_last_segment", .int(analysis.remainingInLastSegment)),
            ("exceeds_concatenation_limit", .bool(analysis.exceedsConcatenationLimit)),
            ("unencodable_characters", .array(analysis.unencodableCharacters.map { character in
                .object([
                    ("character", .string(character.character)),
                    ("code_point", .string(codePoint(character.codePoint))),
                    ("utf16_offset", .int(character.utf16Offset)),
                    ("scalar_offset", .int(character.scalarOffset)),
                ])
            })),
            ("changes", .array(analysis.changes.map { change in
                .object([
                    ("kind", .string(change.kind == .smartEncoding ? "smart_encoding" : "normalization")),
                    ("original", .string(change.original)),
                    ("replacement", .string(change.replacement)),
                    ("utf16_offset", .int(change.utf16Offset)),
                ])
            })),
            ("parts", .array(analysis.parts.map { part in
                .object([
                    ("text", .string(part.text)),
                    ("length", .int(part.length)),
                    ("user_data_header", .string(APIKeys.hex(part.userDataHeader).uppercased())),
                    ("fill_bits", .int(part.fillBits)),
                    ("user_data_length", .int(part.userDataLength)),
                    ("user_data", .string(APIKeys.hex(part.userData).uppercased())),
                ])
            })),
            ("suggestions", .array(analysis.suggestions.map { suggestion in
                .object(fix(suggestion.fix) + [
                    ("occurrences", .int(suggestion.occurrences)),
                    ("encoding", .string(suggestion.encoding.rawValue)),
                    ("segments", .int(suggestion.segmentCount)),
                    ("segments_saved", .int(suggestion.segmentsSaved)),
                ])
            })),
        ])
    }

    static func rendered(_ rendered: RenderedMessage, analysis encoding: SMSAnalysis) -> JSONValue {
        .object([
            ("text", .string(rendered.text)),
            ("message", .string(rendered.messageID.rawValue)),
            ("locale", .string(rendered.locale)),
            ("requested_locale", .string(rendered.requestedLocale)),
            ("diagnostics", .array(rendered.diagnostics.map { diagnostic in
                .object([
                    ("severity", .string(diagnostic.severity.rawValue)),
                    ("code", .string(diagnostic.code.description)),
                    ("message", .string(diagnostic.message)),
                ])
            })),
            ("encoding", analysis(encoding)),
        ])
    }

    private static func fix(_ fix: SMSSuggestion.Fix) -> [(String, JSONValue)] {
        switch fix {
        case .replaceCharacter(let character, let replacement):
            [("fix", .string("replace_character")), ("character", .string(character)), ("replacement", .string(replacement))]
        case .removeCharacter(let character): [("fix", .string("remove_character")), ("character", .string(character))]
        case .removeUnencodableCharacters: [("fix", .string("remove_unencodable_characters"))]
        case .enableSmartEncoding: [("fix", .string("enable_smart_encoding"))]
        case .enableNormalization: [("fix", .string("enable_normalization"))]
        case .enableNationalLanguageTables: [("fix", .string("enable_national_language_tables"))]
        }
    }

    private static func codePoint(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
