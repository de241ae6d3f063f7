import ArgumentParser
import Dispatch
import PhoneNumberCarriers
import PhoneNumbers
import SMSKitCommandLine
import SMSKitJSON
import SMSKitRecords

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension InputFormat: ExpressibleByArgument {}

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
            (--summary says which). --quote sets the quote character; as in Python's csv and \
            Excel, a quote opens a quoted field only at a field's start (elsewhere it is a \
            character) and a quoted field may span lines. LF, CRLF and CR line ends are fine.

            ENCODINGS: -e/--encoding takes any ICU converter name (windows-1252, latin1, \
            ISO-8859-15, Shift_JIS, GB18030, KOI8-R, UTF-16LE ...). The default, auto: a byte \
            order mark decides (UTF-8, UTF-16, UTF-32); else UTF-8, where a record with bytes \
            that are not UTF-8 is an invalid_utf8 error record; a file whose lines are \
            consistently in a legacy encoding is refused before anything is written, naming \
            the --encoding to give (a regular file is read through once to decide; from a pipe \
            the first block decides).

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

            OUTPUT FIELDS (null in JSON, empty in CSV and TSV, - in text when absent):
              file       the input file (written when there are several)
              line       where the record starts in its file (1-based, header included)
              record     the record's number in its file (1-based, header included;
                         differs from line after a quoted field with newlines)
              column     the number's column (with --split and several --column)
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
            With --fields only, also: national, international, rfc3966 (the number so
            formatted), time_zones (IANA names; an array in JSON, joined by & elsewhere),
            carrier (the original carrier of a mobile number, in --carrier-lang),
            short_number (true for a short code of the default region, such as 112, or,
                       given with a calling code, of its region: +91 1171627),
            cost (toll_free, standard_rate, premium_rate or unknown_cost, for short codes).

            OUTPUT CHOICES: --fields picks and orders the fields. -k/--keep writes every input \
            column first (the first file's header names them; column_1, column_2 ... without a \
            header; cells beyond the header's count are left out, with a warning). Several \
            --column options check several phone columns in one output record per input \
            record; their fields are named '<column>.<field>' (the header name, or the 1-based \
            position without a header): 'Phone 1 - Value.e164'. --split checks each number of \
            a cell (' ::: ', ';', '/', ' or ', '|', newlines) and writes one record per number \
            with its record number; a record without a number gets one record. The default \
            fields then start with line and record (and file with several files). --only keeps \
            valid or invalid numbers or types (several: any of them; with several columns, a \
            record with any such number). --unique drops a record whose numbers (by E.164) were \
            all written before; records without a number are kept; its memory is a set of \
            8-byte keys, one per distinct number (about 16 bytes each).

            Bad records (invalid UTF-8, NUL bytes, empty or over-long lines) give an \
            error record and the run goes on: without --only there is exactly one \
            output record per input record.

            --summary prints totals to stderr (--summary-file: to a file; --summary-format json: \
            one JSON document with every region, type and error, each file's dialect and \
            columns). After Ctrl-C or SIGTERM the summary of the records written is printed, \
            marked partial. The text format is coloured on a terminal unless NO_COLOR is set. A \
            progress line is drawn on stderr only when it is a terminal other than stdout's \
            and CI is not set.

            EXAMPLES:
              smskit validate Resources/Samples/numbers.csv --summary
              smskit validate contacts.csv --column phone --region DE --only invalid
              smskit validate contacts.csv -k --column 'Phone 1 - Value' --column 'Phone 2 - Value' \\
                --split --fields line,record,column,e164,type --unique --format csv > cleaned.csv
              cut -f1 list.tsv | smskit validate --region GB > checked.jsonl
              smskit validate --strict-lines --format tsv   (Hadoop streaming, RDD.pipe)

            \(SMSKitExitCode.helpText)
            """
    )

    @Argument(help: ArgumentHelp("Input files; stdin when none is given or for '-'.", valueName: "file"))
    var files: [String] = []

    @Option(name: .customLong("input-format"), help: ArgumentHelp("lines, csv or tsv (default: by file extension; lines for stdin).", valueName: "lines|csv|tsv"))
    var inputFormat: InputFormat?

    @Option(name: .customLong("column"),
            help: ArgumentHelp("The number's column: 1-based position or header name; repeat it for several phone columns (each gets its own result columns, named '<column>.<field>').", valueName: "N|NAME"))
    var columns: [ColumnArgument] = []

    /// The first `--column`.
    var column: ColumnArgument? { columns.first }

    @Option(help: ArgumentHelp("Default region for national numbers: ISO 3166-1 code such as US or gb; ZZ for none.", valueName: "XX"),
            transform: { try ValidateCommand.regionArgument($0) })
    var region: RegionArgument?

    @Option(name: [.customShort("d"), .long],
            help: ArgumentHelp("Field delimiter: one ASCII character, or tab (implies CSV input; default: detected from the header row among , ; tab |).", valueName: "CHAR"))
    var delimiter: String?

    @Option(help: ArgumentHelp("Quote character of CSV fields (default \"); empty for none.", valueName: "CHAR"))
    var quote: String?

    @Option(name: [.customShort("e"), .long],
            help: ArgumentHelp("The input's encoding: auto (default) or an ICU converter name such as windows-1252, latin1, Shift_JIS, GB18030, KOI8-R, UTF-16LE.", valueName: "NAME"),
            transform: { try ValidateCommand.encodingArgument($0) })
    var encoding: InputEncoding = .automatic

    @Option(name: .customLong("region-column"), help: ArgumentHelp("Take each row's default region from this column (position or header name); empty cells use --region, ZZ means none.", valueName: "N|NAME"))
    var regionColumn: ColumnArgument?

    @Flag(inversion: .prefixedNo, help: "Whether the first row is a header (default: detected for CSV/TSV, no for lines).")
    var header: Bool?

    @Option(help: ArgumentHelp(RecordFormat.helpText, valueName: "jsonl|json|csv|tsv|text"))
    var format: RecordFormat?

    @Option(name: .customLong("only"),
            help: ArgumentHelp("Write only these records: valid, invalid (errors count as invalid) or a type (mobile, fixed_line, ...); repeat it or separate with commas to allow several.", valueName: "valid|invalid|TYPE"))
    var onlyValues: [String] = []

    @Flag(name: [.customShort("k"), .long], help: "Write every input column, then the result columns (CSV, TSV, JSON; the header row is kept).")
    var keep = false

    @Flag(help: "Check every number of a cell (separated by ' ::: ', ';', '/', ' or ', '|' or newlines): one output record per number, each with its record number.")
    var split = false

    @Option(name: .customLong("fields"),
            help: ArgumentHelp("The result columns, in this order, separated by commas: \(NumberAnswerField.namesText).", valueName: "NAMES"))
    var fieldValues: [String] = []

    @Option(name: .customLong("carrier-lang"), help: ArgumentHelp("The language of the carrier field (default en).", valueName: "LANG"))
    var carrierLanguage: String?

    @Flag(help: "Write the first record of each E.164 number only (records whose numbers were all written before are dropped; the summary counts them).")
    var unique = false

    @Flag(help: "Print totals to stderr at the end: records, parsed, valid, fictional, by region, by type, errors by reason, time and records/s.")
    var summary = false

    @Option(name: .customLong("summary-format"), help: ArgumentHelp("text or json (one JSON document; implies --summary).", valueName: "text|json"))
    var summaryFormat: DetailFormat?

    @Option(name: .customLong("summary-file"), help: ArgumentHelp("Write the summary to this file instead of stderr (implies --summary).", valueName: "PATH"))
    var summaryFile: String?

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
            if !onlyValues.isEmpty || unique { throw ValidationError("--strict-lines writes one line per input line; --only and --unique would leave some out.") }
            if split { throw ValidationError("--strict-lines writes one line per input line; --split would write several.") }
            if inputFormat == .csv { throw ValidationError("--strict-lines reads lines or TSV (--input-format lines|tsv): a quoted CSV field can span lines.") }
            if header == true { throw ValidationError("--strict-lines reads no header row: every input line gets its output line.") }
            if case .name = column { throw ValidationError("--strict-lines reads no header row: give --column as a position.") }
            if case .name = regionColumn { throw ValidationError("--strict-lines reads no header row: give --region-column as a position.") }
        }
        if delimiter != nil || quote != nil, givenDialect == nil {
            throw ValidationError("--delimiter and --quote take one ASCII character each (or tab), not a newline, and not the same one.")
        }
        do {
            _ = try _Only.parse(onlyValues)
            if !fieldValues.isEmpty { _ = try NumberAnswerField.parse(fieldValues) }
        } catch let error as CLIError {
            throw ValidationError(error.message)
        }
        if let carrierLanguage, CarrierLocale(carrierLanguage) == nil {
            throw ValidationError("--carrier-lang takes a language tag such as en, ru or zh_Hant, not '\(carrierLanguage)'.")
        }
        if inputFormat == .lines {
            if case .name = column { throw ValidationError("--column NAME needs CSV or TSV input; plain lines have one field.") }
            if case .index(let index)? = column, index > 0 { throw ValidationError("plain lines have one field; --column must be 1.") }
            if regionColumn != nil { throw ValidationError("--region-column needs CSV or TSV input (--input-format csv|tsv).") }
        }
    }

    func run() throws {
        _Interrupt.install()
        let engine = PhoneNumberEngine()
        let started = _now()
        let sources = try planSources()

        let wantsSummary = summary || summaryFormat != nil || summaryFile != nil
        // Until the first file's header is read: the plan of a one-column file without a header,
        // which is also the output of no records at all.
        let firstPlan = try makePlan(labels: ["1"], keptNames: ["column_1"], severalFiles: sources.count > 1)
        var pipeline = _ValidatePipeline(engine: engine, plan: firstPlan, tallies: wantsSummary, chunkSize: chunkSize)
        let drawsProgress = !noProgress && _Progress.allowed
        let sizes = drawsProgress ? sources.map { $0.path.map(_InputFiles.regularSize) ?? Self.regularSize(0) } : []
        let knownSize = drawsProgress && sizes.allSatisfy { $0 != nil } ? sizes.reduce(0) { $0 + ($1 ?? 0) } : nil
        pipeline.progress = _Progress(enabled: drawsProgress, totalBytes: knownSize)
        pipeline.planFromHeader = !isStandardLayout(severalFiles: sources.count > 1)

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
                begun = true  // the pipeline writes its prologue with the first record (or at the end)
                let reader = RecordReader(fd: fd, name: source.name, dialect: layout(for: source.format).dialect, encoding: encoding)
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
            if _Interrupt.received != nil, wantsSummary {
                // Stopped by Ctrl-C or SIGTERM: the totals of the records written, marked partial.
                try writeSummary(pipeline, notes: notes, seconds: _now() - started, partial: true)
            }
            if let error = error as? RecordReadError { throw CLIError.failure(error.description) }
            throw error
        }
        pipeline.progress.finish()
        if let bad = pipeline.badRegion {
            _Stderr.write("smskit: warning: \(_grouped(pipeline.badRegionCount)) region cell\(pipeline.badRegionCount == 1 ? "" : "s") not an ISO 3166-1 code (first: '\(bad)'); those rows had no default region\n")
        }
        if pipeline.tally.cutRecords > 0 {
            _Stderr.write("smskit: warning: \(_grouped(pipeline.tally.cutRecords)) record\(pipeline.tally.cutRecords == 1 ? " has" : "s have") more cells than the header; --keep wrote only the header's columns of those\n")
        }
        if wantsSummary {
            try writeSummary(pipeline, notes: notes, seconds: _now() - started, partial: _Interrupt.received != nil)
        }
        if unread > 0 {
            throw CLIError.failure("\(_grouped(unread)) of \(_grouped(sources.count)) inputs could not be read (see above); the others were validated")
        }
    }

    /// The summary, as text or JSON, to stderr or `--summary-file`.
    func writeSummary(_ pipeline: _ValidatePipeline, notes: [String], seconds: Double, partial: Bool) throws {
        let summary = _Summary(tally: pipeline.tally, records: pipeline.recordsRead, lines: pipeline.linesRead, duplicates: pipeline.duplicates, notes: notes,
                               files: pipeline.fileFacts, seconds: seconds, partial: partial, filtered: !onlyValues.isEmpty || unique)
        let text = summaryFormat == .json ? summary.json : summary.text
        guard let summaryFile else {
            _Stderr.write(text)
            return
        }
        do {
            try _Summary.writeFile(text, to: summaryFile)
        } catch {
            throw CLIError.failure("cannot write the summary to \(summaryFile): \(error)")
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

    /// `--encoding`: `auto` or a name ICU knows; anything else is a usage error.
    static func encodingArgument(_ text: String) throws -> InputEncoding {
        guard let encoding = InputEncoding(text) else {
            throw ValidationError("unknown encoding '\(text)': give auto or an ICU converter name such as windows-1252, ISO-8859-15, Shift_JIS, GB18030, KOI8-R or UTF-16LE")
        }
        return encoding
    }

    /// The dialect given by `--delimiter` and `--quote`, or `nil` (none given, or invalid).
    var givenDialect: CSVDialect? {
        guard delimiter != nil || quote != nil else { return nil }
        return CSVDialect(delimiter: delimiter ?? ",", quote: quote ?? "\"")
    }

    /// How a source in `format` is read: the given dialect, or the format's, with the delimiter
    /// of CSV detected from its first record unless `--delimiter` was given.
    func layout(for format: InputFormat) -> TableLayout {
        TableLayout(format: format, dialect: givenDialect, detectsDelimiter: delimiter == nil)
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
            let format = inputFormat ?? (strictLines ? .lines : (delimiter != nil ? .csv : TableLayout.format(forPath: name)))
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
        var layout = self.layout(for: format)
        layout.settle(on: first, reader: reader)
        if let detection = layout.detection { notes.append("\(reader.name): \(detection.reason)") }
        let dialect = layout.dialect
        switch reader.detectedEncoding {
        case .utf16(let bigEndian, _)?:
            notes.append("\(reader.name): UTF-16\(bigEndian ? "BE" : "LE") with a byte order mark, decoded")
        case .decoded(let decoded, let byteOrderMark)?:
            notes.append("\(reader.name): \(decoded.name)\(byteOrderMark > 0 ? " with a byte order mark" : ""), decoded")
        default:
            break
        }
        var namedColumn = false
        if case .name = column { namedColumn = true }
        if case .name = regionColumn { namedColumn = true }
        let region = self.region
        let parses: (String) -> Bool = { cell in
            var text = cell
            return text.withUTF8 { engine.check(utf8: $0, defaultRegion: region?.code).number != nil }
        }
        let hasHeader = !strictLines && layout.isHeader(first, given: header, namesColumn: namedColumn, parsesAsNumber: parses)
        var headerNames: [String]?
        var otherColumns: [Int] = []
        if hasHeader && format != .lines {
            let header = layout.header(first)
            let names = header.names
            headerNames = names
            func resolve(_ argument: ColumnArgument, _ what: String) throws -> Int {
                if let index = header.position(of: argument.column) { return index }
                throw CLIError.usage("\(reader.name) has no column named '\(argument.name ?? "")' for \(what); its header: \(names.joined(separator: ", "))")
            }
            var why: String?
            if let column {
                numberIndex = try resolve(column, "--column")
                otherColumns = try columns.dropFirst().map { try resolve($0, "--column") }
            } else if let found = header.firstPosition(namedAnyOf: Self.numberColumnNames) {
                numberIndex = found
            } else if let choice = HeaderDetection.phoneColumn(header: names) {
                numberIndex = choice.index
                why = choice.reason
            }
            if let regionColumn {
                regionIndex = try resolve(regionColumn, "--region-column")
            } else if let found = header.firstPosition(namedAnyOf: Self.regionColumnNames), found != numberIndex {
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
            for case .index(let index) in columns.dropFirst() { otherColumns.append(index) }
            if case .index(let index)? = regionColumn { regionIndex = index }
        }
        // No header and no --column: the column where most of the first 100 rows parse.
        var sampled: [(line: Int, record: Int, bytes: [UInt8], problem: RecordProblem?, lineCount: Int)] = []
        // Not with --strict-lines: sampling would hold answers back until 100 rows have come.
        if !hasHeader, column == nil, format != .lines, !strictLines {
            sampled.append((first.line, first.record, Array(first.bytes), first.problem, first.lineCount))
            while sampled.count < 100, let record = try next() {
                sampled.append((record.line, record.record, Array(record.bytes), record.problem, record.lineCount))
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
        let numberColumns = [numberIndex] + otherColumns
        let labels = numberColumns.map { index in headerNames.flatMap { index < $0.count ? $0[index] : nil } ?? String(index + 1) }
        pipeline.pointee.numberColumns = numberColumns
        pipeline.pointee.fileName = reader.name
        pipeline.pointee.fileFacts.append(_Summary.FileFacts(
            name: reader.name, format: format.rawValue, delimiter: format == .lines ? nil : dialect?.delimiterName, header: hasHeader,
            numberColumns: zip(numberColumns, labels).map { (position: $0 + 1, name: headerNames == nil ? nil : $1) },
            regionColumn: regionIndex.map { $0 + 1 }))
        if pipeline.pointee.planFromHeader {
            pipeline.pointee.planFromHeader = false
            // Without a header, as many columns as the first record has (its bytes are still
            // valid when nothing was read after it: no sampling).
            let width: Int
            if let headerNames {
                width = headerNames.count
            } else if let row = sampled.first {
                width = row.bytes.withUnsafeBytes { RecordFields.all($0, dialect: dialect).count }
            } else {
                width = RecordFields.all(first.bytes, dialect: dialect).count
            }
            pipeline.pointee.plan = try makePlan(labels: labels, keptNames: headerNames ?? (1...max(1, width)).map { "column_\($0)" },
                                                 severalFiles: files.count > 1)
        }
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
                    try add(RecordReader.Record(line: row.line, record: row.record, bytes: bytes, problem: row.problem, lineCount: row.lineCount))
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

    /// `--format`, else text on a terminal (not with `--strict-lines`), else jsonl.
    var outputFormat: RecordFormat { format ?? (isatty(1) == 1 && !strictLines ? .text : .jsonl) }

    /// Whether the output is the default layout: the standard fields, which need nothing of the
    /// files' headers; not `--keep`, several `--column`s, `--split`, `--fields`, `--unique` or
    /// several files.
    func isStandardLayout(severalFiles: Bool) -> Bool {
        fieldValues.isEmpty && !keep && columns.count <= 1 && !split && !unique && !severalFiles
    }

    /// The output for the first file's header (`keptNames`) and number columns (`labels`).
    func makePlan(labels: [String], keptNames: [String], severalFiles: Bool) throws -> _OutputPlan {
        var fields: [NumberAnswerField]
        let standard = isStandardLayout(severalFiles: severalFiles)
        if standard {
            fields = NumberAnswerField.standard
        } else if fieldValues.isEmpty {
            fields = [.line, .record]
            if split && labels.count > 1 { fields.append(.column) }
            fields += NumberAnswerField.standard.dropFirst()
            if severalFiles { fields.insert(.file, at: 0) }
        } else {
            fields = try NumberAnswerField.parse(fieldValues)
        }
        return _OutputPlan(
            format: outputFormat, fields: fields, keptNames: keep ? keptNames : nil, labels: labels,
            split: split, only: try _Only.parse(onlyValues), unique: unique, headerRow: !strictLines,
            textLines: standard, colour: outputFormat == .text && _Progress.wantsColour, carrierLocale: carrierLanguage.flatMap { CarrierLocale($0) } ?? .english)
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
