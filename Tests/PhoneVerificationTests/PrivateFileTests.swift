import Foundation
import PhoneVerification
import PhoneVerificationSQLite
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The permission bits of a file, or nil when it does not exist.
func permissions(_ path: String) -> Int? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return Int(info.st_mode & 0o777)
}

@Suite("Store files: created 0600, a wider mode reported")
struct PrivateFileTests {
    @Test("a new SQLite store and its -wal and -shm files are 0600, whatever the umask allows")
    func sqliteFiles() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/v.sqlite"
        let store = try SQLiteVerificationStore(path: path)
        let sender = RecordingSender()
        let verifier = try makeVerifier(store: store, sender: sender, clock: ManualClock())
        _ = try await verifier.start(phoneNumber: Numbers.us)
        for file in [path, path + "-wal", path + "-shm"] {
            #expect(permissions(file) == 0o600, "\(file)")
        }
        #expect(store.permissionWarnings.isEmpty)
        // A second process opening the same file changes nothing and warns of nothing.
        #expect(try SQLiteVerificationStore(path: path).permissionWarnings.isEmpty)
    }

    @Test("an existing store file others can read is kept as it is, with a warning naming it")
    func existingWideFile() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/v.sqlite"
        _ = try SQLiteVerificationStore(path: path)
        #expect(chmod(path, 0o644) == 0)
        let store = try SQLiteVerificationStore(path: path)
        #expect(permissions(path) == 0o644)
        let warning = try #require(store.permissionWarnings.first)
        #expect(warning.contains(path) && warning.contains("644") && warning.contains("chmod 600"))
    }

    @Test("PrivateFile.create makes 0600 files under a permissive umask; existing files are not touched")
    func create() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/f"
        #expect(try PrivateFile.create(path) == nil)
        #expect(permissions(path) == 0o600)
        #expect(try PrivateFile.create(path) == nil)
        #expect(chmod(path, 0o640) == 0)
        #expect(try PrivateFile.create(path)?.contains("640") == true)
        #expect(permissions(path) == 0o640)
        #expect(PrivateFile.warning(for: directory + "/missing") == nil)
        #expect(throws: VerificationStoreError.self) { try PrivateFile.create(directory + "/no/such/folder/f") }
    }

    @Test("the outbox is created 0600; an existing outbox others can read gets a warning")
    func outbox() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/outbox.jsonl"
        let verifier = try makeVerifier(sender: OutboxSender(path: path), clock: ManualClock())
        _ = try await verifier.start(phoneNumber: Numbers.us)
        #expect(permissions(path) == 0o600)
        #expect(PrivateFile.warning(for: path) == nil)
        #expect(chmod(path, 0o604) == 0)
        #expect(PrivateFile.warning(for: path)?.contains("604") == true)
    }
}
