import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A program this package builds (`smskit`, `smskit-service`), found next to the test bundle:
/// a test target that depends on the executable target has it built into the same folder.
package enum BuiltProduct {
    package static func url(_ name: String) -> URL? {
        guard let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        var current = URL(fileURLWithPath: exe).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = current.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            current = current.deletingLastPathComponent()
        }
        return nil
    }
}

/// Why a child process could not be started or did not finish in time.
package struct ChildProcessError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// A child process with its standard output and error in files of its own directory.
///
/// Nothing here blocks a thread of Swift concurrency's pool (two threads on a loaded machine,
/// shared by every test running in parallel): waits poll with `Task.sleep`, and output is read
/// from files rather than from pipes a blocking read would wait on.
package final class ChildProcess: Sendable {
    private let handle: Mutex<Process>
    package let directory: URL
    package let stdoutURL: URL
    package let stderrURL: URL
    private let removesDirectory: Bool

    /// Starts `executable` with `arguments`.
    ///
    /// - Parameters:
    ///   - environment: The whole environment (default: the test process's).
    ///   - directory: The working directory and home of the output files (default: a fresh
    ///     temporary directory, removed when the value is released).
    ///   - stdin: The input (default: empty).
    package init(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
                 directory: URL? = nil, stdin: Data = Data()) throws {
        let fileManager = FileManager.default
        let directory = directory ?? fileManager.temporaryDirectory.appendingPathComponent("smskit-child-\(UUID().uuidString)")
        removesDirectory = !fileManager.fileExists(atPath: directory.path)
        try fileManager.createDirectory(at: directory, withIntermediateDirectories: true)
        self.directory = directory
        let name = UUID().uuidString.prefix(8)
        stdoutURL = directory.appendingPathComponent("stdout-\(name)")
        stderrURL = directory.appendingPathComponent("stderr-\(name)")
        let stdinURL = directory.appendingPathComponent("stdin-\(name)")
        guard fileManager.createFile(atPath: stdoutURL.path, contents: nil),
              fileManager.createFile(atPath: stderrURL.path, contents: nil),
              fileManager.createFile(atPath: stdinURL.path, contents: stdin) else {
            throw ChildProcessError("cannot create the output files in \(directory.path)")
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.currentDirectoryURL = directory
        process.standardInput = try FileHandle(forReadingFrom: stdinURL)
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        try process.run()
        handle = Mutex(process)
    }

    deinit {
        handle.withLock { process in
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        if removesDirectory { try? FileManager.default.removeItem(at: directory) }
    }

    package var processIdentifier: Int32 { handle.withLock { $0.processIdentifier } }
    package var isRunning: Bool { handle.withLock { $0.isRunning } }
    package var stdout: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }
    package var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    package func signal(_ signal: Int32) {
        handle.withLock { process in
            if process.isRunning { kill(process.processIdentifier, signal) }
        }
    }

    /// Waits until `condition` holds or `seconds` pass; whether it held.
    @discardableResult
    package func wait(upTo seconds: Double, until condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }

    /// Waits for the process to end, up to `seconds`; its status, or nil if it still runs.
    package func waitForExit(seconds: Double) async -> Int32? {
        await wait(upTo: seconds) { !isRunning }
        return handle.withLock { $0.isRunning ? nil : $0.terminationStatus }
    }

    /// SIGTERM, then the exit status within `seconds` (nil if it still runs).
    package func stop(seconds: Double = 30) async -> Int32? {
        signal(SIGTERM)
        return await waitForExit(seconds: seconds)
    }

    /// Runs a program to its end: status, standard output and error. Killed, and an error, past `seconds`.
    package static func run(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
                            stdin: Data = Data(), seconds: Double = 120) async throws -> (status: Int32, stdout: String, stderr: String) {
        let child = try ChildProcess(executable, arguments, environment: environment, stdin: stdin)
        guard let status = await child.waitForExit(seconds: seconds) else {
            child.signal(SIGKILL)
            throw ChildProcessError("\(executable.lastPathComponent) \(arguments.prefix(3).joined(separator: " ")) ran past \(seconds) s")
        }
        return (status, child.stdout, child.stderr)
    }
}

/// 64 random hex digits: a verification secret.
package func randomSecret() -> String {
    (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
}

/// A free TCP port on loopback (bound to port 0 and released; the kernel does not hand it out again at once).
package func freeLoopbackPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw ChildProcessError("socket() failed") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
            guard bind(fd, pointer, length) == 0 else { return -1 }
            return getsockname(fd, pointer, &length)
        }
    }
    guard bound == 0 else { throw ChildProcessError("bind() failed") }
    return Int(UInt16(bigEndian: address.sin_port))
}
