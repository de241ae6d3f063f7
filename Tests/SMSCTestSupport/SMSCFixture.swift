import Foundation
import Synchronization
import Testing

/// The Python that runs the SMSC (smpp34) and the codec oracle (smpp34, smpplib): the one `.ci/smpp.sh`
/// installs them into (SMSKIT_TEST_SMPP_PYTHON), else `python3`.
package enum SMPPPython {
    package static let executable = ProcessInfo.processInfo.environment["SMSKIT_TEST_SMPP_PYTHON"] ?? "/usr/bin/env"
    package static var arguments: [String] { ProcessInfo.processInfo.environment["SMSKIT_TEST_SMPP_PYTHON"] == nil ? ["python3"] : [] }

    package static let available: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments + ["-c", "import smpp34, smpplib"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    /// Under CI=true the tests run (and fail without the packages); elsewhere they skip.
    package static var shouldRun: Bool { available || ProcessInfo.processInfo.environment["CI"] == "true" }

    package static func script(_ name: String) -> String {
        // The scripts stay beside the SMPP tests, where the benchmarks and .ci/smpp.sh find them too.
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("PhoneVerificationSMPPTests").appendingPathComponent(name).path
    }

    /// Runs a script with `input` on stdin and returns its stdout.
    package static func run(_ name: String, input: Data) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments + [script(name)]
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        let writer = Thread { stdin.fileHandleForWriting.write(input); try? stdin.fileHandleForWriting.close() }
        writer.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw FixtureError("\(name) exited with \(process.terminationStatus)") }
        return output
    }
}

/// A value behind a lock, shared by reference with background readers.
package final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    package init(_ value: Value) { mutex = Mutex(value) }
    package func withLock<T>(_ body: (inout sending Value) -> sending T) -> sending T { mutex.withLock(body) }
}

/// The smpp34 SMSC (smsc.py) on a loopback port, with what it reports read line by line.
package final class SMSCProcess: Sendable {
    package let port: Int
    private let process: Process
    private let stdin: FileHandle
    private let lines = Locked<[Data]>([])

    /// - Parameters:
    ///   - relay: Behind smsc.py's relay, which reports every PDU a client sends ("pdu" events).
    ///   - tls: The relay speaks TLS with this certificate chain and key (PEM files).
    package init(relay: Bool = false, tls: (certificate: String, key: String)? = nil) async throws {
        port = try freeLoopbackPort()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: SMPPPython.executable)
        process.arguments = SMPPPython.arguments + [SMPPPython.script("smsc.py"), "--port", String(port)]
            + (relay ? ["--relay"] : []) + (tls.map { ["--tls", $0.certificate, $0.key] } ?? [])
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        self.process = process
        self.stdin = input.fileHandleForWriting
        let reader = output.fileHandleForReading
        let lines = self.lines
        Thread {
            var buffer = Data()
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { return }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: 0x0A) {
                    let line = buffer[buffer.startIndex..<newline]
                    buffer = Data(buffer[(newline + 1)...])
                    let copy = Data(line)
                    lines.withLock { $0.append(copy) }
                }
            }
        }.start()
        _ = try await waitFor("listening", timeout: .seconds(60))
    }

    /// The events named `event` reported so far.
    package func events(_ event: String) -> [[String: Any]] {
        let lines = self.lines.withLock { $0 }
        return lines.compactMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
            .filter { $0["event"] as? String == event }
    }

    /// Waits until `count` events named `event` were reported; returns them.
    @discardableResult
    package func waitFor(_ event: String, count: Int = 1, timeout: Duration = .seconds(60)) async throws -> [[String: Any]] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let found = events(event)
            if found.count >= count { return found }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw FixtureError("the SMSC reported \(events(event).count) \(event), not \(count), within \(timeout)")
    }

    /// Sends a command (see smsc.py).
    package func command(_ object: [String: Any]) throws {
        var data = try JSONSerialization.data(withJSONObject: object)
        data.append(0x0A)
        stdin.write(data)
    }

    package func stop() {
        try? stdin.close()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// The commands of the PDUs clients sent, in order (with `relay`).
    package var clientCommands: [String] { events("pdu").compactMap { $0["command"] as? String } }

    /// Runs `body` with a fresh SMSC, always stopped afterwards.
    package static func with<T>(relay: Bool = false, tls: (certificate: String, key: String)? = nil,
                        _ body: (SMSCProcess) async throws -> T) async throws -> T {
        let smsc = try await SMSCProcess(relay: relay, tls: tls)
        do {
            let result = try await body(smsc)
            smsc.stop()
            return result
        } catch {
            smsc.stop()
            throw error
        }
    }
}

extension Array where Element == UInt8 {
    package init(hex: String) {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        self = bytes
    }

    package var hex: String { map { String(format: "%02x", $0) }.joined() }
}
