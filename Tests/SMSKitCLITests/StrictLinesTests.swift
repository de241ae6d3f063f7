import Foundation
import Testing

/// Issue 30, item 4: `smskit validate` as a strict line filter for engines that pipe lines through
/// a program (Hadoop streaming, ClickHouse executable functions, Spark's `RDD.pipe`): exactly one
/// output line per input line, in order, no header, in TSV and JSONL, never a skipped line (empty,
/// garbage, huge, invalid UTF-8, NUL, CR), and the output of what was read flushed without waiting
/// for more input.
///
/// Run against the defaults. What they do not guarantee is marked `.disabled` with the reason;
/// when `--strict-lines` lands, add it to `Self.strict` and enable those tests.
@Suite("smskit validate as a strict line filter")
struct StrictLinesTests {
    /// The arguments a strict filter runs with (add "--strict-lines" here when it exists).
    static let strict: [String] = ["validate", "--no-progress"]

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

    @Test("TSV: one line per input line, in order, nothing skipped (the header row aside)")
    func tsvRecordsOneLinePerLine() throws {
        let result = try CLI.run(Self.strict + ["--format", "tsv"], stdin: Self.input(Self.manyLines))
        #expect(result.status == 0, "\(result.stderr)")
        var lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        if lines.first?.hasPrefix("line\t") == true { lines = lines.dropFirst() }  // see tsvHasNoHeader
        #expect(lines.count == Self.manyLines.count)
        for (index, line) in lines.enumerated() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            #expect(fields.count == 10, "line \(index + 1): \(fields.count) fields")
            #expect(fields.first.map(String.init) == String(index + 1))
        }
    }

    @Test("TSV: no header row", .disabled("smskit validate --format tsv writes a header row first (line\\tinput\\t...): a strict filter must not; needs --strict-lines"))
    func tsvHasNoHeader() throws {
        let result = try CLI.run(Self.strict + ["--format", "tsv"], stdin: Data("+16502530000\ngarbage\n".utf8))
        #expect(result.lines.count == 2)
        #expect(result.lines.first?.hasPrefix("1\t+16502530000\t") == true)
    }

    @Test("the output of the lines read so far comes out while the input pauses",
          .disabled("validate holds a partial chunk (up to 16,384 records by default) until the chunk fills or stdin ends: a co-process that writes a line and waits for its answer (ClickHouse executable_pool, a gateway) waits forever; needs --strict-lines"),
          arguments: ["jsonl", "tsv"])
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

    @Test("answers for whole chunks come out while the input pauses",
          .disabled("validate writes finished chunks only when its reading thread gets more input or end of input: with 3,072 lines read (3 full chunks of --chunk-size 1024) and stdin left open, no output at all after 4 s; needs --strict-lines"))
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

    @Test("a chunk size of 1 (every line answered at once)")
    func chunkSizeOne() throws {
        let result = try CLI.run(["validate", "--format", "jsonl", "--chunk-size", "1"],
                                 stdin: Data("+16502530000\ngarbage\n+44 7400 123456\n".utf8))
        #expect(result.status == 0)
        #expect(try result.jsonLines().count == 3)
    }
}
