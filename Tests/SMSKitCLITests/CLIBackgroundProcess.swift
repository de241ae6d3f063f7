import Foundation
import Testing

/// The built `smskit` running in the background, for tests that act on it while it runs: send
/// a signal, change its input file, watch its output grow.
final class CLIBackgroundProcess {
    let process = Process()
    let directory: URL
    let stdoutURL: URL
    let stderrURL: URL
    /// The write end of stdin when `stdinPipe` was asked for.
    let stdinPipe: Pipe?

    /// Starts `smskit` with `arguments`; stdout and stderr go to files; stdin is a pipe the test
    /// writes to when `stdinPipe` is true, and empty otherwise.
    init(_ arguments: [String], stdinPipe: Bool = false) throws {
        let binary = try #require(CLI.executable, "the smskit binary was not found next to the test bundle")
        directory = try CLI.temporaryDirectory()
        stdoutURL = directory.appendingPathComponent("stdout")
        stderrURL = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)  // opened below: that fails, clearly, if this did not
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        process.executableURL = binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["CI"] = "true"
        process.environment = environment
        if stdinPipe {
            let pipe = Pipe()
            self.stdinPipe = pipe
            process.standardInput = pipe
        } else {
            self.stdinPipe = nil
            process.standardInput = FileHandle.nullDevice
        }
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Bytes written to stdout so far.
    var stdoutSize: Int {
        ((try? FileManager.default.attributesOfItem(atPath: stdoutURL.path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Waits until `condition` holds or `seconds` pass; returns whether it held.
    @discardableResult
    func wait(upTo seconds: Double, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }

    /// Waits for the process to end, killing it after `seconds`; returns whether it ended by itself.
    func finish(within seconds: Double) -> Bool {
        if wait(upTo: seconds, until: { !process.isRunning }) {
            process.waitUntilExit()
            return true
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return false
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// The result once the process has ended.
    var result: CLIResult {
        let out = (try? Data(contentsOf: stdoutURL)) ?? Data()
        let err = (try? Data(contentsOf: stderrURL)) ?? Data()
        return CLIResult(stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self),
                         status: process.terminationStatus, stdoutData: out)
    }
}
