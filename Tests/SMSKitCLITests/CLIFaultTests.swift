import Foundation
import Testing

/// `smskit validate` when its surroundings fail: the reader of stdout goes away, the disk is full,
/// the input cannot be read or changes while it is read, the user presses Ctrl-C. Each runs the
/// built binary. The rule: a clear message and a documented exit code, never a crash report,
/// never a torn record.
@Suite("smskit: faults", .serialized)
struct CLIFaultTests {
    /// Ten kinds of line, valid and not, repeated.
    static let block = [
        "+16502530000", "+44 20 7946 0123", "not a number", "030 1234567", "+4930123456", "+1 650 555 0123",
        "12", "+33 6 12 34 56 78", "+81 3-1234-5678", "+999 1234",
    ].joined(separator: "\n") + "\n"

    /// A file of `count` × 10 lines.
    static func input(blocks count: Int) throws -> String {
        try CLI.file("numbers.txt", String(repeating: block, count: count))
    }

    /// The output as JSON lines, checking that they are whole records numbered 1, 2, 3, ...
    static func wholeRecords(_ result: CLIResult, sourceEndsWith: String = "") throws -> [[String: Any]] {
        #expect(result.stdout.isEmpty || result.stdout.hasSuffix("\n"), "the output ends inside a record")
        let records = try result.jsonLines()
        for (index, record) in records.enumerated() {
            #expect(record["line"] as? Int == index + 1, "record \(index + 1) has line \(record["line"] ?? "nil")")
            if record["line"] as? Int != index + 1 { break }
        }
        return records
    }

    /// 12345 as "12,345", as smskit writes counts.
    static func grouped(_ value: Int) -> String {
        let digits = Array(String(value))
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }

    // MARK: Closed pipe

    @Test("output to a closed pipe ends an endless run at once, quietly, with status 0",
          arguments: ["jsonl", "json", "csv", "tsv", "text"])
    func closedPipe(format: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let errors = directory.appendingPathComponent("stderr").path
        // `yes` never ends: only EPIPE can stop smskit; timeout turns a hang into status 124.
        let result = try CLI.shell("""
            yes '+44 20 7946 0123' | timeout 60 "$SMSKIT" validate --format \(format) 2>'\(errors)' | head -n 1 >/dev/null; \
            echo "status=${PIPESTATUS[1]}"
            """)
        #expect(result.stdout == "status=0\n", "smskit status: \(result.stdout)")
        let stderr = try String(contentsOfFile: errors, encoding: .utf8)
        #expect(stderr.isEmpty, "stderr: \(stderr)")
    }

    // MARK: Full disk

    struct FullDiskCase: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let fullDiskCases: [FullDiskCase] = [
        FullDiskCase(arguments: ["validate", "--format", "jsonl"]),
        FullDiskCase(arguments: ["validate", "--format", "json"]),
        FullDiskCase(arguments: ["validate", "--format", "csv", "--summary"]),
        FullDiskCase(arguments: ["parse", "+44 20 7946 0123"]),
        FullDiskCase(arguments: ["segments", "Your code is 123456"]),
        FullDiskCase(arguments: ["render", "--lang", "de", "--code", "123456", "--app", "Acme", "--format", "json"]),
    ]

    @Test("a full disk (/dev/full) is a clear error with status 1", arguments: fullDiskCases)
    func fullDisk(_ test: FullDiskCase) throws {
        try #require(FileManager.default.isWritableFile(atPath: "/dev/full"), "no /dev/full on this system")
        var arguments = test.arguments
        if arguments.first == "validate" { arguments.append(try Self.input(blocks: 2_000)) }
        let result = try CLI.run(arguments, stdoutPath: "/dev/full")
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("smskit: cannot write the output: No space left on device"), "stderr: \(result.stderr)")
        // One line, or two with --summary's totals never reached: no backtrace, no crash report.
        #expect(result.stderr.split(separator: "\n").count == 1, "stderr: \(result.stderr)")
    }

    // MARK: Unreadable input

    @Test("an unreadable file is a clear error with status 1",
          .enabled(if: geteuid() != 0, "running as root: chmod 000 does not stop root from reading a file"))
    func unreadableFile() throws {
        let path = try Self.input(blocks: 1)
        #expect(chmod(path, 0) == 0)
        let result = try CLI.run(["validate", path])
        #expect(result.status == 1)
        #expect(result.stderr == "smskit: cannot open \(path): Permission denied\n")
        #expect(result.stdout.isEmpty)
    }

    @Test("a read error in the middle of the input is a clear error with status 1")
    func readError() throws {
        // Reading /proc/self/mem at offset 0 fails with EIO for every user, root included.
        let result = try CLI.run(["validate", "/proc/self/mem"])
        #expect(result.status == 1)
        #expect(result.stderr == "smskit: cannot read /proc/self/mem: Input/output error\n", "stderr: \(result.stderr)")
    }

    // MARK: Input that changes while it is read

    @Test("a file that grows while it is read gives whole records, in order")
    func growingFile() throws {
        let path = try Self.input(blocks: 5_000)
        let running = try CLIBackgroundProcess(["validate", "--chunk-size", "1024", path])
        let appender = try #require(FileHandle(forWritingAtPath: path))
        appender.seekToEndOfFile()
        for _ in 0..<50 {
            appender.write(Data(String(repeating: Self.block, count: 100).utf8))
            usleep(2_000)
        }
        try appender.close()
        #expect(running.finish(within: 120))
        let result = running.result
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "stderr: \(result.stderr)")
        let records = try Self.wholeRecords(result)
        #expect(records.count >= 50_000 && records.count <= 100_000, "\(records.count) records")
        // Every record is one of the lines written: nothing torn, nothing merged.
        let lines = Set(Self.block.split(separator: "\n").map(String.init))
        let torn = records.dropLast().filter { !lines.contains($0["input"] as? String ?? "") }
        #expect(torn.isEmpty, "\(torn.prefix(3))")
    }

    @Test("a file truncated while it is read ends the run cleanly")
    func truncatedFile() throws {
        let path = try Self.input(blocks: 100_000)
        let running = try CLIBackgroundProcess(["validate", "--chunk-size", "1024", path])
        #expect(running.wait(upTo: 60) { running.stdoutSize > 0 })
        #expect(truncate(path, 1_000) == 0)
        #expect(running.finish(within: 120))
        let result = running.result
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "stderr: \(result.stderr)")
        let records = try Self.wholeRecords(result)
        #expect(records.count < 1_000_000)
    }

    // MARK: Signals

    @Test("SIGINT mid-run: whole records, a closed JSON array, status 130", arguments: ["jsonl", "json", "csv"])
    func interrupt(format: String) throws {
        let path = try Self.input(blocks: 300_000)
        let running = try CLIBackgroundProcess(["validate", "--format", format, "--chunk-size", "4096", path])
        #expect(running.wait(upTo: 60) { running.stdoutSize > 0 })
        running.signal(SIGINT)
        #expect(running.finish(within: 60), "smskit did not stop after SIGINT")
        let result = running.result
        #expect(running.process.terminationReason == .exit)
        #expect(result.status == 130)
        #expect(result.stderr.hasPrefix("smskit: interrupted by SIGINT after "), "stderr: \(result.stderr)")
        #expect(result.stderr.hasSuffix(" records; the output ends on a whole record\n"))
        switch format {
        case "jsonl":
            let records = try Self.wholeRecords(result)
            #expect(records.count > 0 && records.count < 3_000_000)
            #expect(result.stderr.contains("after \(Self.grouped(records.count)) records"), "stderr: \(result.stderr)")
        case "json":
            let array = try #require(try result.json() as? [[String: Any]], "not a JSON array")
            #expect(array.count > 0 && array.count < 3_000_000)
            #expect(array.last?["line"] as? Int == array.count)
        default:
            let rows = result.lines
            #expect(rows.first?.hasPrefix("line,input,") == true)
            #expect(result.stdout.hasSuffix("\n"))
            let columns = rows.first.map { $0.split(separator: ",", omittingEmptySubsequences: false).count }
            #expect(rows.dropFirst().allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == columns })
        }
    }

    @Test("SIGTERM mid-run: whole records, status 143")
    func terminate() throws {
        let path = try Self.input(blocks: 300_000)
        let running = try CLIBackgroundProcess(["validate", "--chunk-size", "4096", path])
        #expect(running.wait(upTo: 60) { running.stdoutSize > 0 })
        running.signal(SIGTERM)
        #expect(running.finish(within: 60))
        let result = running.result
        #expect(result.status == 143)
        #expect(result.stderr.hasPrefix("smskit: interrupted by SIGTERM"))
        _ = try Self.wholeRecords(result)
    }

    @Test("one SIGINT stops a run waiting on a silent stdin, after writing what was read")
    func interruptOnSilentInput() throws {
        let running = try CLIBackgroundProcess(["validate"], stdinPipe: true)
        let pipe = try #require(running.stdinPipe)
        pipe.fileHandleForWriting.write(Data(Self.block.utf8))
        // Until smskit has read the block: then it waits for more input, in poll(2).
        #expect(running.wait(upTo: 30) { CLIStopTests.unread(pipe) == 0 })
        usleep(100_000)
        running.signal(SIGINT)
        #expect(running.finish(within: 10), "one SIGINT did not stop smskit")
        #expect(running.process.terminationReason == .exit)
        let result = running.result
        #expect(result.status == 130)
        #expect(try Self.wholeRecords(result).count == 10)
        try? pipe.fileHandleForWriting.close()
    }

    @Test("SIGINT as the writer of stdin stops: every record read is written")
    func interruptThenEndOfInput() throws {
        let running = try CLIBackgroundProcess(["validate"], stdinPipe: true)
        let pipe = try #require(running.stdinPipe)
        pipe.fileHandleForWriting.write(Data(String(repeating: Self.block, count: 3).utf8))
        // Once smskit has read the lines (a signal before that ends the input before them).
        #expect(running.wait(upTo: 30) { CLIStopTests.unread(pipe) == 0 })
        running.signal(SIGINT)
        // As in `producer | smskit validate` when Ctrl-C ends the producer: stdin reaches its end.
        try pipe.fileHandleForWriting.close()
        #expect(running.finish(within: 30))
        let result = running.result
        #expect(result.status == 130)
        #expect(try Self.wholeRecords(result).count == 30)
    }
}
