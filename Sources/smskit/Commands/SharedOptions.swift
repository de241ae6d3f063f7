import ArgumentParser
import PhoneNumbers
import SMSEncoding
import SMSKitJSON
import SMSKitRecords

/// Output formats of `smskit validate`.
enum RecordFormat: String, CaseIterable, ExpressibleByArgument {
    case jsonl, json, csv, tsv, text

    static let helpText = """
        jsonl (one JSON object per line), json (one array), csv, tsv (with header rows) or text \
        (aligned columns for people). Default: text when stdout is a terminal, jsonl otherwise.
        """

    /// The same format for the wire layer's writers.
    var wire: WireFormat {
        switch self {
        case .jsonl: .jsonl
        case .json: .json
        case .csv: .csv
        case .tsv: .tsv
        case .text: .text
        }
    }
}

/// Output formats of `parse`, `render` and `segments`.
enum DetailFormat: String, CaseIterable, ExpressibleByArgument {
    case text, json
}

/// A `--region` value: a two-letter ISO 3166-1 code in any case, `001`, or `ZZ` for none.
struct RegionArgument: ExpressibleByArgument {
    /// The region, or `nil` for `ZZ` (no default region).
    var code: RegionCode?

    init?(argument: String) {
        if argument.uppercased() == "ZZ" {
            code = nil
            return
        }
        guard let code = RegionCode(argument) else { return nil }
        self.code = code
    }

    static var defaultCompletionKind: CompletionKind { .default }
}

/// A column given by 1-based position or by header name (`--column 2`, `--column phone`).
enum ColumnArgument: ExpressibleByArgument, CustomStringConvertible {
    case index(Int)
    case name(String)

    init?(argument: String) {
        if let number = Int(argument) {
            guard number >= 1 else { return nil }
            self = .index(number - 1)
        } else {
            guard !argument.isEmpty else { return nil }
            self = .name(argument)
        }
    }

    var description: String {
        switch self {
        case .index(let index): "\(index + 1)"
        case .name(let name): "'\(name)'"
        }
    }

    /// The column for the records reader.
    var column: RecordColumn {
        switch self {
        case .index(let index): .position(index)
        case .name(let name): .name(name)
        }
    }

    /// The name, for a column given by name.
    var name: String? {
        if case .name(let name) = self { name } else { nil }
    }
}

/// `--national-tables none|all|LIST`: which national language tables of 3GPP TS 23.038 the
/// encoder may use. LIST names languages (`turkish`), ISO 639-1 codes (`tr`) or NLIs (`1`),
/// comma-separated.
struct NationalTablesArgument: ExpressibleByArgument {
    var tables: SMSEncoder.Options.NationalLanguageTables

    init?(argument: String) {
        switch argument.lowercased() {
        case "none", "": tables = .none
        case "all": tables = .all
        default:
            var set = Set<NationalLanguage>()
            for item in argument.lowercased().split(separator: ",") {
                guard let language = Self.language(String(item).trimmingSpaces) else { return nil }
                set.insert(language)
            }
            tables = .only(set)
        }
    }

    static let codes: [String: NationalLanguage] = [
        "tr": .turkish, "es": .spanish, "pt": .portuguese, "bn": .bengali, "gu": .gujarati,
        "hi": .hindi, "kn": .kannada, "ml": .malayalam, "or": .oriya, "pa": .punjabi,
        "ta": .tamil, "te": .telugu, "ur": .urdu,
    ]

    static func language(_ text: String) -> NationalLanguage? {
        if let number = UInt8(text) { return NationalLanguage(rawValue: number) }
        if let language = codes[text] { return language }
        return NationalLanguage.allCases.first { $0.description.lowercased() == text }
    }

    static let helpText: String = {
        var names: [String] = []
        for language in NationalLanguage.allCases {
            let code = codes.first { entry in entry.value == language }?.key ?? ""
            names.append("\(language.description.lowercased()) (\(code))")
        }
        return "National language tables the GSM 7-bit encoding may use: none (default; many handsets "
            + "lack them), all, or a comma-separated list of languages by name, ISO code or NLI "
            + "(turkish,es,6). Languages: " + names.joined(separator: ", ") + "."
    }()
}

/// Options that configure the SMS encoder, shared by `segments` and `render`.
struct EncoderOptions: ParsableArguments {
    @Option(name: .customLong("national-tables"), help: ArgumentHelp(NationalTablesArgument.helpText, valueName: "none|all|LIST"))
    var nationalTables: NationalTablesArgument?

    @Flag(name: .customLong("smart-encoding"), help: "Replace lookalikes (curly quotes, dashes, ellipsis, Unicode spaces) by GSM characters when that avoids UCS-2; changes are reported.")
    var smartEncoding = false

    @Flag(name: .customLong("normalize"), help: "Compose decomposed letters (e + U+0301) that have a precomposed GSM form, as NFC does.")
    var normalize = false

    @Flag(name: .customLong("16-bit-reference"), help: "Use 16-bit concatenation references (152 septets or 66 UCS-2 units per part instead of 153/67).")
    var sixteenBitReference = false

    @Flag(name: .customLong("grapheme-split"), help: "Split parts only between grapheme clusters (flags, ZWJ emoji and letters with marks stay whole).")
    var graphemeSplit = false

    /// The encoder these options describe.
    var encoder: SMSEncoder {
        SMSEncoder(options: .init(
            nationalLanguageTables: nationalTables?.tables ?? .none,
            smartEncoding: smartEncoding,
            normalizesToNFC: normalize,
            concatenationReference: sixteenBitReference ? .sixteenBit : .eightBit,
            splitsAtGraphemeClusterBoundaries: graphemeSplit
        ))
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}

/// Thousands separators for counts in summaries: 1234567 -> "1,234,567".
func _grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var out = ""
    for (index, character) in digits.enumerated() {
        if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
        out.append(character)
    }
    return value < 0 ? "-" + out : out
}
