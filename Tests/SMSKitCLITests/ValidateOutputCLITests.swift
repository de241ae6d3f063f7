import Foundation
import Testing

/// `smskit validate`'s output choices end to end, on the contact exports of
/// Tests/SMSKitRecordsTests/Fixtures (a Google Contacts export with " ::: " cells, a quoted
/// multi-line address and two phone columns; a semicolon Excel export with a BOM and CRLF):
/// `--keep`, several `--column`s, `--split`, `--fields`, `--only`, `--unique`, the `record` and
/// `file` fields, `--summary-format json`, `--summary-file`, the partial summary after a signal,
/// colour and the progress line on a terminal.
@Suite struct ValidateOutputCLITests {
    static let fixtures = ContactExportCLITests.fixtures

    /// RFC 4180 records (quoted fields may hold the delimiter, quotes and newlines).
    static func csvRecords(_ text: String, delimiter: Character = ",") -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var inQuotes = false
        var iterator = Array(text).makeIterator()
        var pending: Character? = nil
        while let character = pending ?? iterator.next() {
            pending = nil
            if inQuotes {
                if character == "\"" {
                    if let next = iterator.next() {
                        if next == "\"" { field.append("\"") } else { inQuotes = false; pending = next }
                    } else {
                        inQuotes = false
                    }
                } else {
                    field.append(character)
                }
            } else if character == "\"" {
                inQuotes = true
            } else if character == delimiter {
                record.append(field)
                field = ""
            } else if character == "\n" {
                record.append(field)
                records.append(record)
                record = []
                field = ""
            } else {
                field.append(character)
            }
        }
        return records
    }

    static func validate(_ arguments: [String], stdin: Data = Data()) throws -> CLIResult {
        try CLI.run(["validate"] + arguments, stdin: stdin)
    }

    // MARK: --keep, several columns, --split

    @Test("a Google Contacts export, cleaned in one command: --keep, two phone columns, --split")
    func googleContactsKeepSplit() throws {
        let result = try Self.validate([Self.fixtures + "google-contacts.csv", "--keep", "--column", "Phone 1 - Value",
                                        "--column", "Phone 2 - Value", "--split", "--format", "csv"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let records = Self.csvRecords(result.stdout)
        let header = try #require(records.first)
        let inputHeader = try String(contentsOfFile: Self.fixtures + "google-contacts.csv", encoding: .utf8)
            .split(separator: "\n").first.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) } ?? []
        #expect(header == ["line", "record"] + inputHeader
            + ["column", "input", "ok", "error", "e164", "possible", "valid", "type", "region", "fictional"])
        let rows = records.dropFirst().map { Dictionary(zip(header, $0), uniquingKeysWith: { first, _ in first }) }
        #expect(records.dropFirst().allSatisfy { $0.count == header.count })
        // Ann: both columns; Bob: two numbers in one " ::: " cell; Carla, Dieter; Emma has none.
        #expect(rows.map { $0["record"] ?? "" } == ["2", "2", "3", "3", "4", "5", "6"])
        #expect(rows.map { $0["line"] ?? "" } == ["2", "2", "6", "6", "7", "8", "9"])
        #expect(rows.map { $0["column"] ?? "" } == ["Phone 1 - Value", "Phone 2 - Value", "Phone 1 - Value", "Phone 1 - Value",
                                                    "Phone 1 - Value", "Phone 1 - Value", "Phone 1 - Value"])
        #expect(rows.map { $0["e164"] ?? "" } == ["+447700900123", "+442079460000", "+447700900456", "+442079460001", "", "+49301234567", ""])
        #expect(rows.map { $0["Name"] ?? "" } == ["Ann Example", "Ann Example", "Bob Sample", "Bob Sample", "Carla Test", "Dieter Probe", "Emma Nobody"])
        // Kept cells as read: the multi-line address, the quotes of the notes, the " ::: " cell itself.
        #expect(rows[0]["Address 1 - Formatted"] == "1 Example Street\nLondon\nSW1A 1AA\nGB")
        #expect(rows[4]["Notes"] == "Met at \"the conference\", call after 5")
        #expect(rows[2]["Phone 1 - Value"] == "+44 7700 900456 ::: +44 20 7946 0001")
        #expect(rows[4]["error"] == "invalid_country_code")
        #expect(rows[6]["error"] == "not_a_number")
    }

    @Test("several --column without --split: one record per contact, result columns named '<column>.<field>'")
    func severalColumnsArePrefixed() throws {
        let result = try Self.validate([Self.fixtures + "google-contacts.csv", "--column", "Phone 1 - Value", "--column", "35",
                                        "--format", "jsonl"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let records = try result.jsonLines()
        #expect(records.count == 5)
        let first = try #require(records.first)
        #expect(first["record"] as? Int == 2)
        #expect(first["Phone 1 - Value.e164"] as? String == "+447700900123")
        #expect(first["Phone 2 - Value.e164"] as? String == "+442079460000")
        #expect(first["Phone 2 - Value.type"] as? String == "fixed_line")
        #expect(first["e164"] == nil)
        #expect(records[1]["Phone 1 - Value.error"] as? String == "not_a_number")  // two numbers, no --split
        #expect(records[1]["Phone 2 - Value.input"] as? String == "")
    }

    @Test("a semicolon Excel export with BOM and CRLF: --keep writes clean cells, in CSV, TSV and JSON")
    func excelSemicolonKeep() throws {
        let csv = try Self.validate([Self.fixtures + "excel-semicolon.csv", "-k", "--region-column", "Land", "--format", "csv"])
        #expect(csv.status == 0, "stderr: \(csv.stderr)")
        #expect(!csv.stdout.contains("\r") && !csv.stdout.contains("\u{FEFF}"))
        let lines = csv.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "line,record,Name,Vorname,Telefon,Handy,Land,input,ok,error,e164,possible,valid,type,region,fictional")
        #expect(lines[1] == "2,2,Muster,Max,030 1234567,0151 23456789,Deutschland,0151 23456789,true,,+4915123456789,is_possible,true,mobile,DE,")
        #expect(lines[2].hasPrefix("3,3,"))
        #expect(lines[2].contains(",\"4,47911E+11\",") && lines[2].contains(",spreadsheet_number,"))

        let tsv = try Self.validate([Self.fixtures + "excel-semicolon.csv", "-k", "--region-column", "Land", "--format", "tsv"])
        let tsvLines = tsv.stdout.split(separator: "\n").map(String.init)
        #expect(tsvLines.first?.split(separator: "\t").count == 16)
        #expect(tsvLines[2].split(separator: "\t", omittingEmptySubsequences: false)[5] == "4,47911E+11")

        let json = try Self.validate([Self.fixtures + "excel-semicolon.csv", "--keep", "--region-column", "Land", "--format", "json"])
        let array = try #require(try json.json() as? [[String: Any]])
        #expect(array.count == 5)
        #expect(array[0]["Name"] as? String == "Muster")
        #expect(array[0]["Land"] as? String == "Deutschland")
        #expect(array[0]["e164"] as? String == "+4915123456789")
    }

    @Test("--keep on records with more cells than the header: the extra cells are counted and reported")
    func keepRaggedRecords() throws {
        let path = try CLI.file("ragged.csv", "name,phone\nAnn,+44 20 7946 0000,extra\nBob\n")
        let result = try Self.validate([path, "--keep", "--format", "csv"])
        #expect(result.status == 0)
        #expect(result.stdout == "line,record,name,phone,input,ok,error,e164,possible,valid,type,region,fictional\n"
            + "2,2,Ann,+44 20 7946 0000,+44 20 7946 0000,true,,+442079460000,is_possible,true,fixed_line,GB,reserved-for-fiction\n"
            + "3,3,Bob,,,false,not_a_number,,,false,,,\n")
        #expect(result.stderr.contains("1 record has more cells than the header"), "stderr: \(result.stderr)")
    }

    @Test("--split on plain lines: every number of a line, each with its record number")
    func splitLines() throws {
        let input = "+44 20 7946 0000 / +44 20 7946 0001\n030 1234567; 0151 23456789 or +49 30 7654321\n\n"
        let result = try Self.validate(["--split", "--region", "DE", "--fields", "record,input,e164"], stdin: Data(input.utf8))
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.lines == [
            #"{"record":1,"input":"+44 20 7946 0000","e164":"+442079460000"}"#,
            #"{"record":1,"input":"+44 20 7946 0001","e164":"+442079460001"}"#,
            #"{"record":2,"input":"030 1234567","e164":"+49301234567"}"#,
            #"{"record":2,"input":"0151 23456789","e164":"+4915123456789"}"#,
            #"{"record":2,"input":"+49 30 7654321","e164":"+49307654321"}"#,
            #"{"record":3,"input":"","e164":null}"#,
        ])
    }

    @Test("several files: a file field")
    func severalFiles() throws {
        let first = try CLI.file("first.txt", "+44 20 7946 0000\n")
        let second = try CLI.file("second.txt", "+49 30 1234567\nnope\n")
        let result = try Self.validate([first, second, "--format", "csv"])
        #expect(result.status == 0)
        let rows = Self.csvRecords(result.stdout)
        #expect(rows.first?.prefix(4) == ["file", "line", "record", "input"])
        #expect(rows.dropFirst().map { [$0[0], $0[1], $0[3]] } == [[first, "1", "+44 20 7946 0000"], [second, "1", "+49 30 1234567"],
                                                                  [second, "2", "nope"]])
    }

    // MARK: --fields

    @Test("--fields picks and orders the columns, the formats and the time zone, carrier and short-number facts included")
    func fields() throws {
        let input = "+44 20 7946 0000\n0151 23456789\n112\nnope\n"
        let result = try Self.validate(["--region", "DE", "--format", "csv", "--fields",
                                        "input,national,international,rfc3966,time_zones,carrier,short_number,cost,type"],
                                       stdin: Data(input.utf8))
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.split(separator: "\n").map(String.init) == [
            "input,national,international,rfc3966,time_zones,carrier,short_number,cost,type",
            "+44 20 7946 0000,020 7946 0000,+44 20 7946 0000,tel:+44-20-7946-0000,Europe/London,,false,,fixed_line",
            "0151 23456789,01512 3456789,+49 1512 3456789,tel:+49-1512-3456789,Europe/Berlin,T-Mobile,false,,mobile",
            // 112 parses (an invalid number of +49) and is a short number of DE.
            "112,112,+49 112,tel:+49-112,,,true,toll_free,unknown",
            "nope,,,,,,false,,",
        ])
        let russian = try Self.validate(["--fields", "carrier", "--carrier-lang", "ru", "--format", "csv"], stdin: Data("+7 903 123-45-67\n".utf8))
        #expect(russian.stdout == "carrier\nБилайн\n", "stdout: \(russian.stdout)")
        let english = try Self.validate(["--fields", "carrier", "--format", "csv"], stdin: Data("+7 903 123-45-67\n".utf8))
        #expect(english.stdout == "carrier\nBeeline\n", "stdout: \(english.stdout)")
        let json = try Self.validate(["--fields", "time_zones,carrier", "--format", "jsonl"], stdin: Data("+34 612 34 56 78\n".utf8))
        #expect(json.lines == [#"{"time_zones":["Atlantic/Canary","Europe/Madrid"],"carrier":"Syma"}"#])
    }

    /// The default layout (the standard fields, one writer for every layout), byte for byte in
    /// each format: numbers that parse, valid or not, fictional, with and without a region;
    /// records never checked (bytes that are not UTF-8, shown with U+FFFD; a NUL byte; a number
    /// in scientific notation); an empty line; a cell that CSV must quote; a tab.
    static let defaultLayoutInput: [UInt8] = Array("+1 650 253 0000\n020 7946 0000\n+44 20 7946 000\nhello\n".utf8)
        + [0x2B, 0x31, 0x36, 0xFF, 0xFE, 0x30, 0x0A] + Array("+1650\u{0}2530000\n4.47911E+11\n\n \"+49 30, 123\"\n+1 212\t555 0100\n".utf8)

    static let defaultLayoutGolden: [String: [String]] = [
        "jsonl": [
            #"{"line":1,"input":"+1 650 253 0000","ok":true,"error":null,"e164":"+16502530000","possible":"is_possible","valid":true,"type":"fixed_line_or_mobile","region":"US","fictional":null}"#,
            #"{"line":2,"input":"020 7946 0000","ok":true,"error":null,"e164":"+442079460000","possible":"is_possible","valid":true,"type":"fixed_line","region":"GB","fictional":"reserved-for-fiction"}"#,
            #"{"line":3,"input":"+44 20 7946 000","ok":true,"error":null,"e164":"+44207946000","possible":"is_possible","valid":false,"type":"unknown","region":null,"fictional":null}"#,
            #"{"line":4,"input":"hello","ok":false,"error":"not_a_number","e164":null,"possible":null,"valid":false,"type":null,"region":null,"fictional":null}"#,
            #"{"line":5,"input":"+16��0","ok":false,"error":"invalid_utf8","e164":null,"possible":null,"valid":false,"type":null,"region":null,"fictional":null}"#,
            #"{"line":6,"input":"+1650\u00002530000","ok":false,"error":"not_a_number","e164":null,"possible":null,"valid":false,"type":null,"region":null,"fictional":null}"#,
            #"{"line":7,"input":"4.47911E+11","ok":false,"error":"spreadsheet_number","e164":null,"possible":null,"valid":false,"type":null,"region":null,"fictional":null}"#,
            #"{"line":8,"input":"","ok":false,"error":"not_a_number","e164":null,"possible":null,"valid":false,"type":null,"region":null,"fictional":null}"#,
            #"{"line":9,"input":" \"+49 30, 123\"","ok":true,"error":null,"e164":"+4930","possible":"is_possible_local_only","valid":false,"type":"unknown","region":"DE","fictional":null}"#,
            #"{"line":10,"input":"+1 212\t555 0100","ok":false,"error":"not_a_number","e164":null,"possible":null,"valid":false,"type":null,"region":null,"fictional":null}"#,
        ],
        "csv": [
            "line,input,ok,error,e164,possible,valid,type,region,fictional",
            "1,+1 650 253 0000,true,,+16502530000,is_possible,true,fixed_line_or_mobile,US,",
            "2,020 7946 0000,true,,+442079460000,is_possible,true,fixed_line,GB,reserved-for-fiction",
            "3,+44 20 7946 000,true,,+44207946000,is_possible,false,unknown,,",
            "4,hello,false,not_a_number,,,false,,,",
            "5,+16\u{FFFD}\u{FFFD}0,false,invalid_utf8,,,false,,,",
            "6,+1650\02530000,false,not_a_number,,,false,,,",
            "7,4.47911E+11,false,spreadsheet_number,,,false,,,",
            "8,,false,not_a_number,,,false,,,",
            "9,\" \"\"+49 30, 123\"\"\",true,,+4930,is_possible_local_only,false,unknown,DE,",
            "10,+1 212\t555 0100,false,not_a_number,,,false,,,",
        ],
        "tsv": [
            "line\tinput\tok\terror\te164\tpossible\tvalid\ttype\tregion\tfictional",
            "1\t+1 650 253 0000\ttrue\t\t+16502530000\tis_possible\ttrue\tfixed_line_or_mobile\tUS\t",
            "2\t020 7946 0000\ttrue\t\t+442079460000\tis_possible\ttrue\tfixed_line\tGB\treserved-for-fiction",
            "3\t+44 20 7946 000\ttrue\t\t+44207946000\tis_possible\tfalse\tunknown\t\t",
            "4\thello\tfalse\tnot_a_number\t\t\tfalse\t\t\t",
            "5\t+16\u{FFFD}\u{FFFD}0\tfalse\tinvalid_utf8\t\t\tfalse\t\t\t",
            "6\t+1650\02530000\tfalse\tnot_a_number\t\t\tfalse\t\t\t",
            "7\t4.47911E+11\tfalse\tspreadsheet_number\t\t\tfalse\t\t\t",
            "8\t\tfalse\tnot_a_number\t\t\tfalse\t\t\t",
            "9\t \"+49 30, 123\"\ttrue\t\t+4930\tis_possible_local_only\tfalse\tunknown\tDE\t",
            "10\t+1 212\\t555 0100\tfalse\tnot_a_number\t\t\tfalse\t\t\t",
        ],
        "text": [
            "     1  +1 650 253 0000         +16502530000      valid    fixed_line_or_mobile  US",
            "     2  020 7946 0000           +442079460000     valid    fixed_line            GB   fictional: reserved-for-fiction",
            "     3  +44 20 7946 000         +44207946000      invalid  unknown",
            "     4  hello                   -                 error    not_a_number",
            "     5  +16\u{FFFD}\u{FFFD}0                  -                 error    invalid_utf8",
            "     6  +1650\\02530000          -                 error    not_a_number",
            "     7  4.47911E+11             -                 error    spreadsheet_number",
            "     8  \"\"                      -                 error    not_a_number",
            "     9   \"+49 30, 123\"          +4930             invalid  unknown               DE",
            "    10  +1 212\\t555 0100        -                 error    not_a_number",
        ],
    ]

    @Test("the default layout, golden, in every format", arguments: ["jsonl", "json", "csv", "tsv", "text"])
    func defaultLayoutGolden(_ format: String) throws {
        let path = try CLI.file("golden.txt", Data(Self.defaultLayoutInput))
        let result = try Self.validate([path, "--region", "GB", "--no-progress", "--format", format])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let expected: String
        if format == "json" {
            let records = try #require(Self.defaultLayoutGolden["jsonl"])
            expected = "[\n" + records.joined(separator: ",\n") + "\n]\n"
        } else {
            expected = try #require(Self.defaultLayoutGolden[format]).map { $0 + "\n" }.joined()
        }
        #expect(result.stdoutData == Data(expected.utf8), "\(format):\n\(result.stdout)")
    }

    @Test("no records at all: the header row is the layout's, --fields, --keep and --unique included")
    func headerOfNoRecords() throws {
        let cases: [([String], String)] = [
            ([], "line,input,ok,error,e164,possible,valid,type,region,fictional\n"),
            (["--fields", "e164,type"], "e164,type\n"),
            (["--unique"], "line,record,input,ok,error,e164,possible,valid,type,region,fictional\n"),
        ]
        for (arguments, header) in cases {
            let result = try Self.validate(arguments + ["--format", "csv", "--no-progress"], stdin: Data())
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stdout == header, "\(arguments): \(result.stdout)")
        }
    }

    @Test("--fields writes a record it never checked as the default layout does: bytes that are not UTF-8 as U+FFFD, in every format",
          arguments: ["csv", "tsv", "text", "jsonl"])
    func fieldsRepairTheInputOfARefusedNumber(_ format: String) throws {
        let input = Data([0x2B, 0x31, 0x36, 0xFF, 0xFE, 0x30, 0x0A])
        let result = try Self.validate(["--fields", "input,error", "--format", format, "--no-progress"], stdin: input)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let expected = switch format {
        case "csv": "input,error\n+16\u{FFFD}\u{FFFD}0,invalid_utf8\n"
        case "tsv": "input\terror\n+16\u{FFFD}\u{FFFD}0\tinvalid_utf8\n"
        case "text": "+16\u{FFFD}\u{FFFD}0  invalid_utf8\n"
        default: #"{"input":"+16\#u{FFFD}\#u{FFFD}0","error":"invalid_utf8"}"# + "\n"
        }
        #expect(result.stdoutData == Data(expected.utf8), "\(format): \(result.stdout)")
    }

    @Test("error_message: the engine's message, smskit's own for a record it never checked, null for a number that parsed")
    func errorMessages() throws {
        let result = try Self.validate(["--fields", "input,error,error_message", "--format", "jsonl", "--region", "GB"],
                                       stdin: Data("020 7946 0000\nhello\n4.47911E+11\n".utf8))
        #expect(result.lines == [
            #"{"input":"020 7946 0000","error":null,"error_message":null}"#,
            #"{"input":"hello","error":"not_a_number","error_message":"This does not look like a phone number: it needs at least 3 digits and only the punctuation phone numbers use."}"#,
            #"{"input":"4.47911E+11","error":"spreadsheet_number","error_message":"The number is in scientific notation, as spreadsheets write long numbers: its last digits are lost."}"#,
        ], "stdout: \(result.stdout)")
        let csv = try Self.validate(["--fields", "error_message", "--format", "csv"], stdin: Data("+44 1\n".utf8))
        #expect(csv.stdout == "error_message\nThe national number has fewer than 2 digits.\n", "stdout: \(csv.stdout)")
    }

    @Test("an unknown --fields or --only name is a usage error that lists the valid ones")
    func unknownNames() throws {
        let fields = try Self.validate(["--fields", "e164,phone"])
        #expect(fields.status == 64)
        #expect(fields.stderr.contains("unknown field 'phone' for --fields; valid fields: file, line, record, column, input, ok, error, error_message, e164, national, international, rfc3966"),
                "stderr: \(fields.stderr)")
        let only = try Self.validate(["--only", "cellphone"])
        #expect(only.status == 64)
        #expect(only.stderr.contains("unknown value 'cellphone' for --only; valid values: valid, invalid, fixed_line, mobile"), "stderr: \(only.stderr)")
        let language = try Self.validate(["--carrier-lang", "english!"])
        #expect(language.status == 64)
    }

    // MARK: --only, --unique

    @Test("--only takes types, several of them, and valid or invalid")
    func onlyTypes() throws {
        let input = "+44 20 7946 0000\n+49 1512 3456789\n+49 30 1234567\nnope\n+1 800 555 0199\n"
        func inputs(_ only: [String]) throws -> [String] {
            let result = try Self.validate(only.flatMap { ["--only", $0] } + ["--format", "csv"], stdin: Data(input.utf8))
            #expect(result.status == 0, "stderr: \(result.stderr)")
            return result.stdout.split(separator: "\n").dropFirst().map { String($0.split(separator: ",")[1]) }
        }
        #expect(try inputs(["mobile"]) == ["+49 1512 3456789"])
        #expect(try inputs(["mobile,fixed_line"]) == ["+44 20 7946 0000", "+49 1512 3456789", "+49 30 1234567"])
        #expect(try inputs(["toll_free", "invalid"]) == ["nope", "+1 800 555 0199"])
        #expect(try inputs(["valid"]).count == 4)
    }

    @Test("--unique keeps the first record of each number, whatever its spelling; the summary counts the others")
    func unique() throws {
        let input = "+44 20 7946 0000\n020 7946 0000\n+49 30 1234567\n0044 20 7946 0000\nnope\nnope\n+39 06 1234 5678\n+39 6 1234 5678\n"
        let result = try Self.validate(["--unique", "--region", "GB", "--format", "csv", "--fields", "record,e164", "--summary"],
                                       stdin: Data(input.utf8))
        #expect(result.status == 0)
        // Unparsed records are never dropped; +39 06... and +39 6... are different numbers.
        #expect(result.stdout == "record,e164\n1,+442079460000\n3,+49301234567\n5,\n6,\n7,+390612345678\n8,+39612345678\n", "stdout: \(result.stdout)")
        #expect(result.stderr.contains("duplicates 2 (dropped by --unique)"), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("written    6"))
    }

    @Test("--unique keys numbers as the library's dedupeKey does: an extension makes another number")
    func uniqueKeepsExtensions() throws {
        let input = "+1 650 253 0000\n+1 650 253 0000 ext. 12\n(650) 253-0000 x12\n+1 650 253 0000;ext=13\n650 253 0000\n"
        let result = try Self.validate(["--unique", "--region", "US", "--format", "csv", "--fields", "record,e164"],
                                       stdin: Data(input.utf8))
        #expect(result.status == 0)
        #expect(result.stdout == "record,e164\n1,+16502530000\n2,+16502530000\n4,+16502530000\n", "stdout: \(result.stdout)")
    }

    @Test("--unique over chunks and slices: the first of each number, in input order")
    func uniqueAcrossChunks() throws {
        var lines: [String] = []
        for index in 0..<30_000 { lines.append("+44 20 7946 \(String(format: "%04d", index % 7_000))") }
        let result = try Self.validate(["--unique", "--chunk-size", "2048", "--fields", "record", "--format", "csv"],
                                       stdin: Data((lines.joined(separator: "\n") + "\n").utf8))
        #expect(result.status == 0)
        #expect(result.stdout.split(separator: "\n").dropFirst().map { Int($0)! } == Array(1...7_000))
    }

    // MARK: Summary

    @Test("--summary-format json: one document with every region, type and error, the dialect and the columns")
    func summaryJSON() throws {
        let result = try Self.validate([Self.fixtures + "excel-semicolon.csv", "--region-column", "Land", "--summary-format", "json",
                                        "--format", "csv"])
        #expect(result.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stderr.utf8)) as? [String: Any], "stderr: \(result.stderr)")
        #expect(document["partial"] as? Bool == false)
        #expect(document["records"] as? Int == 5)
        #expect(document["valid"] as? Int == 4)
        #expect(document["by_region"] as? [String: Int] == ["DE": 1, "FR": 1, "ES": 1, "AT": 1])
        #expect((document["by_type"] as? [String: Int])?.count == 12)
        #expect(document["errors"] as? [String: Int] == ["spreadsheet_number": 1])
        let file = try #require((document["files"] as? [[String: Any]])?.first)
        #expect(file["delimiter"] as? String == "';'")
        #expect(file["header"] as? Bool == true)
        #expect((file["number_columns"] as? [[String: Any]])?.first?["name"] as? String == "Handy")
        #expect(file["region_column"] as? Int == 5)
    }

    @Test("--summary-file writes the summary there, stderr stays quiet")
    func summaryFile() throws {
        let directory = try CLI.temporaryDirectory()
        let path = directory.appendingPathComponent("summary.json").path
        let result = try Self.validate(["--summary-format", "json", "--summary-file", path, "--region", "GB"], stdin: Data("020 7946 0000\n".utf8))
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "stderr: \(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        #expect(document["valid"] as? Int == 1)
        let text = try Self.validate(["--summary-file", path], stdin: Data("x\n".utf8))
        #expect(text.status == 0)
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("smskit validate summary\n"))
    }

    @Test("after SIGTERM, the summary of the records written, marked partial")
    func partialSummary() throws {
        let path = try CLIFaultTests.input(blocks: 300_000)
        let directory = try CLI.temporaryDirectory()
        let summary = directory.appendingPathComponent("summary.json").path
        let running = try CLIBackgroundProcess(["validate", "--chunk-size", "4096", "--summary-format", "json", "--summary-file", summary, path])
        #expect(running.wait(upTo: 60) { running.stdoutSize > 0 })
        running.signal(SIGTERM)
        #expect(running.finish(within: 60))
        let result = running.result
        #expect(result.status == 143)
        let written = try CLIFaultTests.wholeRecords(result).count
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: summary))) as? [String: Any])
        #expect(document["partial"] as? Bool == true)
        #expect(document["written"] as? Int == written)
        #expect(document["records"] as? Int == written)
    }

    // MARK: Terminal

    /// Runs `smskit` under script(1), so that stdout and stderr are one pseudo-terminal.
    static func onTerminal(_ arguments: String, environment: String = "") throws -> CLIResult {
        let binary = try #require(CLI.executable).path
        return try CLI.shell("cd \"$(mktemp -d)\" && printf '+44 20 7946 0000\\nnope\\n' > in.txt && env -u CI -u NO_COLOR TERM=xterm \(environment) script -qec \"'\(binary)' validate in.txt --region GB \(arguments)\" /dev/null")
    }

    @Test("on a terminal the text format is coloured, unless NO_COLOR is set; no escape codes in a pipe; no progress line on the records' terminal")
    func colour() throws {
        let coloured = try Self.onTerminal("")
        #expect(coloured.status == 0)
        #expect(coloured.stdout.contains("\u{1B}[32mvalid\u{1B}[0m"), "stdout: \(coloured.stdout.debugDescription)")
        #expect(coloured.stdout.contains("\u{1B}[31merror\u{1B}[0m"))
        #expect(!coloured.stdout.contains("validate: "), "the progress line was drawn into the records")
        let plain = try Self.onTerminal("", environment: "NO_COLOR=1")
        #expect(!plain.stdout.contains("\u{1B}["), "stdout: \(plain.stdout.debugDescription)")
        #expect(plain.stdout.contains("valid"))
        let piped = try Self.validate(["--format", "text"], stdin: Data("+44 20 7946 0000\n".utf8))
        #expect(!piped.stdout.contains("\u{1B}"))
    }
}
