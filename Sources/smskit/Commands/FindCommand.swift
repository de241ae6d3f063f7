import ArgumentParser
import PhoneNumbers
import SMSKitCommandLine
import SMSKitJSON
import SMSKitRecords

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `PhoneNumberLeniency` as a command-line value.
extension PhoneNumberLeniency: ExpressibleByArgument {}

/// Output formats of `smskit find`.
enum FindFormat: String, CaseIterable, ExpressibleByArgument {
    case jsonl, csv

    var wire: WireFormat { self == .csv ? .csv : .jsonl }
}

/// `smskit find [FILE...]`: the phone numbers in each line of text.
struct FindCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find",
        abstract: "List the phone numbers found in each line of text (message bodies, notes, contact cells).",
        discussion: """
            Reads each FILE (stdin when none, or for '-') line by line and writes one record per \
            number found, as libphonenumber's PhoneNumberMatcher finds them: `file` (when files are \
            given), `line` (1-based), `start` and `end` (Unicode code points from the start of the \
            line, end exclusive, as Python's phonenumbers counts), `utf8_start` and `utf8_end` \
            (bytes), `raw` (the text matched), `e164`, `extension`, `valid`, `region` and `type`. \
            The encoding is detected as for validate (a byte order mark, UTF-16, a legacy \
            encoding) or given with --encoding; offsets count the text decoded to UTF-8, and bytes \
            that are not UTF-8 in a UTF-8 file are read as U+FFFD (3 bytes in the byte offsets). \
            A line ends at LF (a CR before it is dropped). A line longer than --max-line-bytes is skipped with a \
            warning on stderr.

            EXAMPLES:
              echo "Call +44 20 7946 0123 or 020 7946 0124" | smskit find --region GB
              smskit find notes.txt --region US --leniency exact-grouping
              smskit find export.csv --region DE --format csv
            """
    )

    @Argument(help: "Text files; stdin when none or '-'.")
    var files: [String] = []

    @Option(help: "Default region of numbers written without an international prefix (ISO 3166-1 code); without it, only numbers with + are found.")
    var region: RegionArgument?

    @Option(help: "possible, valid, strict-grouping or exact-grouping (libphonenumber's Leniency).")
    var leniency: PhoneNumberLeniency = .valid

    @Option(help: "Output format: jsonl or csv (with a header row).")
    var format: FindFormat = .jsonl

    @Option(help: "Longest line read, in bytes.")
    var maxLineBytes: Int = 1 << 20

    @Option(name: [.customShort("e"), .long],
            help: ArgumentHelp("The input's encoding: auto (default) or an ICU converter name, as for validate.", valueName: "NAME"),
            transform: { try ValidateCommand.encodingArgument($0) })
    var encoding: InputEncoding = .automatic

    func validate() throws {
        guard maxLineBytes > 0 else { throw ValidationError("--max-line-bytes must be positive") }
    }

    func run() throws {
        let engine = PhoneNumberEngine()
        var output = _Output()
        let named = !files.isEmpty
        let fields = FoundNumberField.record(naming: named)
        if format == .csv {
            try output.write(FoundNumber.header(fields: fields, as: .csv) + "\n")
        }
        var failed = false
        for file in named ? files : ["-"] {
            let fd: Int32 = file == "-" ? 0 : open(file, O_RDONLY)
            guard fd >= 0 else {
                try output.flush()
                _warn("cannot open \(file): \(String(cString: strerror(errno)))")
                failed = true
                continue
            }
            defer { if fd != 0 { close(fd) } }
            // The records' reader decides the encoding and where lines end, as for validate and
            // segments --lines.
            let reader = RecordReader(fd: fd, name: file == "-" ? "<stdin>" : file, dialect: nil,
                                      maximumRecordBytes: maxLineBytes, encoding: encoding)
            while true {
                let next: RecordReader.Record?
                do { next = try reader.next() } catch {
                    try output.flush()
                    throw CLIError.failure(error.description)
                }
                guard let line = next else { break }
                if line.isTooLong {
                    _warn("\(file):\(line.line): line longer than \(maxLineBytes) bytes, skipped")
                    continue
                }
                let found = FoundNumber.find(inLine: line.bytes, line: line.line, file: named ? file : nil,
                                             region: region?.code, leniency: leniency, engine: engine)
                for number in found {
                    var record = number.record(fields: fields, as: format.wire)
                    record.append(UInt8(ascii: "\n"))
                    try output.write(record)
                }
            }
        }
        try output.flush()
        if failed { throw ExitCode(SMSKitExitCode.failure) }
    }
}

/// Writes a warning to stderr.
private func _warn(_ message: String) {
    var error = _Output(fd: 2, capacity: 4096)
    try? error.write("smskit: \(message)\n")
    try? error.flush()
}
