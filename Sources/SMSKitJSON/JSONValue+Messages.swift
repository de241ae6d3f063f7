import SMSEncoding
import SMSTemplates

extension JSONValue {
    /// An analysis: the fields of `smskit segments --format json` and of `POST /v1/segments`.
    package init(_ analysis: SMSAnalysis) {
        let tables: JSONValue
        if let national = analysis.nationalLanguage, !national.isDefault {
            tables = .object([
                ("locking_shift", .optional(national.lockingShift.map { $0.description.lowercased() })),
                ("single_shift", .optional(national.singleShift.map { $0.description.lowercased() })),
            ])
        } else {
            tables = .null
        }
        self = .object([
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
                    ("code_point", .string(Self.codePoint(character.codePoint))),
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
                    ("user_data_header", .string(Self.hex(part.userDataHeader))),
                    ("fill_bits", .int(part.fillBits)),
                    ("user_data_length", .int(part.userDataLength)),
                    ("user_data", .string(Self.hex(part.userData))),
                ])
            })),
            ("suggestions", .array(analysis.suggestions.map { suggestion in
                .object(Self.fix(suggestion.fix) + [
                    ("occurrences", .int(suggestion.occurrences)),
                    ("encoding", .string(suggestion.encoding.rawValue)),
                    ("segments", .int(suggestion.segmentCount)),
                    ("segments_saved", .int(suggestion.segmentsSaved)),
                ])
            })),
        ])
    }

    /// A rendered message with the analysis of its text: the fields of `smskit render --format
    /// json` and of `POST /v1/messages/render`. `language` says where the CLI took the language
    /// from (`lang`, or a number's region) when it may come from a number.
    package init(_ rendered: RenderedMessage, analysis: SMSAnalysis, language: (source: String, region: String?)? = nil) {
        var fields: [(String, JSONValue)] = [
            ("text", .string(rendered.text)),
            ("message", .string(rendered.messageID.rawValue)),
            ("locale", .string(rendered.locale)),
            ("requested_locale", .string(rendered.requestedLocale)),
        ]
        if let language {
            fields += [("language_source", .string(language.source)), ("number_region", .optional(language.region))]
        }
        fields += [
            ("diagnostics", .array(rendered.diagnostics.map { diagnostic in
                .object([
                    ("severity", .string(diagnostic.severity.rawValue)),
                    ("code", .string(diagnostic.code.description)),
                    ("message", .string(diagnostic.message)),
                ])
            })),
            ("segments", .int(rendered.segmentCount)),
            ("units", .int(analysis.length)),
            ("budget_segments", rendered.segmentBudget.map { .int($0) } ?? .null),
            ("over_budget", .bool(rendered.isOverBudget)),
            ("encoding", JSONValue(analysis)),
        ]
        self = .object(fields)
    }

    /// A suggestion's fix: its kind and, for one character, the character and its replacement.
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

    /// "U+00E9": at least four uppercase hexadecimal digits.
    package static func codePoint(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// Uppercase hexadecimal, two digits a byte, no separator ("" for no bytes).
    private static func hex(_ bytes: [UInt8]) -> String {
        let digits: StaticString = "0123456789ABCDEF"
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits.utf8Start[Int(byte >> 4)])
            out.append(digits.utf8Start[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
