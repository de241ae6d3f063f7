import Foundation
import PhoneVerificationSMPP
import Testing

/// Certificate authorities and server certificates made with openssl for one test run.
struct TestPKI {
    let directory: URL

    init() async throws {
        directory = FileManager.default.temporaryDirectory.appending(path: "smskit-smpp-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { directory.appending(path: name).path }

    /// A self-signed CA: `name`.pem and `name`.key.
    func authority(_ name: String) async throws -> String {
        try await openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                           "-keyout", path("\(name).key"), "-out", path("\(name).pem"), "-days", "1", "-subj", "/CN=\(name)",
                           "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        return path("\(name).pem")
    }

    /// A server certificate for `dnsName`, signed by the CA `authority`: (certificate, key).
    func server(_ name: String, dnsName: String, authority: String) async throws -> (certificate: String, key: String) {
        try await openssl(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                           "-keyout", path("\(name).key"), "-out", path("\(name).csr"), "-subj", "/CN=\(dnsName)"])
        try "subjectAltName=DNS:\(dnsName)\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"
            .write(toFile: path("\(name).ext"), atomically: true, encoding: .utf8)
        try await openssl(["x509", "-req", "-in", path("\(name).csr"), "-CA", path("\(authority).pem"),
                           "-CAkey", path("\(authority).key"), "-CAcreateserial", "-out", path("\(name).pem"),
                           "-days", "1", "-extfile", path("\(name).ext")])
        return (path("\(name).pem"), path("\(name).key"))
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    /// Runs openssl on a thread of its own (not the tests' cooperative pool).
    private func openssl(_ arguments: [String]) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            Thread {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = ["openssl"] + arguments
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                do {
                    try process.run()
                    process.waitUntilExit()
                    if process.terminationStatus == 0 {
                        continuation.resume()
                    } else {
                        continuation.resume(throwing: FixtureError("openssl \(arguments.first ?? "") exited with \(process.terminationStatus)"))
                    }
                } catch {
                    continuation.resume(throwing: error)
                }
            }.start()
        }
    }
}

/// The client over TLS to smpp34's SMSC behind smsc.py's TLS relay (Python's ssl module), with
/// certificates made at test time: a submit over TLS, and refusals of a certificate from another
/// authority and of one for another name.
@Suite(.serialized, .enabled(if: SMPPPython.shouldRun, "smpp34 is not installed (.ci/smpp.sh); skipped, under CI=true they fail"))
struct SMPPTLSTests {
    static let message = SMPPShortMessage(source: try! SMPPAddressing.source("Acme"),
                                          destination: try! SMPPAddressing.destination("+905321234567"),
                                          shortMessage: Array("Your Acme code is 482913".utf8))

    /// A client for `location` with the tests' short backoffs. A client that must get through
    /// waits long for its session (a TLS handshake with a Python server is slow on a loaded
    /// machine); one that must be refused gives up soon.
    static func client(_ location: String, bindWait: Duration = .seconds(30)) throws -> SMPPClient {
        var configuration = try SMPPClient.Configuration(url: location)
        configuration.reconnectInitialBackoff = .milliseconds(50)
        configuration.reconnectMaximumBackoff = .milliseconds(500)
        configuration.bindWaitTimeout = bindWait
        return SMPPClient(configuration: configuration)
    }

    /// What a client that must not get through reports: no session, a TLS failure, nothing sent.
    static func expectRefused(_ location: String, smsc: SMSCProcess) async throws {
        let client = try client(location, bindWait: .seconds(3))
        let pdusBefore = smsc.events("pdu").count
        let log = EventLog(client)
        await client.start()
        await #expect { try await client.submit(message) } throws: { ($0 as? SMPPError)?.code == .notBound }
        await client.shutdown()
        await log.task.value
        let reasons = log.events.withLock { $0.compactMap { if case .disconnected(let error) = $0 { error } else { nil } } }
        // Under load a refused handshake may also surface as a dropped connection, so the test
        // asks for one TLS failure and no session, not for TLS failures only.
        #expect(reasons.contains { $0.code == .tlsFailed }, "\(reasons)")
        let bound = log.events.withLock { $0.contains { if case .bound = $0 { true } else { false } } }
        #expect(!bound, "no session was bound")
        #expect(smsc.events("pdu").count == pdusBefore, "no PDU got through")
    }

    @Test func submitsOverTLSAndRefusesAnotherAuthorityOrAnotherName() async throws {
        let pki = try await TestPKI()
        defer { pki.remove() }
        let authority = try await pki.authority("ca")
        let otherAuthority = try await pki.authority("other-ca")
        let server = try await pki.server("smsc", dnsName: "localhost", authority: "ca")
        let elsewhere = try await pki.server("elsewhere", dnsName: "smsc.example", authority: "ca")

        try await SMSCProcess.with(tls: server) { smsc in
            let client = try Self.client("smpps://smskit:secret@localhost:\(smsc.port)?ca_file=\(authority)")
            await client.start()
            let id = try await client.submit(Self.message)
            #expect(!id.isEmpty)
            await client.shutdown()
            // The SMSC's records come through its output, which may trail its answers.
            try await smsc.waitFor("unbound")
            #expect(smsc.clientCommands == ["bind_transceiver", "submit_sm", "unbind"])
            #expect(smsc.events("submit_sm").first?["short_message"] as? String == Self.message.shortMessage.hex)

            // The system's trust roots, or another authority, do not know this one.
            try await Self.expectRefused("smpp://smskit:secret@localhost:\(smsc.port)?tls=1&ca_file=\(otherAuthority)", smsc: smsc)
            try await Self.expectRefused("smpps://smskit:secret@localhost:\(smsc.port)", smsc: smsc)
        }
        try await SMSCProcess.with(tls: elsewhere) { smsc in
            // Signed by the trusted authority, but for smsc.example, not localhost.
            try await Self.expectRefused("smpps://smskit:secret@localhost:\(smsc.port)?ca_file=\(authority)", smsc: smsc)
            // The name the certificate must carry can be given when the host is reached by another.
            let client = try Self.client("smpps://smskit:secret@localhost:\(smsc.port)?ca_file=\(authority)&tls_server_name=smsc.example")
            await client.start()
            #expect(try await !client.submit(Self.message).isEmpty)
            await client.shutdown()
        }
    }

    @Test func tlsFromTheLocation() throws {
        #expect(try SMPPClient.Configuration(url: "smpp://esme:pw@h").tls == nil)
        #expect(try SMPPClient.Configuration(url: "smpps://esme:pw@h").tls == .init())
        #expect(try SMPPClient.Configuration(url: "smpp://esme:pw@h?tls=1&ca_file=/etc/ca.pem").tls == .init(caFile: "/etc/ca.pem"))
        #expect(try SMPPClient.Configuration(url: "smpps://esme:pw@h:3550").redactedLocation == "smpps://esme@h:3550")
        #expect(throws: SMPPError.self) { try SMPPClient.Configuration(url: "smpp://esme:pw@h?ca_file=/etc/ca.pem") }
        #expect(throws: SMPPError.self) { try SMPPClient.Configuration(url: "smpps://esme:pw@h?tls=0") }
    }
}
