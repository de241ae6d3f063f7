import CoreMetrics
import Foundation
import Logging
import PhoneNumbers
import PhoneVerification
import PhoneVerificationSQLite
import SMSKitCommandLine
import SMSKitJSON
import SMSKitServer
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

    /// The store: --store, else $SMSKIT_VERIFY_STORE, else ./smskit-verify.sqlite, read as
    /// `smskit serve --store` reads it (memory, sqlite:PATH or a bare path, postgres://...).
    static func location(_ option: String?) throws -> VerificationStoreLocation {
        do {
            return try VerificationStoreLocation(parsing: storePath(option))
        } catch {
            throw CLIError.usage(error.description)
        }
    }

    /// The sender: --sender, else $SMSKIT_SENDER, else the outbox file, read as
    /// `smskit serve --sender` reads it (outbox:PATH, kannel:URL).
    static func senderLocation(_ option: String?, outbox: String) throws -> SMSSenderLocation {
        guard let text = option ?? environment("SMSKIT_SENDER") else { return .outbox(path: outbox) }
        do {
            return try SMSSenderLocation(parsing: text)
        } catch {
            throw CLIError.usage(error.description)
        }
    }

    /// The sender of a location; a one-shot command keeps no metrics.
    static func sender(_ location: SMSSenderLocation) -> any SMSSender {
        location.makeSender(logger: quietLogger, metricsFactory: NOOPMetricsHandler.instance)
    }

    static func testNumbersPath(_ option: String?) -> String {
        option ?? environment("SMSKIT_VERIFY_TEST_NUMBERS") ?? defaultTestNumbers
    }

    /// The secret: $SMSKIT_VERIFY_SECRET, else the file $SMSKIT_VERIFY_SECRET_FILE, else, for a
    /// store in a file, `<store>.secret`, generated (0600) when missing.
    static func secret(storePath: String?) throws -> VerificationSecret {
        if let text = environment("SMSKIT_VERIFY_SECRET") {
            return try checked { () throws(VerificationError) in try VerificationSecret(Array(text.utf8)) }
        }
        guard let path = environment("SMSKIT_VERIFY_SECRET_FILE") ?? storePath.map({ $0 + ".secret" }) else {
            throw CLIError.usage("a store that is not a file needs the server's secret: set SMSKIT_VERIFY_SECRET or SMSKIT_VERIFY_SECRET_FILE")
        }
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

    static func store(_ location: VerificationStoreLocation) throws -> OpenedVerificationStore {
        do {
            let opened = try location.open(logger: quietLogger)
            if let sqlite = opened.store as? SQLiteVerificationStore {
                for warning in sqlite.permissionWarnings { _Stderr.write("smskit: warning: \(warning)\n") }
            }
            return opened
        } catch {
            throw CLIError.failure("cannot open the store \(location): \(error.description)")
        }
    }

    /// Runs `body` with the store made ready and the services it needs (the PostgreSQL client)
    /// running, and stops them when it returns.
    static func withStore<T: Sendable>(_ opened: OpenedVerificationStore,
                                       _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: Void.self, returning: T.self) { group in
            for service in opened.services {
                group.addTask { try await service.run() }
            }
            defer { group.cancelAll() }
            try await opened.prepare()
            return try await body()
        }
    }

    /// The command's output is its result and its messages; library logs would only add noise.
    static let quietLogger = Logger(label: "smskit.verify", factory: { _ in SwiftLogNoOpLogHandler() })

    static func checked<T>(_ body: () throws(VerificationError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw CLIError.failure(error.message)
        }
    }

    /// A verifier over the store of `options`, which must exist (status and cancel send nothing).
    static func existingVerifier(_ options: VerifyStoreOptions) throws -> (PhoneVerifier, OpenedVerificationStore) {
        let location = try location(options.store)
        if let path = location.file, !FileManager.default.fileExists(atPath: path) {
            throw CLIError.failure("no store at \(path); start a verification first or give --store")
        }
        let secret = try secret(storePath: location.file)
        let opened = try store(location)
        do {
            return (try PhoneVerifier(store: opened.store, sender: OutboxSender(path: "/dev/null"), secret: secret), opened)
        } catch {
            throw CLIError.usage(error.message)
        }
    }

    /// Prints a refusal: the service's error document on stdout when asked for JSON, the message
    /// on stderr. A refusal that can be retried says when in its message (the service says it in
    /// a `Retry-After` header, which a command has not).
    static func refusal(_ error: VerificationError, format: VerifyFormat) -> CLIError {
        let retry = error.retryAfter.map { " Retry after \(VerificationDocuments.timestamp($0))." } ?? ""
        if format == .json {
            let message = ErrorDocument.sentence(error.message) + retry
            print(ErrorDocument(code: error.code.name, message: message).json.rendered, terminator: "")
        }
        return CLIError.failure("\(error.code.name): \(error.message)\(retry)")
    }
}

extension VerificationStoreLocation {
    /// The file of a SQLite store, beside which its default secret file lives; `nil` for the others.
    var file: String? {
        if case .sqlite(let path) = self { return path }
        return nil
    }
}
