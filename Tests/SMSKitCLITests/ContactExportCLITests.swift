import Foundation
import Testing

/// `smskit validate` end to end on the contact exports of Tests/SMSKitRecordsTests/Fixtures
/// (written by make_fixtures.py): dialects, encodings, header and column detection, stray
/// quotes, spreadsheet numbers, region checks.
@Suite struct ContactExportCLITests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("SMSKitRecordsTests/Fixtures").path + "/"

    struct Case: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var status: Int32
        var stdout: [String]          // CSV lines, header included
        var stderr: [String]          // substrings
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let header = "line,input,ok,error,e164,possible,valid,type,region,fictional"

    static let cases: [Case] = [
        Case(arguments: ["google-contacts.csv"], status: 0, stdout: [
            header,
            "2,+44 7700 900123,true,,+447700900123,is_possible,false,unknown,,reserved-for-fiction",
            "6,+44 7700 900456 ::: +44 20 7946 0001,false,not_a_number,,,false,,,",
            "7,(202) 555-0100,false,invalid_country_code,,,false,,,",
            "8,+49 30 1234567,true,,+49301234567,is_possible,true,fixed_line,DE,",
            "9,,false,not_a_number,,,false,,,",
        ], stderr: ["',' detected in the first row", "number from column 33 (Phone 1 - Value)",
                    "column 33 'Phone 1 - Value', by its name ('phone'); other phone columns: 'Phone 2 - Value'"]),
        Case(arguments: ["outlook.csv"], status: 0, stdout: [
            header,
            "2,+44 7700 900789,true,,+447700900789,is_possible,false,unknown,,reserved-for-fiction",
            "3,+49 1512 3456789,true,,+4915123456789,is_possible,true,mobile,DE,",
            "4,+34 612 34 56 78,true,,+34612345678,is_possible,true,mobile,ES,",
        ], stderr: ["number from column 16 (Mobile Phone)"]),
        Case(arguments: ["excel-semicolon.csv", "--region-column", "Land"], status: 0, stdout: [
            header,
            "2,0151 23456789,true,,+4915123456789,is_possible,true,mobile,DE,",
            "3,\"4,47911E+11\",false,spreadsheet_number,,,false,,,",
            "4,'+33 6 12 34 56 78,true,,+33612345678,is_possible,true,mobile,FR,",
            "5,+34 612 34 56 78,true,,+34612345678,is_possible,true,mobile,ES,",
            "6,+43 664 1234567,true,,+436641234567,is_possible,true,mobile,AT,",
        ], stderr: ["';' detected in the first row (0 ',', 4 ';', 0 tab, 0 '|')", "number from column 4 (Handy), region from column 5 (Land)",
                    "errors     spreadsheet_number 1"]),
        Case(arguments: ["excel-semicolon.csv", "-d", ";", "--column", "Telefon", "--region", "de"], status: 0, stdout: [
            header,
            "2,030 1234567,true,,+49301234567,is_possible,true,fixed_line,DE,",
            "3,+49 30 7654321,true,,+49307654321,is_possible,true,fixed_line,DE,",
            "4,01 23 45 67 89,true,,+49123456789,is_possible,false,unknown,DE,",
            "5,,false,not_a_number,,,false,,,",
            "6,+43 1 234567,true,,+431234567,is_possible,true,fixed_line,AT,",
        ], stderr: []),
        Case(arguments: ["excel-unicode-text.txt", "-d", "tab"], status: 0, stdout: [
            header,
            "2,+44 7700 900321,true,,+447700900321,is_possible,false,unknown,,reserved-for-fiction",
            "3,+7 912 345-67-89,true,,+79123456789,is_possible,true,mobile,RU,",
            "4,+86 138 0013 8000,true,,+8613800138000,is_possible,true,mobile,CN,",
            "5,+1 202 555 0101,true,,+12025550101,is_possible,true,fixed_line_or_mobile,US,reserved-for-fiction",
        ], stderr: ["UTF-16LE with a byte order mark, decoded", "number from column 2 (Mobile Phone)"]),
        Case(arguments: ["excel-unicode-text-no-bom.txt", "-d", "tab"], status: 1, stdout: [""],
             stderr: ["looks like UTF-16LE (a NUL in every other byte, no byte order mark); read it with --encoding UTF-16LE, or convert it to UTF-8 first: iconv -f UTF-16LE -t UTF-8"]),
        Case(arguments: ["latin1.csv"], status: 1, stdout: [""],
             stderr: ["looks like windows-1252", "read it with --encoding windows-1252", "iconv -f windows-1252 -t UTF-8"]),
        Case(arguments: ["no-header.csv", "--region", "gb"], status: 0, stdout: [
            header,
            "1,+44 7700 900111,true,,+447700900111,is_possible,false,unknown,,reserved-for-fiction",
            "2,+44 7700 900222,true,,+447700900222,is_possible,false,unknown,,reserved-for-fiction",
            "3,07700 900333,true,,+447700900333,is_possible,false,unknown,,reserved-for-fiction",
            "4,not a number,false,not_a_number,,,false,,,",
        ], stderr: ["no header row; number from column 2, by content: 3 of 4 sampled rows parse as numbers there"]),
        Case(arguments: ["no-header.csv", "--region", "UK"], status: 64, stdout: [""],
             stderr: ["unknown region 'UK'; did you mean GB? (UK is not an ISO 3166-1 code)"]),
        Case(arguments: ["no-header.csv", "--region", "XX"], status: 64, stdout: [""],
             stderr: ["unknown region 'XX': not an ISO 3166-1 alpha-2 code"]),
        Case(arguments: ["no-header.csv", "--region", "DEU"], status: 64, stdout: [""], stderr: ["did you mean DE?"]),
        Case(arguments: ["no-header.csv", "-d", ";;"], status: 64, stdout: [""], stderr: ["--delimiter and --quote take one ASCII character"]),
    ]

    @Test(arguments: cases)
    func validate(_ test: Case) throws {
        let arguments = ["validate", Self.fixtures + test.arguments[0]] + test.arguments.dropFirst() + ["--format", "csv", "--summary"]
        let result = try CLI.run(arguments)
        #expect(result.status == test.status, "stderr: \(result.stderr)")
        if test.status == 0 {
            #expect(result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) == test.stdout)
        } else {
            #expect(result.stdout.isEmpty)
        }
        for expected in test.stderr {
            #expect(result.stderr.contains(expected), "stderr: \(result.stderr)")
        }
    }

    /// Row 7's quote is at a field's start: as Python's csv reads it, a quoted field that row 9's
    /// first quote closes, so rows 7 to 9 are one record (an error record: not a number), the
    /// rows after it are all read, and the summary counts lines and records apart.
    @Test func aQuoteAtAFieldStartInRow7SpansToTheNextQuote() throws {
        var text = "name,phone,region\n"
        for row in 2...100_006 {
            let name = row % 3 == 0 ? "\"Ann \(row)\"" : "Bob \(row)"
            text += row == 7 ? "Bob 7,\"+44 20 7946 0007,GB\n" : "\(name),+44 20 7946 \(String(format: "%04d", row % 10_000)),GB\n"
        }
        let path = try CLI.file("stray.csv", text)
        let result = try CLI.run(["validate", path, "--format", "csv", "--summary"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("""
            6,+44 20 7946 0006,true,,+442079460006,is_possible,true,fixed_line,GB,reserved-for-fiction
            7,"+44 20 7946 0007,GB
            Bob 8,+44 20 7946 0008,GB
            Ann 9\"\"\",false,not_a_number,,,false,,,
            10,+44 20 7946 0010,true,,+442079460010,is_possible,true,fixed_line,GB,reserved-for-fiction

            """))
        #expect(result.stdout.hasSuffix("100006,+44 20 7946 0006,true,,+442079460006,is_possible,true,fixed_line,GB,reserved-for-fiction\n"))
        #expect(!result.stderr.contains("never closed"), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("lines      100,005 (quoted fields span lines)"), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("records    100,003\n"))
        #expect(result.stderr.contains("errors     not_a_number 1"))
    }

    @Test func regionCellsMayBeCountryNames() throws {
        let path = try CLI.file("names.csv", "phone,region\n030 1234567,Deutschland\n020 7946 0000,United Kingdom\n020 7946 0001,UK\n06 12 34 56 78,Frankreich\n555 0100,Atlantis\n")
        let result = try CLI.run(["validate", path, "--format", "csv"])
        #expect(result.status == 0)
        #expect(result.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false)[4] }
            == ["e164", "+49301234567", "+442079460000", "+442079460001", "+33612345678", ""])
        #expect(result.stderr.contains("1 region cell not an ISO 3166-1 code (first: 'Atlantis')"), "stderr: \(result.stderr)")
    }
}
