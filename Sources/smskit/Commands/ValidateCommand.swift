import ArgumentParser
import Dispatch
import PhoneNumbers
import SMSKitRecords

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension InputFormat: ExpressibleByArgument {}
extension RecordFilter: ExpressibleByArgument {}

/// `smskit validate [FILE ...]`: one output record per input record, streamed.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Validate lists of phone numbers: one output record per input record, in input order.",
        discussion: """
            Reads plain lines, CSV or TSV from the files, or from stdin when none is given or the \
            file is '-'. The input format comes from the extension (.csv, .tsv or .tab; anything \
            else is lines) unless --input-format is given; stdin is lines by default.

            DIALECTS: -d/--delimiter takes any ASCII character or 'tab' (and means CSV input); \
            without it a CSV file's delimiter is detected from its header row among , ; tab | \
            (--summary says which). --quote sets the quote character. UTF-8 (with or without a \
            byte order mark) and UTF-16 with a byte order mark are read; other encodings are \
            refused with the iconv command that converts them. CRLF line ends are fine.

            HEADERS AND COLUMNS: a CSV or TSV file has a header row when no cell of its first \
            row parses as a number and one has a letter (or always, with --header; never, with \
            --no-header; a column given by name implies one). Without --column, the number is \
            in the column named number, phone, phone_number, msisdn, mobile, e164 or tel, else \
            in the column whose name says phone in a major language (Mobile Phone, \
            Phone 1 - Value, Telefon, Handy, Teléfono, 電話 ...; mobile first), else in column \
            1 (or, without a header, in the column where most of the first 100 rows parse). \
            Region cells may be ISO codes or country names (Germany, Deutschland). Without \
            --region-column, a column named region gives each row's default region. A region \
            cell that is empty falls back to --region; ZZ means no default region.

            OUTPUT FIELDS (null in JSON, empty in CSV, TSV and text when absent):
              line       where the record starts in its file (1-based, header included)
              input      the number field as read
              ok         true when the number parsed
              error      invalid_country_code, not_a_number, too_short_after_idd,
                         too_short_nsn, too_long; from smskit itself: invalid_utf8,
                         line_too_long (records over 64 KiB), not_a_number (NUL byte),
                         unclosed_quote (a quote never closed: the record is cut at
                         its line), spreadsheet_number (4.47911E+11: digits lost)
              e164       the number in E.164, such as +16502530000
              possible   is_possible, is_possible_local_only, invalid_country_code,
                         too_short, invalid_length, too_long
              valid      true or false
              type       fixed_line, mobile, fixed_line_or_mobile, toll_free,
                         premium_rate, shared_cost, voip, personal_number, pager,
                         uan, voicemail, unknown
              region     ISO 3166-1 code of the number, 001 for non-geographic ones
              fictional  reserved-for-fiction, nanp-555-convention or reported

            Bad records (invalid UTF-8, NUL bytes, empty or over-long lines) give an \
            error record and the run goes on: without --only there is exactly one \
            output record per input record.

            --summary prints totals to stderr. A progress line is drawn on stderr only when it \
            is a terminal and CI is not set.

            EXAMPLES:
              smskit validate Resources/Samples/numbers.csv --summary
              smskit validate contacts.csv --column phone --region DE --only invalid
              cut -f1 list.tsv | smskit validate --region GB > checked.jsonl
              smskit validate --strict-lines --format tsv   (Hadoop streaming, RDD.pipe)

            \(SMSKitExitCode.helpText)
            """
    )

    @Argument(help: ArgumentHelp("Input files; stdin when none is given or for '-'.", valueName: "file"))
    var files: [String] = []

    @Option(name: .customLong("input-format"), help: ArgumentHelp("lines, csv or tsv (default: by file extension; lines for stdin).", valueName: "lines|csv|tsv"))
    var inputFormat: InputFormat?

    @Option(help: ArgumentHelp("The number's column: 1-based position or header name.", valueName: "N|NAME"))
    var column: ColumnArgument?

    @Option(help: ArgumentHelp("Default region for national numbers: ISO 3166-1 code such as US or gb; ZZ for none.", valueName: "XX"),
            transform: { try ValidateCommand.regionArgument($0) })
    var region: RegionArgument?

    @Option(name: [.customShort("d"), .long],
            help: ArgumentHelp("Field delimiter: one ASCII character, or tab (implies CSV input; default: detected from the header row among , ; tab |).", valueName: "CHAR"))
    var delimiter: String?

    @Option(help: ArgumentHelp("Quote character of CSV fields (default \"); empty for none.", valueName: "CHAR"))
    var quote: String?

    @Option(name: .customLong("region-column"), help: ArgumentHelp("Take each row's default region from this column (position or header name); empty cells use --region, ZZ means none.", valueName: "N|NAME"))
    var regionColumn: ColumnArgument?

    @Flag(inversion: .prefixedNo, help: "Whether the first row is a header (default: detected for CSV/TSV, no for lines).")
    var header: Bool?

    @Option(help: ArgumentHelp(RecordFormat.helpText, valueName: "jsonl|json|csv|tsv|text"))
    var format: RecordFormat?

    @Option(help: ArgumentHelp("Write only the valid or only the invalid records (errors count as invalid).", valueName: "valid|invalid"))
    var only: RecordFilter?

    @Flag(help: "Print totals to stderr at the end: records, parsed, valid, fictional, by region, by type, errors by reason, time and records/s.")
    var summary = false

    @Flag(name: .customLong("no-progress"), help: "Never draw the progress line.")
    var noProgress = false

    @Flag(name: .customLong("strict-lines"), help: "Run as a line filter (Hadoop streaming, ClickHouse executable functions, Spark's RDD.pipe): exactly one jsonl or tsv output line per input line, in order, no header row, each answer written before waiting for more input.")
    var strictLines = false

    @Option(name: .customLong("chunk-size"), help: .hidden)
    var chunkSize: Int = 16_384

    func validate() throws {
        guard chunkSize >= 1 && chunkSize <= 1 << 22 else {
            throw ValidationError("--chunk-size must be between 1 and 4194304.")
        }
        if strictLines {
            if let format, format != .jsonl && format != .tsv {
                throw ValidationError("--strict-lines writes jsonl or tsv, one line per input line; not --format \(format.rawValue).")
            }
            if only != nil { throw ValidationError("--strict-lines writes one line per input line; --only would leave some out.") }
            if inputFormat == .csv { throw ValidationError("--strict-lines reads lines or TSV (--input-format lines|tsv): a quoted CSV field can span lines.") }
            if header == true { throw ValidationError("--strict-lines reads no header row: every input line gets its output line.") }
            if case .name = column { throw ValidationError("--strict-lines reads no header row: give --column as a position.") }
            if case .name = regionColumn { throw ValidationError("--strict-lines reads no header row: give --region-column as a position.") }
        }
        if delimiter != nil || quote != nil, givenDialect == nil {
            throw ValidationError("--delimiter and --quote take one ASCII character each (or tab), not a newline, and not the same one.")
        }
        if inputFormat == .lines {
            if case .name = column { throw ValidationError("--column NAME needs CSV or TSV input; plain lines have one field.") }
            if case .index(let index)? = column, index > 0 { throw ValidationError("plain lines have one field; --column must be 1.") }
            if regionColumn != nil { throw ValidationError("--region-column needs CSV or TSV input (--input-format csv|tsv).") }
        }
    }

    func run() throws {
        _Interrupt.install()
        _Names.check()
        let engine = PhoneNumberEngine()
        let started = _now()
        let sources = try planSources()

        let outputFormat = format ?? (isatty(1) == 1 && !strictLines ? .text : .jsonl)
        var formatter = _RecordFormatter(format: outputFormat, filter: only, tallies: summary)
        formatter.headerRow = !strictLines
        var pipeline = _ValidatePipeline(engine: engine, formatter: formatter, chunkSize: chunkSize)
        let drawsProgress = !noProgress && _Stderr.wantsProgress
        let sizes = drawsProgress ? sources.map { $0.path.map(_InputFiles.regularSize) ?? Self.regularSize(0) } : []
        let knownSize = drawsProgress && sizes.allSatisfy { $0 != nil } ? sizes.reduce(0) { $0 + ($1 ?? 0) } : nil
        pipeline.progress = _Progress(enabled: drawsProgress, totalBytes: knownSize)

        var notes: [String] = []
        var unread = 0
        do {
            // One file open at a time. With several inputs, one that cannot be opened or read
            // is reported and skipped; the others are read (exit 1 at the end).
            var begun = false
            for source in sources {
                if _Interrupt.received != nil { break }
                var fd: Int32 = 0
                if let path = source.path {
                    switch _InputFiles.openForReading(path, name: source.name) {
                    case .success(let opened): fd = opened
                    case .failure(let error):
                        if sources.count == 1 { throw error }
                        _Stderr.write("smskit: \(error.message)\n")
                        unread += 1
                        continue
                    }
                }
                defer { if fd != 0 { close(fd) } }
                if !begun {
                    try pipeline.begin()
                    begun = true
                }
                let reader = RecordReader(fd: fd, name: source.name, dialect: readerDialect(for: source.format))
                do {
                    try process(reader, format: source.format, engine: engine, pipeline: &pipeline, notes: &notes)
                } catch let error as RecordReadError where sources.count > 1 {
                    _Stderr.write("smskit: \(error.description)\n")
                    unread += 1
                    // The file's records read before the error are kept, with its columns.
                    try pipeline.flushChunk(bytesRead: reader.bytesConsumed)
                }
                pipeline.finishedBytes += reader.bytesRead
            }
            if begun { try pipeline.end() }
        } catch {
            // Chunks still being checked are not written after an error; wait for them.
            pipeline.abandon()
            pipeline.progress.finish()
            if let error = error as? RecordReadError { throw CLIError.failure(error.description) }
            throw error
        }
        pipeline.progress.finish()
        if let bad = pipeline.badRegion {
            _Stderr.write("smskit: warning: \(_grouped(pipeline.badRegionCount)) region cell\(pipeline.badRegionCount == 1 ? "" : "s") not an ISO 3166-1 code (first: '\(bad)'); those rows had no default region\n")
        }
        if summary {
            _Stderr.write(Self.summaryText(pipeline.tally, notes: notes, seconds: _now() - started, filtered: only != nil))
        }
        if unread > 0 {
            throw CLIError.failure("\(_grouped(unread)) of \(_grouped(sources.count)) inputs could not be read (see above); the others were validated")
        }
    }

    /// `--region`: an ISO 3166-1 alpha-2 code or ZZ; anything else is a usage error that
    /// suggests the code meant (UK: did you mean GB?).
    static func regionArgument(_ text: String) throws -> RegionArgument {
        if text.uppercased() == "ZZ", let none = RegionArgument(argument: "ZZ") { return none }
        switch RegionNames().checkCode(text) {
        case .valid(let code):
            guard let argument = RegionArgument(argument: code) else { throw ValidationError("unknown region '\(text)'") }
            return argument
        case .invalid(let message):
            throw ValidationError(message)
        }
    }

    /// The dialect given by `--delimiter` and `--quote`, or `nil` (none given, or invalid).
    var givenDialect: CSVDialect? {
        guard delimiter != nil || quote != nil else { return nil }
        return CSVDialect(delimiter: delimiter ?? ",", quote: quote ?? "\"")
    }

    /// The dialect a source's records are read with (only its quote matters to the reader).
    func readerDialect(for format: InputFormat) -> CSVDialect? {
        switch format {
        case .lines: return nil
        case .tsv: return givenDialect ?? .plainTab
        case .csv: return givenDialect ?? CSVDialect(delimiter: UInt8(ascii: ","), quote: UInt8(ascii: "\""))
        }
    }

    // MARK: Inputs

    struct Source {
        /// The path's bytes (NUL-terminated), or `nil` for stdin.
        var path: [CChar]?
        var name: String
        var format: InputFormat
    }

    /// The inputs in order, with their formats; nothing is opened yet (see ``run()``).
    func planSources() throws -> [Source] {
        let names = files.isEmpty ? ["-"] : files
        let paths = _InputFiles.paths(for: names)
        var sources: [Source] = []
        for (name, path) in zip(names, paths) {
            if name == "-" {
                sources.append(Source(path: nil, name: "<stdin>", format: inputFormat ?? (delimiter != nil ? .csv : .lines)))
                continue
            }
            let format = inputFormat ?? (strictLines ? .lines : (delimiter != nil ? .csv : Self.format(forPath: name)))
            sources.append(Source(path: path, name: name, format: format))
        }
        if sources.filter({ $0.path == nil }).count > 1 {
            throw CLIError.usage("stdin ('-') can be read only once")
        }
        for source in sources where source.format == .lines {
            if regionColumn != nil {
                throw CLIError.usage("--region-column needs CSV or TSV input, but \(source.name) is read as lines; use --input-format csv|tsv")
            }
            if case .name = column {
                throw CLIError.usage("--column NAME needs CSV or TSV input, but \(source.name) is read as lines; use --input-format csv|tsv")
            }
            if case .index(let index)? = column, index > 0 {
                throw CLIError.usage("\(source.name) is read as lines, which have one column; use --input-format csv|tsv for --column \(index + 1)")
            }
        }
        return sources
    }

    static func format(forPath path: String) -> InputFormat {
        let lower = path.lowercased()
        if lower.hasSuffix(".csv") { return .csv }
        if lower.hasSuffix(".tsv") || lower.hasSuffix(".tab") { return .tsv }
        return .lines
    }

    static func regularSize(_ fd: Int32) -> Int? {
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    static let numberColumnNames: Set<String> = ["number", "phone", "phone_number", "phonenumber", "phone number", "msisdn", "mobile", "e164", "tel"]
    static let regionColumnNames: Set<String> = ["region", "region_code"]

    /// Reads one file: dialect, header, columns, records.
    ///
    /// With `--strict-lines`, before a read that would wait for input (nothing ready on the
    /// descriptor and no whole record left in the reader's buffer), the records read so far are
    /// checked and their output written out: a co-process that writes lines and waits for
    /// their answers gets them. The pipeline is reached through one pointer, by the loop and by
    /// that hook alike (the hook runs inside `reader.next()`, between the loop's own accesses).
    func process(_ reader: RecordReader, format: InputFormat, engine: PhoneNumberEngine, pipeline: inout _ValidatePipeline,
                 notes: inout [String]) throws {
        try withUnsafeMutablePointer(to: &pipeline) { pipeline in
            let hook = HookFailure()
            let fd = reader.fd
            let strictLines = strictLines
            // Before each read(2): with --strict-lines, answer what was read if the read would
            // wait; then wait for input in poll(2), so that a signal ends a silent input (the
            // records read so far are then written, and the pipeline stops on the signal).
            reader.willRead = { [unowned reader] in
                guard hook.error == nil else { return false }
                if strictLines, pipeline.pointee.hasPendingOutput {
                    var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    if poll(&ready, 1, 0) <= 0 {  // no data and no end of input: it would wait
                        do {
                            try pipeline.pointee.drain(bytesRead: reader.bytesConsumed)
                        } catch {
                            // A write error or a signal: stop reading now, not at the next input.
                            hook.error = error
                            return false
                        }
                    }
                }
                return _Interrupt.waitForInput(fd)
            }
            defer { reader.willRead = nil }
            try process(reader, format: format, engine: engine, pipeline: pipeline, hook: hook, notes: &notes)
        }
    }

    /// The error of a `--strict-lines` drain inside `reader.next()`, thrown once it returns.
    private final class HookFailure {
        var error: (any Error)?
    }

    private func process(_ reader: RecordReader, format: InputFormat, engine: PhoneNumberEngine,
                         pipeline: UnsafeMutablePointer<_ValidatePipeline>, hook: HookFailure,
                         notes: inout [String]) throws {
        func next() throws -> RecordReader.Record? {
            let record = try reader.next()
            if let error = hook.error { throw error }
            return record
        }
        guard let first = try next() else { return }
        var numberIndex = 0
        var regionIndex: Int?
        var dialect = readerDialect(for: format)
        if format == .csv, delimiter == nil, first.problem == nil {
            let detection = DelimiterDetection.detect(in: first.bytes, quote: dialect?.quote)
            dialect = detection.dialect
            notes.append("\(reader.name): \(detection.reason)")
        }
        if case .utf16(let bigEndian, _)? = reader.detectedEncoding {
            notes.append("\(reader.name): UTF-16\(bigEndian ? "BE" : "LE") with a byte order mark, decoded")
        }
        var namedColumn = false
        if case .name = column { namedColumn = true }
        if case .name = regionColumn { namedColumn = true }
        let region = self.region
        let parses: (String) -> Bool = { cell in
            var text = cell
            return text.withUTF8 { engine.check(utf8: $0, defaultRegion: region?.code).number != nil }
        }
        let hasHeader: Bool
        if strictLines {
            hasHeader = false
        } else if let header {
            hasHeader = header
        } else if format == .lines {
            hasHeader = false
        } else {
            hasHeader = namedColumn || (first.problem == nil && HeaderDetection.isHeader(RecordFields.all(first.bytes, dialect: dialect), parsesAsNumber: parses))
        }
        if hasHeader && format != .lines {
            let names = RecordFields.all(first.bytes, dialect: dialect)
            let normalized = names.map { $0.trimmingSpaces.lowercased() }
            func resolve(_ argument: ColumnArgument, _ what: String) throws -> Int {
                switch argument {
                case .index(let index): return index
                case .name(let name):
                    if let index = normalized.firstIndex(of: name.trimmingSpaces.lowercased()) { return index }
                    throw CLIError.usage("\(reader.name) has no column named '\(name)' for \(what); its header: \(names.joined(separator: ", "))")
                }
            }
            var why: String?
            if let column {
                numberIndex = try resolve(column, "--column")
            } else if let found = normalized.firstIndex(where: { Self.numberColumnNames.contains($0) }) {
                numberIndex = found
            } else if let choice = HeaderDetection.phoneColumn(header: names) {
                numberIndex = choice.index
                why = choice.reason
            }
            if let regionColumn {
                regionIndex = try resolve(regionColumn, "--region-column")
            } else if let found = normalized.firstIndex(where: { Self.regionColumnNames.contains($0) }), found != numberIndex {
                regionIndex = found
            }
            var note = "\(reader.name): header row; number from column \(numberIndex + 1)"
            if numberIndex < names.count { note += " (\(names[numberIndex]))" }
            if let regionIndex {
                note += ", region from column \(regionIndex + 1)"
                if regionIndex < names.count { note += " (\(names[regionIndex]))" }
            }
            notes.append(note)
            if let why { notes.append("\(reader.name): \(why)") }
        } else {
            if case .index(let index)? = column { numberIndex = index }
            if case .index(let index)? = regionColumn { regionIndex = index }
        }
        // No header and no --column: the column where most of the first 100 rows parse.
        var sampled: [(line: Int, record: Int, bytes: [UInt8], problem: RecordProblem?)] = []
        // Not with --strict-lines: sampling would hold answers back until 100 rows have come.
        if !hasHeader, column == nil, format != .lines, !strictLines {
            sampled.append((first.line, first.record, Array(first.bytes), first.problem))
            while sampled.count < 100, let record = try next() {
                sampled.append((record.line, record.record, Array(record.bytes), record.problem))
            }
            let rows = sampled.filter { $0.problem == nil }.map { $0.bytes.withUnsafeBytes { RecordFields.all($0, dialect: dialect) } }
            if let choice = HeaderDetection.phoneColumn(byContent: rows, parsesAsNumber: parses), choice.index != numberIndex,
               choice.index != regionIndex {
                numberIndex = choice.index
                notes.append("\(reader.name): no header row; number from \(choice.reason)")
            }
        }
        pipeline.pointee.columns = (numberIndex, regionIndex)
        pipeline.pointee.defaultRegion = region?.code
        // Every record, the first one included, goes through the same add-then-flush-when-full
        // step: a chunk never takes a record past its capacity (with --chunk-size 1 the first
        // record alone fills it).
        func add(_ record: RecordReader.Record) throws {
            try pipeline.pointee.add(record, dialect: dialect)
            if pipeline.pointee.isChunkFull {
                try pipeline.pointee.flushChunk(bytesRead: reader.bytesConsumed)
            }
        }
        if !sampled.isEmpty {
            for row in sampled {
                try row.bytes.withUnsafeBytes { bytes in
                    try add(RecordReader.Record(line: row.line, record: row.record, bytes: bytes, problem: row.problem))
                }
            }
        } else if !hasHeader {
            try add(first)
        }
        var firstUnclosedQuote: Int?
        while let record = try next() {
            if record.problem == .unclosedQuote, firstUnclosedQuote == nil { firstUnclosedQuote = record.line }
            try add(record)
        }
        try pipeline.pointee.flushChunk(bytesRead: reader.bytesConsumed)
        if let line = firstUnclosedQuote ?? sampled.first(where: { $0.problem == .unclosedQuote })?.line
            ?? (first.problem == .unclosedQuote ? first.line : nil) {
            let count = reader.unclosedQuoteCount
            _Stderr.write("smskit: warning: \(reader.name) line \(line): a quote opened there is never closed; the record was cut at the end of its line and reading went on (\(_grouped(count)) such record\(count == 1 ? "" : "s"), error unclosed_quote)\n")
        }
        if reader.unclosedQuoteCount > 0 {
            notes.append("\(reader.name): \(reader.unclosedQuoteCount) record\(reader.unclosedQuoteCount == 1 ? "" : "s") with a quote never closed (error unclosed_quote; each cut at its line)")
        }
    }

    // MARK: Summary

    static func summaryText(_ tally: _Tally, notes: [String], seconds: Double, filtered: Bool) -> String {
        func percent(_ part: Int) -> String {
            tally.records == 0 ? "" : " (" + String(format1: Double(part) * 100 / Double(tally.records)) + "%)"
        }
        func list<Key>(_ counts: [Key: Int], _ name: (Key) -> String) -> String {
            let sorted = counts.sorted { $0.value != $1.value ? $0.value > $1.value : name($0.key) < name($1.key) }
            guard !sorted.isEmpty else { return "-" }
            var text = sorted.prefix(15).map { "\(name($0.key)) \(_grouped($0.value))" }.joined(separator: ", ")
            if sorted.count > 15 {
                let rest = sorted.dropFirst(15).reduce(0) { $0 + $1.value }
                text += ", \(sorted.count - 15) more \(_grouped(rest))"
            }
            return text
        }
        let rate = seconds > 0 ? Int(Double(tally.records) / seconds) : 0
        var lines: [String] = []
        lines.append("smskit validate summary")
        for note in notes { lines.append("  \(note)") }
        lines.append("  lines      \(_grouped(tally.records))")
        lines.append("  parsed     \(_grouped(tally.parsed))\(percent(tally.parsed))")
        lines.append("  valid      \(_grouped(tally.valid))\(percent(tally.valid))")
        lines.append("  invalid    \(_grouped(tally.records - tally.valid))\(percent(tally.records - tally.valid))")
        lines.append("  fictional  \(_grouped(tally.fictional))\(tally.fictional > 0 ? " (" + list(tally.byFictionalKind) { $0 } + ")" : "")")
        if filtered { lines.append("  written    \(_grouped(tally.written))") }
        lines.append("  by region  \(list(tally.byRegion) { $0 })")
        lines.append("  by type    \(list(tally.byType) { $0.rawValue })")
        lines.append("  errors     \(list(tally.errors) { $0 })")
        lines.append("  time       \(String(format3: seconds)) s, \(_grouped(rate)) lines/s")
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    /// A number with one decimal.
    init(format1 value: Double) {
        let scaled = Int((value * 10).rounded())
        self = "\(scaled / 10).\(scaled % 10)"
    }

    /// A number with three decimals.
    init(format3 value: Double) {
        let scaled = Int((value * 1000).rounded())
        let fraction = String(scaled % 1000)
        self = "\(scaled / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
