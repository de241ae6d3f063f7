import ArgumentParser
import SMSEncoding
import SMSKitCommandLine
import SMSKitJSON
import SMSKitRecords

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `smskit segments [TEXT]`: how a text will be sent as SMS.
struct SegmentsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "segments",
        abstract: "Show how a text is sent as SMS: encoding, length, segments, parts and the characters that force UCS-2.",
        discussion: """
            Reads the text from the argument, or from stdin when it is missing or '-' (one final \
            newline of stdin is dropped, so `echo text | smskit segments` counts "text"). \
            GSM 7-bit lengths are in septets (an escaped character such as € or { counts two), \
            UCS-2 lengths in UTF-16 units (an emoji counts two).

            BATCHES: with --lines, FILE (or stdin) holds one message per line, or one per CSV \
            record with --column (a header name, or a 1-based position with no header row; the \
            delimiter is detected among , ; tab |). One result per message, in input order: \
            line, record, encoding, length, segments, remaining, forced_ucs2_by (the distinct \
            characters that forced UCS-2) and error (invalid_utf8, record_too_long, \
            unclosed_quote), as jsonl (default), csv or tsv. Totals go to stderr: messages and \
            segments by encoding, and the characters that forced UCS-2 in the most messages \
            (--summary-format json for one JSON document).

            EXAMPLES:
              smskit segments "Your code is 123456"
              smskit segments --lines campaign.txt --format csv > segments.csv
              smskit segments --lines contacts.csv --column message --summary-format json
              smskit segments "Kodunuz: 123456 ğ" --national-tables turkish
              echo "Ваш код 123456" | smskit segments --format json
            """
    )

    @Argument(help: ArgumentHelp("The message text; stdin when missing or '-'. With --lines, the file of messages.", valueName: "text|file"))
    var text: String?

    @OptionGroup var encoderOptions: EncoderOptions

    @Flag(help: "Analyse one message per line of the file (or stdin); one result per message, totals on stderr.")
    var lines = false

    @Option(help: ArgumentHelp("With --lines: read CSV and take the message from this column (header name, or 1-based position with no header row).", valueName: "N|NAME"))
    var column: ColumnArgument?

    @Option(name: .customLong("encoding"),
            help: ArgumentHelp("With --lines: the file's encoding, auto (default) or an ICU converter name, as for validate.", valueName: "NAME"),
            transform: { try ValidateCommand.encodingArgument($0) })
    var inputEncoding: InputEncoding = .automatic

    @Option(help: ArgumentHelp("Output format: text or json (default text); with --lines jsonl, csv or tsv (default jsonl).", valueName: "FORMAT"))
    var format: SegmentsFormat?

    @Option(name: .customLong("summary-format"), help: ArgumentHelp("With --lines: the totals on stderr as text (default) or json.", valueName: "text|json"))
    var summaryFormat: DetailFormat = .text

    func validate() throws {
        if lines {
            if let format, SegmentsLinesFormat(rawValue: format.rawValue) == nil {
                throw ValidationError("--lines writes jsonl, csv or tsv, not --format \(format.rawValue).")
            }
        } else {
            if column != nil { throw ValidationError("--column needs --lines.") }
            if inputEncoding != .automatic { throw ValidationError("--encoding needs --lines.") }
            if let format, format != .text && format != .json {
                throw ValidationError("--format \(format.rawValue) needs --lines; one text is shown as text or json.")
            }
        }
    }

    func run() throws {
        if lines {
            _Interrupt.install()
            var batch = _SegmentsLines(encoder: encoderOptions.encoder, format: format.flatMap { SegmentsLinesFormat(rawValue: $0.rawValue) } ?? .jsonl)
            batch.column = column
            batch.encoding = inputEncoding
            batch.summaryJSON = summaryFormat == .json
            guard let path = text, path != "-" else { return try batch.run(fd: 0, name: "<stdin>") }
            let fd = try _InputFiles.openForReading(_InputFiles.paths(for: [path])[0], name: path).get()
            defer { close(fd) }
            return try batch.run(fd: fd, name: path)
        }
        let input: String
        if let text, text != "-" {
            input = text
        } else {
            input = try _readAllStdin(limit: 1 << 20, what: "the text")
        }
        let analysis = encoderOptions.encoder.analyze(input)
        var output = _Output()
        if format == .json {
            try output.write(JSONValue(analysis).rendered)
        } else {
            try output.write(Self.text(analysis))
        }
        try output.flush()
    }

    /// The encoding's name for people, with the national tables.
    static func encodingName(_ analysis: SMSAnalysis) -> String {
        switch analysis.encoding {
        case .ucs2: return "UCS-2"
        case .gsm7:
            guard let tables = analysis.nationalLanguage, !tables.isDefault else { return "GSM 7-bit (default alphabet)" }
            var names: [String] = []
            if let locking = tables.lockingShift { names.append("\(locking) locking shift") }
            if let single = tables.singleShift { names.append("\(single) single shift") }
            return "GSM 7-bit (\(names.joined(separator: ", ")))"
        }
    }

    static func unit(_ analysis: SMSAnalysis, _ count: Int) -> String {
        switch analysis.encoding {
        case .gsm7: count == 1 ? "septet" : "septets"
        case .ucs2: count == 1 ? "UTF-16 unit" : "UTF-16 units"
        }
    }

    /// A visible form of a character for text output (controls and spaces named).
    static func visible(_ character: String) -> String {
        guard let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1 else { return character }
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F: return "(control)"
        case 0x20, 0xA0, 0x2000...0x200F, 0x2028...0x202F, 0x205F...0x206F, 0x3000, 0xFEFF: return "(space or invisible)"
        default: return character
        }
    }

    static func text(_ analysis: SMSAnalysis) -> String {
        var lines: [String] = []
        lines.append("encoding:  \(encodingName(analysis))")
        lines.append("length:    \(analysis.length) \(unit(analysis, analysis.length))")
        lines.append("segments:  \(analysis.segmentCount) (\(analysis.remainingInLastSegment) \(unit(analysis, analysis.remainingInLastSegment)) left in the last one)")
        if analysis.exceedsConcatenationLimit {
            lines.append("warning:   more than 255 parts: too long for one concatenated SMS")
        }
        if !analysis.unencodableCharacters.isEmpty {
            // Distinct characters in text order, with counts and first positions.
            var order: [String] = []
            var seen: [String: (count: Int, first: Int, codePoint: UInt32)] = [:]
            for character in analysis.unencodableCharacters {
                if let entry = seen[character.character] {
                    seen[character.character] = (entry.count + 1, entry.first, entry.codePoint)
                } else {
                    order.append(character.character)
                    seen[character.character] = (1, character.scalarOffset + 1, character.codePoint)
                }
            }
            lines.append("forced UCS-2 by \(analysis.unencodableCharacters.count) character\(analysis.unencodableCharacters.count == 1 ? "" : "s") (\(order.count) distinct):")
            for character in order.prefix(12) {
                let entry = seen[character]!
                let times = entry.count > 1 ? ", \(entry.count) times" : ""
                lines.append("  \(JSONValue.codePoint(entry.codePoint))  \(visible(character))  first at character \(entry.first)\(times)")
            }
            if order.count > 12 { lines.append("  ... and \(order.count - 12) more (see --format json)") }
        }
        if !analysis.changes.isEmpty {
            lines.append("changes:")
            for change in analysis.changes {
                lines.append("  \(change.kind == .smartEncoding ? "smart encoding" : "normalization"): '\(change.original)' -> '\(change.replacement)' at UTF-16 offset \(change.utf16Offset)")
            }
        }
        let parts = analysis.parts  // built on each read for a one-part message: read once
        if parts.count > 1 || !(parts.first?.userDataHeader.isEmpty ?? true) {
            lines.append("parts:")
            for (index, part) in parts.enumerated() {
                lines.append("  \(index + 1)  \(part.length) \(unit(analysis, part.length))  header \(hex(part.userDataHeader))  \(quoted(part.text))")
            }
        }
        // The fixes worth reading: those that save segments or reach GSM 7-bit, best first.
        let useful = analysis.suggestions.filter { suggestion in
            suggestion.segmentsSaved > 0 || (analysis.encoding == .ucs2 && suggestion.encoding == .gsm7)
        }
        if !useful.isEmpty {
            lines.append("suggestions:")
            for suggestion in useful.prefix(5) {
                let saved = suggestion.segmentsSaved
                let effect = saved > 0 ? "saves \(saved) segment\(saved == 1 ? "" : "s")"
                    : saved == 0 ? "same segment count" : "costs \(-saved) more"
                lines.append("  \(describe(suggestion.fix, occurrences: suggestion.occurrences)): \(suggestion.encoding == .gsm7 ? "GSM 7-bit" : "UCS-2"), \(suggestion.segmentCount) segment\(suggestion.segmentCount == 1 ? "" : "s") (\(effect))")
            }
            if useful.count > 5 { lines.append("  ... \(useful.count - 5) more (see --format json)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\"": out += "\\\""
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func hex(_ bytes: [UInt8]) -> String {
        guard !bytes.isEmpty else { return "(none)" }
        return bytes.map { byte in
            let text = String(byte, radix: 16, uppercase: true)
            return text.count == 1 ? "0" + text : text
        }.joined(separator: " ")
    }

    static func describe(_ fix: SMSSuggestion.Fix, occurrences: Int) -> String {
        switch fix {
        case .replaceCharacter(let character, let replacement):
            "replace \(quoted(character)) (\(occurrences)x) with \(quoted(replacement))"
        case .removeCharacter(let character): "remove \(quoted(character)) (\(occurrences)x)"
        case .removeUnencodableCharacters: "remove the \(occurrences) characters GSM cannot encode"
        case .enableSmartEncoding: "use --smart-encoding"
        case .enableNormalization: "use --normalize"
        case .enableNationalLanguageTables: "use --national-tables all"
        }
    }
}

private extension String {
    var replacingSpaces: String { self == "(none)" ? "" : String(filter { $0 != " " }) }
}
