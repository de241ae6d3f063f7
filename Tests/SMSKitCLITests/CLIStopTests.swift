import Foundation
import Testing

/// `smskit validate` stopping cleanly and reading many inputs: one signal ends a run that waits
/// on a silent stdin, files are opened one at a time, an unreadable file is an
/// error of its own, and file names that are not UTF-8 open. Each runs the built binary.
@Suite("smskit: clean stops and many inputs", .serialized)
struct CLIStopTests {
    /// Bytes written to a pipe and not yet read by the other end (FIONREAD works on either end
    /// of a Linux pipe).
    static func unread(_ pipe: Pipe) -> Int32 {
        var count: Int32 = 0
        return ioctl(pipe.fileHandleForWriting.fileDescriptor, UInt(FIONREAD), &count) == 0 ? count : -1
    }

    static let numbers = ["+16502530000", "+44 20 7946 0123", "not a number", "030 1234567", "+4930123456"]

    struct StopCase: CustomTestStringConvertible, Sendable {
        var signal: Int32
        var arguments: [String]
        var status: Int32
        var testDescription: String { "\(signal == SIGINT ? "SIGINT" : "SIGTERM") \(arguments.joined(separator: " "))" }
    }

    static let stopCases = [
        StopCase(signal: SIGTERM, arguments: ["validate"], status: 143),
        StopCase(signal: SIGINT, arguments: ["validate"], status: 130),
        StopCase(signal: SIGTERM, arguments: ["validate", "--format", "json"], status: 143),
        StopCase(signal: SIGTERM, arguments: ["validate", "--input-format", "csv", "--no-header"], status: 143),
        StopCase(signal: SIGTERM, arguments: ["validate", "--strict-lines"], status: 143),
        StopCase(signal: SIGTERM, arguments: ["segments", "--lines"], status: 143),
    ]

    @Test("one signal ends a run blocked on a silent stdin, every record read written",
          arguments: stopCases)
    func stopOnSilentInput(_ test: StopCase) throws {
        let running = try CLIBackgroundProcess(test.arguments, stdinPipe: true)
        let pipe = try #require(running.stdinPipe)
        pipe.fileHandleForWriting.write(Data((Self.numbers.joined(separator: "\n") + "\n").utf8))
        // The writer keeps the pipe open and silent; smskit has read everything once it is empty.
        #expect(running.wait(upTo: 30) { Self.unread(pipe) == 0 })
        usleep(200_000)
        running.signal(test.signal)
        // Without its signal handling smskit would wait on the silent stdin for ever; the bound
        // is generous because a loaded machine can take seconds to schedule the exit.
        #expect(running.finish(within: 15), "smskit did not stop within 15 s of the signal")
        let result = running.result
        #expect(running.process.terminationReason == .exit)
        #expect(result.status == test.status, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("interrupted by \(test.signal == SIGINT ? "SIGINT" : "SIGTERM") after 5 records"), "stderr: \(result.stderr)")
        if test.arguments.contains("json") {
            let array = try #require(try result.json() as? [[String: Any]])
            #expect(array.map { $0["input"] as? String } == Self.numbers)
        } else {
            let records = try result.jsonLines()
            #expect(records.count == 5)
            #expect(records.map { $0["line"] as? Int } == [1, 2, 3, 4, 5])
        }
        try? pipe.fileHandleForWriting.close()
    }

    // MARK: Many inputs

    /// `count` one-number files in a fresh directory; returns the directory.
    static func files(_ count: Int) throws -> URL {
        let directory = try CLI.temporaryDirectory()
        for index in 0..<count {
            let number = "+1650253" + String(repeating: "0", count: 4 - String(index % 10_000).count) + String(index % 10_000)
            try Data((number + "\n").utf8).write(to: directory.appendingPathComponent("n\(index).txt"))
        }
        return directory
    }

    @Test("2,000 files under ulimit -n 64: all read, one open at a time")
    func manyFilesUnderAFileLimit() throws {
        let directory = try Self.files(2_000)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CLI.shell("ulimit -n 64 && cd '\(directory.path)' && \"$SMSKIT\" validate $(ls | sort -V) --format csv")
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let rows = result.lines
        #expect(rows.count == 2_001)
        // With several files each record says its file, line and record number first.
        #expect(rows[1].hasPrefix("n0.txt,1,1,+16502530000,true,"))
        #expect(rows.last?.hasPrefix("n1999.txt,1,1,+16502531999,true,") == true)
        #expect(result.stderr.isEmpty)
    }

    @Test("a missing file, a directory and an unreadable file among others: errors on stderr, the rest validated, exit 1")
    func unreadableAmongOthers() throws {
        let directory = try Self.files(3)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        let result = try CLI.run(["validate", path("n0.txt"), path("missing.txt"), path("n1.txt"), directory.path, path("n2.txt")])
        #expect(result.status == 1)
        let records = try result.jsonLines()
        #expect(records.map { $0["e164"] as? String } == ["+16502530000", "+16502530001", "+16502530002"])
        #expect(result.stderr == """
            smskit: cannot open \(path("missing.txt")): No such file or directory
            smskit: cannot read \(directory.path): it is a directory
            smskit: 2 of 5 inputs could not be read (see above); the others were validated

            """)
    }

    @Test("a file whose name is not UTF-8 opens (Linux names are bytes)")
    func nonUTF8FileName() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Made from bytes: a String path cannot hold 0xFF.
        var name = Array(directory.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".txt".utf8) + [0]
        let fd = name.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { open($0, O_WRONLY | O_CREAT, 0o644) }
        }
        #expect(fd >= 0)
        _ = "+442079460000\n".withCString { write(fd, $0, 14) }
        close(fd)
        let result = try CLI.shell("cd '\(directory.path)' && \"$SMSKIT\" validate $'caf\\xe9.txt' --format csv")
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.lines.last?.hasPrefix("1,+442079460000,true,,+442079460000,") == true, "stdout: \(result.stdout)")
        // The same bytes as another (missing) name are not confused with it.
        let missing = try CLI.shell("cd '\(directory.path)' && \"$SMSKIT\" validate $'caf\\xe8.txt'")
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("No such file or directory"))
    }
}
