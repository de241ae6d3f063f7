import Foundation
import PhoneNumbers
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `smskit serve` end to end: the default refusals and their flags, and TLS to PostgreSQL as the
/// URL asks for it.
@Suite("smskit serve: default refusals and TLS to PostgreSQL", .serialized)
struct ServeSecurityDefaultsTests {
    static let tlsDirectory = ProcessInfo.processInfo.environment["SMSKIT_TEST_POSTGRES_TLS_DIR"].flatMap { $0.isEmpty ? nil : $0 }
    static let postgresURL = VerificationProcessTests.postgresURL

    static func example(_ code: Int) throws -> String {
        let engine = PhoneNumberEngine()
        return engine.formatE164(try #require(engine.exampleNumber(forNonGeographicCallingCode: code)))
    }

    @Test("+870, +881, +882, +883 and personal numbers: refused by default, sent to with --refuse-calling-codes none --refuse-types none")
    func refusals() async throws {
        let numbers = try [870, 881, 882, 883].map(Self.example) + ["+447012345678"]
        let strict = try await ServeProcess.start(["--store", "memory"])
        for number in numbers {
            let refused = try await VerificationProcessTests.start(strict, number)
            #expect(refused.status == 422, "\(number): \(refused.body)")
            #expect(refused.body.contains(#""code":"refused_number_type""#), "\(number): \(refused.body)")
        }
        strict.signal(SIGTERM)
        #expect(await strict.waitForExit(seconds: 30) == 0)

        let open = try await ServeProcess.start(["--store", "memory", "--refuse-calling-codes", "none", "--refuse-types", "none"])
        for number in numbers {
            let started = try await VerificationProcessTests.start(open, number)
            #expect(started.status == 200, "\(number): \(started.body)")
        }
        open.signal(SIGTERM)
        #expect(await open.waitForExit(seconds: 30) == 0)
    }

    /// Runs SQL on the test server as its superuser.
    static func psql(_ url: String, _ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = [url, "-q", "-v", "ON_ERROR_STOP=1", "-c", sql]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(sql)")
    }

    /// `/readyz` within `seconds`, polled until it is 200 or the time is up.
    static func readiness(_ server: ServeProcess, within seconds: Double) async throws -> Int {
        let deadline = Date().addingTimeInterval(seconds)
        var status = 0
        repeat {
            status = try await Curl.run(["--max-time", "10", "\(server.url)/readyz"]).status
            if status == 200 { break }
            usleep(200_000)
        } while Date() < deadline
        return status
    }

    @Test("--store with sslmode=verify-full: the certificate's host name is served, an address it lacks is not",
          .enabled(if: (tlsDirectory != nil && postgresURL != nil) || VerificationProcessTests.isCI))
    func postgresTLS() async throws {
        let base = try #require(Self.postgresURL, "CI=true needs SMSKIT_TEST_POSTGRES_URL")
        let directory = try #require(Self.tlsDirectory, "CI=true needs SMSKIT_TEST_POSTGRES_TLS_DIR")
        // A database of its own: the service's tables are not shared with other tests.
        let database = "tls_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        try Self.psql(base, "CREATE DATABASE \(database)")
        defer { try? Self.psql(base, "DROP DATABASE IF EXISTS \(database) WITH (FORCE)") }
        var components = try #require(URLComponents(string: base))
        components.path = "/" + database
        components.query = "sslmode=verify-full&sslrootcert=\(directory)/ca.crt"
        components.host = "localhost"
        let good = try #require(components.string)
        components.host = "127.0.0.1"
        let wrongHost = try #require(components.string)

        let server = try await ServeProcess.start(["--store", good])
        #expect(try await Self.readiness(server, within: 60) == 200)
        let started = try await VerificationProcessTests.start(server, "+447400123456")
        #expect(started.status == 200, "\(started.body)")
        server.signal(SIGTERM)
        #expect(await server.waitForExit(seconds: 30) == 0)

        let refused = try await ServeProcess.start(["--store", wrongHost])
        #expect(try await Self.readiness(refused, within: 8) == 503)
        let start = try await VerificationProcessTests.start(refused, "+447400123456")
        #expect(start.status == 503, "\(start.body)")
        refused.signal(SIGTERM)
        #expect(await refused.waitForExit(seconds: 30) == 0)
    }

    @Test("--store with an unknown sslmode does not start: exit 64 naming the modes")
    func unknownMode() throws {
        let binary = try #require(ServeProcess.executable)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--port", "0", "--store", "postgres://smskit@db.example/smskit?sslmode=allow"]
        var environment = ProcessInfo.processInfo.environment
        environment["SMSKIT_API_KEYS"] = VerificationProcessTests.key
        environment["SMSKIT_VERIFY_SECRET"] = randomSecret()
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 64, "\(text)")
        #expect(text.contains("verify-full"), "\(text)")
    }
}
