import Foundation
import Testing

/// `smskit validate` as a strict line filter for engines that pipe lines through
/// a program (Hadoop streaming, ClickHouse executable functions, Spark's `RDD.pipe`): exactly one
/// output line per input line, in order, no header, in TSV and JSONL, never a skipped line (empty,
/// garbage, huge, invalid UTF-8, NUL, CR), and the output of what was read flushed without waiting
/// for more input.
///
/// Run with `--strict-lines`: the defaults write a TSV header row and hold the answers of a
/// partial chunk (and of full chunks) until more input or its end comes.
@Suite("smskit validate as a strict line filter")
struct StrictLinesTests {
    /// The arguments a strict filter runs with.
    static let strict: [String] = ["validate", "--no-progress", "--strict-lines"]

    /// Lines that must each give one output line: each is one input line (no "\n" inside).
    static let awkwardLines: [[UInt8]] = [
        Array("+16502530000".utf8),
        [],                                                   // empty
        Array("   ".utf8),                                    // blanks
        Array("garbage ☎ not a number".utf8),
        [0xFF, 0xFE, 0x31, 0x32],                             // invalid UTF-8
        [0xC3, 0x28],                                         // invalid UTF-8 (bad continuation)
        Array("+1 650\u{0}253 0000".utf8),                    // NUL
        Array("\"+1 650".utf8),                               // an open quote: not CSV, no merge
        Array("253 0000\"".utf8),
        Array("a\tb".utf8),                                   // a tab inside
        Array("x\ry".utf8),                                   // a lone CR inside
        Array("\u{FEFF}+44 7400 123456".utf8),                // a BOM not at the file's start
        Array("number".utf8),                                 // looks like a header
        Array("+44 7400 123456".utf8),
    ]

    /// Lines over and at the 64 KiB record limit.
    static let hugeLines: [[UInt8]] = [
        Array(repeating: UInt8(ascii: "1"), count: 70_000),
        Array(repeating: UInt8(ascii: "7"), count: 65_536),
        Array(repeating: UInt8(ascii: "+"), count: 1 << 20),
    ]

    /// `lines` joined with "\n" (CRLF for every third line), the last one without a line end.
    static func input(_ lines: [[UInt8]]) -> Data {
        var data = Data()
        for (index, line) in lines.enumerated() {
            data.append(contentsOf: line)
            if index < lines.count - 1 { data.append(contentsOf: index % 3 == 2 ? [0x0D, 0x0A] : [0x0A]) }
        }
        return data
    }

    /// 40,000 input lines: the awkward ones repeated, so that records cross chunk boundaries
    /// (16,384 records by default), and the huge ones at the start, at a boundary and at the end.
    static let manyLines: [[UInt8]] = {
        var lines = (0..<40_000).map { awkwardLines[$0 % awkwardLines.count] }
        for (k, position) in [1, 16_383, 16_384, 39_998].enumerated() { lines[position] = hugeLines[k % hugeLines.count] }
        // The last line has no line end, so it must not be empty ("a\n" is one line, not two).
        lines[lines.count - 1] = Array("+44 7400 123456".utf8)
        return lines
    }()

    @Test("JSONL: one line per input line, in order, no header, nothing skipped")
    func jsonlOneLinePerLine() throws {
        let result = try CLI.run(Self.strict + ["--format", "jsonl"], stdin: Self.input(Self.manyLines))
        #expect(result.status == 0, "\(result.stderr)")
        let physical = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(physical.last == "", "the output does not end with a line end")
        let records = try result.jsonLines()
        #expect(records.count == Self.manyLines.count)
        #expect(physical.count - 1 == Self.manyLines.count, "a record spans lines")
        for (index, record) in records.enumerated() {
            #expect(record["line"] as? Int == index + 1)
            let line = Self.manyLines[index]
            if line.starts(with: [0xEF, 0xBB, 0xBF]) {
                // Foundation's JSON parser drops a U+FEFF; the bytes are in the output line.
                #expect(physical[index].utf8.starts(with: [0x7B]) && physical[index].utf8.contains(0xEF))
            } else if line.count <= 65_536, let text = String(validating: line, as: UTF8.self) {
                #expect(record["input"] as? String == text, "line \(index + 1)")
            } else if line.count > 65_536 {
                #expect(record["error"] as? String == "line_too_long", "line \(index + 1)")
            }
            #expect(record.keys.contains("e164") && record.keys.contains("error"))
        }
    }

    @Test("TSV: one line per input line, in order, nothing skipped")
    func tsvRecordsOneLinePerLine() throws {
        let result = try CLI.run(Self.strict + ["--format", "tsv"], stdin: Self.input(Self.manyLines))
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == Self.manyLines.count)
        for (index, line) in lines.enumerated() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            #expect(fields.count == 10, "line \(index + 1): \(fields.count) fields")
            #expect(fields.first.map(String.init) == String(index + 1))
        }
    }

    @Test("TSV: no header row")
    func tsvHasNoHeader() throws {
        let result = try CLI.run(Self.strict + ["--format", "tsv"], stdin: Data("+16502530000\ngarbage\n".utf8))
        #expect(result.lines.count == 2)
        #expect(result.lines.first?.hasPrefix("1\t+16502530000\t") == true)
    }

    // Without --strict-lines, validate holds a partial chunk (up to 16,384 records by default)
    // until the chunk fills or stdin ends: a co-process that writes a line and waits for its
    // answer (ClickHouse executable_pool, a gateway) would wait forever.
    @Test("the output of the lines read so far comes out while the input pauses", arguments: ["jsonl", "tsv"])
    func flushesWhenInputPauses(format: String) throws {
        let running = try CLIBackgroundProcess(Self.strict + ["--format", format], stdinPipe: true)
        let pipe = try #require(running.stdinPipe)
        pipe.fileHandleForWriting.write(Data("+16502530000\ngarbage\n+44 7400 123456\n".utf8))
        // The pipe stays open: nothing more comes until the three answers are read.
        let answered = running.wait(upTo: 10) {
            ((try? String(contentsOf: running.stdoutURL, encoding: .utf8)) ?? "").filter { $0 == "\n" }.count >= 3
        }
        try? pipe.fileHandleForWriting.close()
        #expect(running.finish(within: 30))
        #expect(answered, "no answer for 3 lines within 10 s while stdin stayed open")
    }

    // Without --strict-lines, validate writes finished chunks only when its reading thread gets
    // more input or the end of input: with 3 full chunks read and stdin left open, no output.
    @Test("answers for whole chunks come out while the input pauses")
    func fullChunksAreFlushed() throws {
        let running = try CLIBackgroundProcess(Self.strict + ["--format", "jsonl", "--chunk-size", "1024"], stdinPipe: true)
        let pipe = try #require(running.stdinPipe)
        pipe.fileHandleForWriting.write(Data(String(repeating: "+16502530000\n", count: 3 * 1024).utf8))
        let flushed = running.wait(upTo: 10) {
            ((try? Data(contentsOf: running.stdoutURL)) ?? Data()).filter { $0 == 0x0A }.count >= 2 * 1024
        }
        try? pipe.fileHandleForWriting.close()
        #expect(running.finish(within: 30))
        #expect(flushed, "no answers within 10 s for 3 full chunks while stdin stayed open")
        #expect(try running.result.jsonLines().count == 3 * 1024)
    }

    @Test("a co-process: each line written, then its answer read, 40 times over one pipe", arguments: ["jsonl", "tsv"])
    func answersLineByLine(format: String) throws {
        let running = try CLIBackgroundProcess(Self.strict + ["--format", format], stdinPipe: true)
        let pipe = try #require(running.stdinPipe)
        var answered = 0
        for round in 0..<40 {
            let line = Self.awkwardLines[round % Self.awkwardLines.count]
            // Half the rounds write their line in two parts: the first part alone gets no answer.
            if round % 2 == 1 && line.count > 1 {
                pipe.fileHandleForWriting.write(Data(line.prefix(1)))
                usleep(20_000)
                pipe.fileHandleForWriting.write(Data(line.dropFirst() + [0x0A]))
            } else {
                pipe.fileHandleForWriting.write(Data(line + [0x0A]))
            }
            let ok = running.wait(upTo: 10) {
                ((try? Data(contentsOf: running.stdoutURL)) ?? Data()).filter { $0 == 0x0A }.count >= round + 1
            }
            guard ok else { break }
            answered += 1
        }
        try? pipe.fileHandleForWriting.close()
        #expect(running.finish(within: 30))
        #expect(answered == 40, "round \(answered + 1) got no answer within 10 s")
        let output = running.result
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 40)
        for (index, line) in lines.enumerated() {
            let first = format == "tsv" ? line.prefix { $0 != "\t" } : line.drop { $0 != ":" }.dropFirst().prefix { $0 != "," }
            #expect(first == Substring(String(index + 1)), "line \(index + 1): \(line)")
        }
    }

    @Test("files: read as lines whatever their extension, no header row detected")
    func filesAreLines() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("list.csv").path
        try Data("number,region\n\"+1 650\n253 0000\"\n".utf8).write(to: URL(fileURLWithPath: path))
        let result = try CLI.run(Self.strict + ["--format", "jsonl", path])
        #expect(result.status == 0, "\(result.stderr)")
        let records = try result.jsonLines()
        #expect(records.map { $0["line"] as? Int } == [1, 2, 3])
        #expect(records.map { $0["input"] as? String } == ["number,region", "\"+1 650", "253 0000\""])
    }

    struct UsageCase: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var message: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let usageCases: [UsageCase] = [
        UsageCase(arguments: ["--format", "csv"], message: "jsonl or tsv"),
        UsageCase(arguments: ["--format", "json"], message: "jsonl or tsv"),
        UsageCase(arguments: ["--format", "text"], message: "jsonl or tsv"),
        UsageCase(arguments: ["--only", "valid"], message: "--only"),
        UsageCase(arguments: ["--input-format", "csv"], message: "CSV"),
        UsageCase(arguments: ["--input-format", "tsv", "--header"], message: "header"),
        UsageCase(arguments: ["--input-format", "tsv", "--column", "phone"], message: "--column"),
        UsageCase(arguments: ["--input-format", "tsv", "--region-column", "region"], message: "--region-column"),
    ]

    @Test("what cannot keep one line per line is a usage error (64)", arguments: usageCases)
    func usageErrors(_ usage: UsageCase) throws {
        let result = try CLI.run(Self.strict + usage.arguments, stdin: Data("+16502530000\n".utf8))
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("--strict-lines") && result.stderr.contains(usage.message), "\(result.stderr)")
    }

    @Test("TSV input: the column given by position, no header detected")
    func tsvInputByPosition() throws {
        let result = try CLI.run(Self.strict + ["--format", "tsv", "--input-format", "tsv", "--column", "2", "--region-column", "1"],
                                 stdin: Data("region\tnumber\nGB\t07400 123456\nUS\n".utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let fields = result.lines.map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        #expect(fields.count == 3)
        #expect(fields.map { $0.first.map(String.init) } == ["1", "2", "3"])
        #expect(fields.count == 3 && fields[1][4] == "+447400123456" && fields[2][1] == "")
    }

    @Test("a chunk size of 1 (every line answered at once)")
    func chunkSizeOne() throws {
        let result = try CLI.run(["validate", "--format", "jsonl", "--chunk-size", "1"],
                                 stdin: Data("+16502530000\ngarbage\n+44 7400 123456\n".utf8))
        #expect(result.status == 0)
        #expect(try result.jsonLines().count == 3)
    }
}
