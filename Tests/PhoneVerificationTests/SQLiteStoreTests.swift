import Foundation
import PhoneVerification
import PhoneVerificationSQLite
import Testing

/// A fresh folder for one test's files.
func temporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "smskit-verify-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

@Suite("SQLiteVerificationStore")
struct SQLiteStoreTests {
    @Test("concurrent checks never allow more than the permitted attempts")
    func concurrentChecks() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await StoreScenarios.concurrentChecks(store: SQLiteVerificationStore(path: directory + "/v.sqlite"))
    }

    @Test("two stores on one file (as two processes): one starts, the other checks")
    func twoInstances() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try SQLiteVerificationStore(path: directory + "/v.sqlite")
        let second = try SQLiteVerificationStore(path: directory + "/v.sqlite")
        try await StoreScenarios.twoInstances(first: first, second: second)
    }

    @Test("sliding windows, range velocity, resend claims and secret changes")
    func storeRules() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await StoreScenarios.rules(store: SQLiteVerificationStore(path: directory + "/v.sqlite"))
    }

    @Test("a verification survives closing and reopening the file; the file is in WAL mode")
    func survivesRestart() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/v.sqlite"
        let clock = ManualClock()
        let sender = RecordingSender()
        var id = ""
        do {
            let verifier = try makeVerifier(store: SQLiteVerificationStore(path: path), sender: sender, clock: clock)
            id = try await verifier.start(phoneNumber: Numbers.us).id
        }
        let code = try #require(sender.lastCode(to: Numbers.us))
        let reopened = try makeVerifier(store: SQLiteVerificationStore(path: path), sender: sender, clock: clock)
        #expect(try await reopened.check(id: id, code: code) == .approved(e164: Numbers.us))
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
    }

    struct Garbage: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var testDescription: String { name }
    }

    static let garbage: [Garbage] = [
        Garbage(name: "text", bytes: Array("this is not a database\n".utf8)),
        Garbage(name: "random 64 KiB", bytes: (0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }),
        Garbage(name: "a SQLite header over garbage",
                bytes: Array("SQLite format 3\u{0}".utf8) + [UInt8](repeating: 0xFF, count: 8176)),
    ]

    @Test("a corrupted file gives a typed error, never a crash", arguments: garbage)
    func corrupted(_ garbage: Garbage) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/v.sqlite"
        FileManager.default.createFile(atPath: path, contents: Data(garbage.bytes))
        do {
            let store = try SQLiteVerificationStore(path: path)
            // Opened (SQLite reads lazily): every use must fail as a store fault, never approve.
            let verifier = try makeVerifier(store: store, sender: RecordingSender(), clock: ManualClock())
            let error = await caught { try await verifier.check(id: String(repeating: "A", count: 22), code: "123456") }
            #expect(error?.code.isStoreFault == true)
        } catch let error as VerificationStoreError {
            #expect(error.kind == .corrupted)
        }
    }

    @Test("a file damaged after use gives a typed error")
    func damagedAfterUse() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/v.sqlite"
        let clock = ManualClock()
        let sender = RecordingSender()
        var id = ""
        do {
            let verifier = try makeVerifier(store: SQLiteVerificationStore(path: path), sender: sender, clock: clock)
            id = try await verifier.start(phoneNumber: Numbers.us).id
        }
        // Checkpointed and closed; now overwrite the pages after the header.
        try? FileManager.default.removeItem(atPath: path + "-wal")
        try? FileManager.default.removeItem(atPath: path + "-shm")
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: 100)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 16_000))
        try handle.close()
        let code = try #require(sender.lastCode(to: Numbers.us))
        do {
            let verifier = try makeVerifier(store: SQLiteVerificationStore(path: path), sender: sender, clock: clock)
            let error = await caught { try await verifier.check(id: id, code: code) }
            #expect(error?.code.isStoreFault == true)
        } catch let error as VerificationStoreError {
            #expect(error.kind == .corrupted)
        }
    }
}
