import Foundation
import PhoneNumbers
import PhoneVerification
import Synchronization

/// A sender that keeps what it was given; the code is read back from the text.
final class RecordingSender: SMSSender {
    private let sent = Mutex<[OutgoingSMS]>([])

    func send(_ sms: OutgoingSMS) async throws {
        sent.withLock { $0.append(sms) }
    }

    var messages: [OutgoingSMS] { sent.withLock { $0 } }

    /// The digits of the last SMS to `e164` (the code; the bundled templates hold no other digits
    /// when the app name has none).
    func lastCode(to e164: String) -> String? {
        guard let sms = messages.last(where: { $0.to == e164 }) else { return nil }
        let digits = sms.text.unicodeScalars.filter { $0.isASCII && ("0"..."9").contains($0) }
        return String(String.UnicodeScalarView(digits))
    }
}

/// A sender that always fails, as a gateway that is down.
struct FailingSender: SMSSender {
    struct Down: Error {}
    func send(_ sms: OutgoingSMS) async throws { throw Down() }
}

/// Fault injection that a real store cannot give on demand: a store that is down, or hangs.
struct FaultyStore: VerificationStore {
    enum Mode: Sendable { case down, hang }
    let mode: Mode

    private func fail<T>() async throws -> T {
        switch mode {
        case .down: throw VerificationStoreError(.unavailable, "connection refused")
        case .hang:
            try await Task.sleep(for: .seconds(3600))
            throw VerificationStoreError(.unavailable, "unreachable")
        }
    }

    func start(_ request: StartRequest) async throws -> StartOutcome { try await fail() }
    func replaceCode(id: String, digest: [UInt8], sealedCode: [UInt8]?, keyID: String, now: Date) async throws -> Bool {
        try await fail()
    }
    func check(_ request: CheckRequest) async throws -> CheckOutcome { try await fail() }
    func close(id: String) async throws { try await fail() as Void }
    func removeExpired(now: Date, retention: Duration) async throws -> Int { try await fail() }
}

let testSecret = try! VerificationSecret(Array("test-secret-0123456789abcdef-0123456789abcdef".utf8))
let otherSecret = try! VerificationSecret(Array("another-secret-0123456789abcdef-0123456789ab".utf8))

/// Numbers of the fixtures (valid in libphonenumber 9.0.43's metadata).
enum Numbers {
    static let us = "+16502530000"
    static let usNational = "(650) 253-0001"
    static let brazil = "+5511961234567"
    static let germany = "+4915123456789"
    static let fictionalUS = "+16505550123"
}

func makeVerifier(store: any VerificationStore = InMemoryVerificationStore(), sender: any SMSSender,
                  clock: ManualClock, secret: VerificationSecret = testSecret,
                  testNumbers: TestNumberRegistry? = nil,
                  configure: (inout VerificationConfiguration) -> Void = { _ in }) throws -> PhoneVerifier {
    var configuration = VerificationConfiguration(appName: "Acme")
    configure(&configuration)
    return try PhoneVerifier(store: store, sender: sender, secret: secret, testNumbers: testNumbers,
                             configuration: configuration, clock: clock.clock)
}

/// The ``VerificationError`` that `body` throws, or `nil` when it returns.
func caught<T>(_ body: () async throws -> T) async -> VerificationError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error as? VerificationError
    }
}
