import Foundation
import SMSEncoding
@_exported import SMSKitTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Kannel's programs from Debian's `kannel` and `kannel-extras`.
package enum KannelPrograms {
    package static let bearerbox = "/usr/sbin/bearerbox"
    package static let smsbox = "/usr/sbin/smsbox"
    package static let fakesmsc = "/usr/lib/kannel/test/fakesmsc"

    package static var installed: Bool {
        [bearerbox, smsbox, fakesmsc].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Under CI=true the tests run (and fail when Kannel is missing); elsewhere they skip without it.
    package static var shouldRun: Bool { installed || ProcessInfo.processInfo.environment["CI"] == "true" }

    package static let skipMessage: Comment = """
        Kannel is not installed (apt-get install kannel kannel-extras, or run .ci/kannel.sh): \
        the Kannel integration tests are skipped; under CI=true they fail instead
        """

    package static func requireInstalled() throws {
        try #require(installed, "Kannel is missing: \(bearerbox), \(smsbox) and \(fakesmsc) are needed (.ci/kannel.sh installs them)")
    }
}

package struct FixtureError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// What the fake SMSC received: one SMS (one part) per line of fakesmsc's output.
package struct ReceivedPart: Sendable, Equatable {
    package var from: String
    package var to: String
    /// The user data header, empty when none.
    package var udh: [UInt8]
    /// The message data: UTF-8 text for GSM 7-bit (Kannel keeps 7-bit text as characters), UTF-16BE for UCS-2.
    package var data: [UInt8]
    /// fakesmsc's type word: `text`, `ucs-2` or (with a header) `data`.
    package var type: String
}

/// bearerbox, smsbox and fakesmsc on loopback ports in a temporary directory, always stopped by
/// ``run(_:)`` (and, should the test process die, by `timeout(1)` after ten minutes).
package final class KannelStack: Sendable {
    package let directory: URL
    package let adminPort: Int, boxPort: Int, smscPort: Int, sendsmsPort: Int
    package let username = "smskit"
    package let password = "pa+ss&w=rd"
    /// The programs' process IDs; each leads its process group (`timeout(1)` makes one).
    private let processes = Mutex<[String: pid_t]>([:])

    package var url: String {
        "http://\(username):\(password.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)@127.0.0.1:\(sendsmsPort)/cgi-bin/sendsms?from=SMSKit"
    }
    package var fakeOutput: URL { directory.appending(path: "fakesmsc.out") }
    package var accessLog: URL { directory.appending(path: "access.log") }

    /// The port of an SMPP SMSC bearerbox binds to (as a transceiver) instead of fakesmsc, or `nil`.
    package let smppPort: Int?

    private init(smppPort: Int? = nil) throws {
        self.smppPort = smppPort
        directory = FileManager.default.temporaryDirectory.appending(path: "smskit-kannel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        adminPort = try freeLoopbackPort()
        boxPort = try freeLoopbackPort()
        smscPort = try freeLoopbackPort()
        sendsmsPort = try freeLoopbackPort()
    }

    /// Starts a stack, runs `body` with it and stops every process and removes the directory,
    /// whether `body` returns or throws.
    package static func run<T>(smppPort: Int? = nil, _ body: (KannelStack) async throws -> T) async throws -> T {
        try KannelPrograms.requireInstalled()
        let stack = try KannelStack(smppPort: smppPort)
        let result: Result<T, any Error>
        do {
            try await stack.start()
            result = .success(try await body(stack))
        } catch {
            result = .failure(error)
        }
        await stack.stopAll()
        try? FileManager.default.removeItem(at: stack.directory)
        return try result.get()
    }

    /// fakesmsc, or an SMPP transceiver bind with receipts in decimal (`msg-id-type` 0).
    private var smscGroup: String {
        guard let smppPort else {
            return """
                group = smsc
                smsc = fake
                smsc-id = fake
                port = \(smscPort)
                our-host = 127.0.0.1
                connect-allow-ip = 127.0.0.1
                """
        }
        return """
            group = smsc
            smsc = smpp
            smsc-id = sim
            host = 127.0.0.1
            port = \(smppPort)
            transceiver-mode = true
            smsc-username = kannel
            smsc-password = s3cret
            system-type = ""
            msg-id-type = 0x00
            enquire-link-interval = 30
            """
    }

    private var configuration: String {
        let dir = directory.path
        return """
            group = core
            admin-port = \(adminPort)
            admin-interface = 127.0.0.1
            admin-password = \(UUID().uuidString)
            smsbox-port = \(boxPort)
            smsbox-interface = 127.0.0.1
            box-allow-ip = 127.0.0.1
            log-file = "\(dir)/bearerbox.log"
            log-level = 1
            access-log = "\(dir)/access.log"

            \(smscGroup)

            group = smsbox
            bearerbox-host = 127.0.0.1
            bearerbox-port = \(boxPort)
            sendsms-port = \(sendsmsPort)
            sendsms-interface = 127.0.0.1
            log-file = "\(dir)/smsbox.log"
            log-level = 1

            group = sendsms-user
            username = \(username)
            password = \(password)
            max-messages = 10

            group = sms-service
            keyword = default
            text = "No service"
            catch-all = true

            """
    }

    private func start() async throws {
        let config = directory.appending(path: "kannel.conf")
        try configuration.write(to: config, atomically: true, encoding: .utf8)
        try launch("bearerbox", KannelPrograms.bearerbox, [config.path])
        try await waitFor("bearerbox listening", file: "bearerbox.log", containing: "Start-up done")
        // bearerbox says "Start-up done" before its threads have opened their listening sockets,
        // and fakesmsc and smsbox give up at once when their first connect is refused: each is
        // started again until bearerbox logs its connection.
        if smppPort == nil {
            try await launchUntilConnected("fakesmsc", KannelPrograms.fakesmsc,
                                           ["-H", "127.0.0.1", "-r", String(smscPort), "-i", "1", "-m", "0", "0 0 text unused"],
                                           file: "bearerbox.log", containing: "Fakesmsc client connected")
        }
        try await launchUntilConnected("smsbox", KannelPrograms.smsbox, [config.path],
                                       file: "smsbox.log", containing: "Connected to bearerbox")
        try await waitForPort(sendsmsPort)
    }

    /// Launches `program` and waits until `file` holds `needle`, launching it again (up to five
    /// times) whenever it exits first.
    private func launchUntilConnected(_ name: String, _ program: String, _ arguments: [String],
                                      file: String, containing needle: String, seconds: Double = 30) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        var launches = 0
        while true {
            try launch(name, program, arguments)
            launches += 1
            guard let pid = processes.withLock({ $0[name] }) else { throw FixtureError("\(name) did not start") }
            var status: Int32 = 0
            while !contents(file).contains(needle) {
                guard Date() < deadline else {
                    throw FixtureError("Kannel did not start (\(name) connected) in \(seconds) s; \(file):\n\(contents(file).suffix(2000))")
                }
                if waitpid(pid, &status, WNOHANG) == pid {
                    _ = processes.withLock { $0.removeValue(forKey: name) }
                    guard launches < 5 else {
                        throw FixtureError("\(name) exited \(launches) times before connecting; \(name).out:\n\(contents("\(name).out").suffix(2000))")
                    }
                    break
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            if contents(file).contains(needle) { return }
            try await Task.sleep(for: .milliseconds(200))
        }
    }

    /// Starts `program` under `timeout(1)` (its own process group, ended after ten minutes even
    /// if this test process dies), with stdout and stderr to `<name>.out` in the directory.
    package func launch(_ name: String, _ program: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        let output = directory.appending(path: "\(name).out").path
        let argv = ["/usr/bin/timeout", "--kill-after=5", "600", program] + arguments
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else of the test process (the listening sockets of other tests above all) leaks
        // into Kannel: glibc ignores a close of a descriptor that was closed meanwhile.
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap({ Int32($0) }) where fd > 2 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
        // Default signal dispositions and an empty mask: the spawning thread (a pool thread) may
        // block SIGTERM, and a child would inherit that and ignore the stop.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        let variables = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let cEnvironment = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { cEnvironment.forEach { free($0) } }
        let status = posix_spawn(&pid, argv[0], &actions, &attributes, cArguments, cEnvironment)
        guard status == 0 else { throw FixtureError("cannot start \(program): \(String(cString: strerror(status)))") }
        processes.withLock { $0[name] = pid }
    }

    /// Stops one program and its `timeout` (SIGTERM to the group, SIGKILL after 3 s) and reaps it,
    /// without blocking a thread of the cooperative pool.
    package func stop(_ name: String) async {
        guard let pid = processes.withLock({ $0.removeValue(forKey: name) }) else { return }
        kill(-pid, SIGTERM)
        let deadline = ContinuousClock.now + .seconds(3)
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            if ContinuousClock.now > deadline {
                kill(-pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                break
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        kill(-pid, SIGKILL)  // anything of the group still alive
    }

    package func stopAll() async {
        for name in processes.withLock({ Array($0.keys) }) where !["smsbox", "fakesmsc", "bearerbox"].contains(name) {
            await stop(name)
        }
        for name in ["smsbox", "fakesmsc", "bearerbox"] { await stop(name) }
    }

    /// Runs a program to its end (at most `seconds`) and returns its exit status and output.
    package func run(_ name: String, _ program: String, _ arguments: [String], seconds: Double = 60) async throws -> (status: Int32, output: String) {
        try launch(name, program, arguments)
        guard let pid = processes.withLock({ $0[name] }) else { throw FixtureError("\(name) did not start") }
        let deadline = ContinuousClock.now + .seconds(seconds)
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            guard ContinuousClock.now < deadline else { await stop(name); throw FixtureError("\(name) did not end in \(seconds) s") }
            try await Task.sleep(for: .milliseconds(20))
        }
        _ = processes.withLock { $0.removeValue(forKey: name) }
        let exited = status & 0x7F == 0
        return (exited ? (status >> 8) & 0xFF : -1, contents("\(name).out"))
    }

    package func contents(_ file: String) -> String {
        (try? String(contentsOf: directory.appending(path: file), encoding: .utf8)) ?? ""
    }

    package func waitFor(_ what: String, file: String, containing needle: String, seconds: Double = 30) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !contents(file).contains(needle) {
            guard Date() < deadline else {
                throw FixtureError("Kannel did not start (\(what)) in \(seconds) s; \(file):\n\(contents(file).suffix(2000))")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    package func waitForPort(_ port: Int, seconds: Double = 30) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !Self.accepts(port) {
            guard Date() < deadline else { throw FixtureError("smsbox's sendsms port \(port) did not open") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    private static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// The parts fakesmsc received so far, in order of arrival.
    package func received() -> [ReceivedPart] {
        contents("fakesmsc.out").split(separator: "\n").compactMap { line in
            guard let open = line.range(of: ": <"), line.hasSuffix(">") else { return nil }
            let fields = line[open.upperBound..<line.index(before: line.endIndex)]
                .split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 4 else { return nil }
            if fields[2] == "udh" {
                let rest = fields[3].split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
                guard rest.count == 3 else { return nil }
                return ReceivedPart(from: fields[0], to: fields[1], udh: Self.urlDecoded(rest[0]),
                                    data: Self.urlDecoded(rest[2]), type: rest[1])
            }
            let data = fields[2] == "text" ? Array(fields[3].utf8) : Self.urlDecoded(fields[3])
            return ReceivedPart(from: fields[0], to: fields[1], udh: [], data: data, type: fields[2])
        }
    }

    /// Waits until fakesmsc received `count` parts for `to` and returns them.
    package func waitForParts(to: String, count: Int, seconds: Double = 30) async throws -> [ReceivedPart] {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let parts = received().filter { $0.to == to }
            if parts.count >= count || Date() >= deadline { return parts }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The `coding` of each SMS bearerbox sent to `to`, from its access log (`[flags:mclass:coding:...]`).
    package func codings(to: String) -> [Int] {
        contents("access.log").split(separator: "\n").compactMap { line in
            guard line.contains("Sent SMS"), line.contains("[to:\(to)]"),
                  let flags = line.range(of: "[flags:") else { return nil }
            let fields = line[flags.upperBound...].prefix { $0 != "]" }.split(separator: ":")
            return fields.count >= 2 ? Int(fields[1]) : nil
        }
    }

    /// Kannel's URL decoding (`%XX`, and `+` for a space).
    package static func urlDecoded(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        var bytes = Array(text.utf8)[...]
        while let byte = bytes.popFirst() {
            if byte == UInt8(ascii: "%"), bytes.count >= 2,
               let value = UInt8(String(decoding: bytes.prefix(2), as: UTF8.self), radix: 16) {
                out.append(value)
                bytes = bytes.dropFirst(2)
            } else if byte == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
            } else {
                out.append(byte)
            }
        }
        return out
    }
}

/// The text of a part fakesmsc received, decoded as it was sent.
package func decode(_ part: ReceivedPart, as encoding: SMSCharacterEncoding) -> String? {
    switch encoding {
    case .gsm7:
        return String(validating: part.data, as: UTF8.self)
    case .ucs2:
        guard part.data.count.isMultiple(of: 2) else { return nil }
        let units = stride(from: 0, to: part.data.count, by: 2).map { UInt16(part.data[$0]) << 8 | UInt16(part.data[$0 + 1]) }
        return String(validating: units, as: UTF16.self)
    }
}

/// The 6-digit run in a received text (the code; the expiry's minutes are another run).
package func code(in text: String) -> String? {
    text.split { !("0"..."9").contains($0) }.first { $0.count == 6 }.map(String.init)
}
