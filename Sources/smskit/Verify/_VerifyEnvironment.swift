import Dispatch
import Foundation
import PhoneNumbers
import PhoneVerification
import PhoneVerificationSQLite
import SMSKitJSON
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where `smskit verify` finds its store, secret, outbox and test numbers.
enum _VerifyEnvironment {
    static let defaultStore = "smskit-verify.sqlite"
    static let defaultOutbox = "smskit-outbox.jsonl"
    static let defaultTestNumbers = "smskit-test-numbers.json"

    static func environment(_ name: String) -> String? {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
        return value
    }

    static func storePath(_ option: String?) -> String {
        option ?? environment("SMSKIT_VERIFY_STORE") ?? defaultStore
    }

    static func testNumbersPath(_ option: String?) -> String {
        option ?? environment("SMSKIT_VERIFY_TEST_NUMBERS") ?? defaultTestNumbers
    }

    /// The secret: $SMSKIT_VERIFY_SECRET, else the file $SMSKIT_VERIFY_SECRET_FILE, else
    /// `<store>.secret`, generated (0600) when missing.
    static func secret(storePath: String) throws -> VerificationSecret {
        if let text = environment("SMSKIT_VERIFY_SECRET") {
            return try checked { () throws(VerificationError) in try VerificationSecret(Array(text.utf8)) }
        }
        let path = environment("SMSKIT_VERIFY_SECRET_FILE") ?? storePath + ".secret"
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd >= 0 {
            let text = VerificationSecret.generateText() + "\n"
            let written = text.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, text.utf8.count) }
            close(fd)
            guard written == text.utf8.count else { throw CLIError.failure("cannot write the secret file \(path)") }
            _Stderr.write("smskit: generated a new server secret in \(path) (mode 0600)\n")
        } else if errno != EEXIST {
            throw CLIError.failure("cannot create the secret file \(path): \(String(cString: strerror(errno)))")
        }
        return try checked { () throws(VerificationError) in try VerificationSecret(contentsOfFile: path) }
    }

    static func registry(path: String) throws -> TestNumberRegistry {
        guard FileManager.default.fileExists(atPath: path) else {
            return try TestNumberRegistry()
        }
        if let warning = PrivateFile.warning(for: path) { _Stderr.write("smskit: warning: \(warning)\n") }
        do {
            return try TestNumberRegistry(contentsOfFile: path)
        } catch {
            throw CLIError.failure("cannot read the test numbers in \(path): \(error.message)")
        }
    }

    static func store(path: String) throws -> SQLiteVerificationStore {
        do {
            let store = try SQLiteVerificationStore(path: path)
            for warning in store.permissionWarnings { _Stderr.write("smskit: warning: \(warning)\n") }
            return store
        } catch {
            throw CLIError.failure("cannot open the store \(path): \(error.message)")
        }
    }

    private static func checked<T>(_ body: () throws(VerificationError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw CLIError.failure(error.message)
        }
    }

    /// Runs async work from the synchronous command tree and waits for it.
    static func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let box = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let result: Result<T, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            box.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try box.withLock { $0! }.get()
    }

    /// ISO 8601 with seconds, in UTC.
    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    /// Prints a refusal: the JSON error object on stdout when asked for JSON, the message on stderr.
    static func refusal(_ error: VerificationError, format: VerifyFormat) -> CLIError {
        if format == .json {
            var fields: [(String, JSONValue)] = [("error", .string(error.code.name)), ("message", .string(error.message))]
            fields.append(("retry_after", error.retryAfter.map { .string(timestamp($0)) } ?? .null))
            print(JSONValue.object(fields).rendered, terminator: "")
        }
        let retry = error.retryAfter.map { " (retry after \(timestamp($0)))" } ?? ""
        return CLIError.failure("\(error.code.name): \(error.message)\(retry)")
    }
}
