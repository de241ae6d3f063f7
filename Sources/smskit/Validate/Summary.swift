import PhoneNumbers
import SMSKitJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The totals of a `validate` run (`--summary`, `--summary-format`, `--summary-file`): as text
/// for people (the first 15 regions and errors) or as one JSON document with every region, type
/// and error. `partial` when the run was stopped by SIGINT or SIGTERM (the totals of the records
/// written until then).
struct _Summary {
    /// What was found in one file: its dialect and columns.
    struct FileFacts {
        var name: String
        var format: String
        var delimiter: String?
        var header: Bool
        var numberColumns: [(position: Int, name: String?)]
        var regionColumn: Int?
    }

    var tally: _Tally
    /// Input records read (header rows not included).
    var records: Int
    /// Their physical lines: more than `records` when quoted fields hold line breaks.
    var lines: Int
    var duplicates: Int
    var notes: [String]
    var files: [FileFacts]
    var seconds: Double
    var partial: Bool
    /// Whether `--only` or `--unique` left records out (then `written` is shown).
    var filtered: Bool

    var written: Int { tally.written - duplicates }
    var rate: Int { seconds > 0 ? Int(Double(records) / seconds) : 0 }

    var text: String {
        func percent(_ part: Int) -> String {
            tally.records == 0 ? "" : " (" + String(format1: Double(part) * 100 / Double(tally.records)) + "%)"
        }
        func list<Key>(_ counts: [Key: Int], _ name: (Key) -> String) -> String {
            let sorted = counts.sorted { $0.value != $1.value ? $0.value > $1.value : name($0.key) < name($1.key) }
            guard !sorted.isEmpty else { return "-" }
            var text = sorted.prefix(15).map { "\(name($0.key)) \(_grouped($0.value))" }.joined(separator: ", ")
            if sorted.count > 15 {
                let rest = sorted.dropFirst(15).reduce(0) { $0 + $1.value }
                text += ", \(sorted.count - 15) more \(_grouped(rest)) (all in --summary-format json)"
            }
            return text
        }
        var lines: [String] = []
        lines.append(partial ? "smskit validate summary (partial: stopped by a signal)" : "smskit validate summary")
        for note in notes { lines.append("  \(note)") }
        if self.lines > records {
            // Quoted fields hold line breaks: lines and records are different counts.
            lines.append("  lines      \(_grouped(self.lines)) (quoted fields span lines)")
            lines.append("  records    \(_grouped(records))\(records != tally.records ? " (the counts below are per number checked)" : "")")
            if records != tally.records { lines.append("  numbers    \(_grouped(tally.records))") }
        } else {
            if records != tally.records {
                lines.append("  records    \(_grouped(records)) (the counts below are per number checked)")
            }
            lines.append("  lines      \(_grouped(tally.records))")
        }
        lines.append("  parsed     \(_grouped(tally.parsed))\(percent(tally.parsed))")
        lines.append("  valid      \(_grouped(tally.valid))\(percent(tally.valid))")
        lines.append("  invalid    \(_grouped(tally.records - tally.valid))\(percent(tally.records - tally.valid))")
        lines.append("  fictional  \(_grouped(tally.fictional))\(tally.fictional > 0 ? " (" + list(tally.byFictionalKind) { $0 } + ")" : "")")
        if duplicates > 0 { lines.append("  duplicates \(_grouped(duplicates)) (dropped by --unique)") }
        if filtered { lines.append("  written    \(_grouped(written))") }
        lines.append("  by region  \(list(tally.byRegion) { $0 })")
        lines.append("  by type    \(list(tally.byType) { $0.rawValue })")
        lines.append("  errors     \(list(tally.errors) { $0 })")
        lines.append("  time       \(String(format3: seconds)) s, \(_grouped(rate)) \(self.lines > records ? "records" : "lines")/s")
        return lines.joined(separator: "\n") + "\n"
    }

    /// One JSON document: every count, every region, every type (zeros included), every error.
    var json: String {
        func counts(_ values: [String: Int]) -> JSONValue {
            .object(values.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { ($0.key, .int($0.value)) })
        }
        let types = PhoneNumberType.allCases.map { ($0.rawValue, JSONValue.int(tally.byType[$0] ?? 0)) }
        let fileList = files.map { file -> JSONValue in
            .object([
                ("file", .string(file.name)),
                ("format", .string(file.format)),
                ("delimiter", .optional(file.delimiter)),
                ("header", .bool(file.header)),
                ("number_columns", .array(file.numberColumns.map { .object([("position", .int($0.position)), ("name", .optional($0.name))]) })),
                ("region_column", file.regionColumn.map { .int($0) } ?? .null),
            ])
        }
        let document: JSONValue = .object([
            ("partial", .bool(partial)),
            ("records", .int(records)),
            ("lines", .int(self.lines)),
            ("numbers", .int(tally.records)),
            ("parsed", .int(tally.parsed)),
            ("valid", .int(tally.valid)),
            ("invalid", .int(tally.records - tally.valid)),
            ("fictional", .int(tally.fictional)),
            ("fictional_kinds", counts(tally.byFictionalKind)),
            ("written", .int(written)),
            ("duplicates", .int(duplicates)),
            ("cut_records", .int(tally.cutRecords)),
            ("by_region", counts(tally.byRegion)),
            ("by_type", .object(types)),
            ("errors", counts(tally.errors)),
            ("files", .array(fileList)),
            ("notes", .array(notes.map { .string($0) })),
            ("milliseconds", .int(Int((seconds * 1000).rounded()))),
            ("records_per_second", .int(rate)),
        ])
        return document.rendered
    }

    /// Writes `text` to a new or truncated file.
    static func writeFile(_ text: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw _SummaryFileError(message: String(cString: strerror(errno))) }
        defer { close(fd) }
        var copy = text
        try copy.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw _SummaryFileError(message: String(cString: strerror(errno)))
                }
                offset += written
            }
        }
    }
}

/// Why the summary file could not be written (strerror's text).
struct _SummaryFileError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
