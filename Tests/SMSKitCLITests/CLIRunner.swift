import Foundation
import Testing

/// Runs the built `smskit` binary as a subprocess and captures stdout, stderr and the exit code.
///
/// The binary is found next to the test bundle: `swift test` builds the executable target into
/// the same `.build/<triple>/<config>/` folder because this test target depends on it.
struct CLIResult {
    var stdout: String
    var stderr: String
    var status: Int32
    var stdoutData: Data

    /// Non-empty stdout lines.
    var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }

    /// Each stdout line parsed as a JSON object.
    func jsonLines() throws -> [[String: Any]] {
        try lines.map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed])
            return try #require(object as? [String: Any], "not a JSON object: \(line)")
        }
    }

    /// stdout parsed as one JSON value.
    func json() throws -> Any {
        try JSONSerialization.jsonObject(with: stdoutData, options: [.fragmentsAllowed])
    }
}

enum CLI {
    static let executable: URL? = {
        var candidates: [URL] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: exe).deletingLastPathComponent())
        }
        let bundle = Bundle.main.bundleURL
        candidates.append(bundle)
        candidates.append(bundle.deletingLastPathComponent())
        for argument in CommandLine.arguments.prefix(1) {
            candidates.append(URL(fileURLWithPath: argument).deletingLastPathComponent())
        }
        for directory in candidates {
            var current = directory
            // The xctest bundle may be a directory (Darwin) or a file (Linux); look upwards a little.
            for _ in 0..<4 {
                let candidate = current.appendingPathComponent("smskit")
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                   FileManager.default.isExecutableFile(atPath: candidate.path) {
                    return candidate
                }
                current = current.deletingLastPathComponent()
            }
        }
        return nil
    }()

    /// A fresh temporary directory for one test.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("smskit-cli-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `data` to a temporary file named `name` and returns its path.
    static func file(_ name: String, _ data: Data) throws -> String {
        let url = try temporaryDirectory().appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    static func file(_ name: String, _ text: String) throws -> String {
        try file(name, Data(text.utf8))
    }

    /// Runs `smskit` with arguments; stdin from `stdin` (or empty), stdout to a file unless
    /// `stdoutPath` is given (for /dev/full). `CI` is set unless `environment` maps it to ""
    /// (an empty value removes a variable).
    static func run(_ arguments: [String], stdin: Data = Data(), stdoutPath: String? = nil,
                    environment: [String: String] = [:]) throws -> CLIResult {
        let binary = try #require(executable, "the smskit binary was not found next to the test bundle")
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let inURL = directory.appendingPathComponent("stdin")
        let outURL = directory.appendingPathComponent("stdout")
        let errURL = directory.appendingPathComponent("stderr")
        try stdin.write(to: inURL)
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)  // opened below: that fails, clearly, if this did not
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)

        let process = Process()
        // In the run's own folder: a default file (smskit-verify.sqlite, the outbox) goes with it.
        process.currentDirectoryURL = directory
        process.executableURL = binary
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["CI"] = "true"
        for (key, value) in environment {
            if value.isEmpty { env.removeValue(forKey: key) } else { env[key] = value }
        }
        process.environment = env
        process.standardInput = try FileHandle(forReadingFrom: inURL)
        let outHandle = try stdoutPath.map { try #require(FileHandle(forWritingAtPath: $0)) } ?? FileHandle(forWritingTo: outURL)
        process.standardOutput = outHandle
        process.standardError = try FileHandle(forWritingTo: errURL)
        try process.run()
        process.waitUntilExit()
        let outData = try Data(contentsOf: outURL)
        let errData = try Data(contentsOf: errURL)
        return CLIResult(
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self),
            status: process.terminationStatus,
            stdoutData: outData)
    }

    /// Runs a shell pipeline (bash, pipefail) in which `$SMSKIT` is the binary.
    static func shell(_ script: String) throws -> CLIResult {
        let binary = try #require(executable)
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outURL = directory.appendingPathComponent("stdout")
        let errURL = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)  // opened below: that fails, clearly, if this did not
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        // In the run's own folder: a default file (smskit-verify.sqlite, the outbox) goes with it.
        process.currentDirectoryURL = directory
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "set -o pipefail; " + script]
        var env = ProcessInfo.processInfo.environment
        env["SMSKIT"] = binary.path
        env["CI"] = "true"
        process.environment = env
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        try process.run()
        process.waitUntilExit()
        let outData = try Data(contentsOf: outURL)
        return CLIResult(stdout: String(decoding: outData, as: UTF8.self),
                         stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self),
                         status: process.terminationStatus, stdoutData: outData)
    }
}
