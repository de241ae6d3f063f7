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
        // ASCII case only, as the document's pattern states (a Unicode lowering maps a few other
        // letters, such as the Kelvin sign, onto ASCII ones).
        guard let text = text.map({ String(decoding: $0.utf8.map { $0 &- 65 < 26 ? $0 | 0x20 : $0 }, as: UTF8.self) }),
              text != "none", !text.isEmpty else { return .none }
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
