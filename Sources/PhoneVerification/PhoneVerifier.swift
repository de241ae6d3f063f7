import Crypto
import Foundation
import PhoneNumbers
import SMSEncoding
import SMSTemplates

/// Phone sign-in as Firebase Authentication runs it: send a one-time code by SMS, return a
/// verification ID, check the code against the ID.
///
/// A verifier is a value holding a store, a sender, the server secret, the test-number registry
/// and the configuration; copies share the store. Every operation is safe to call from many tasks
/// at once, and from many processes when the store is shared (SQLite, PostgreSQL).
///
/// - **Start** parses the number, applies the ``SendGuard`` (regions, number types, per-number,
///   per-client and range velocity limits), makes a code with the system's secure generator,
///   renders the SMS in the language asked for (or the number's region's) and hands it to the
///   ``SMSSender``. A registered test number gets no SMS and keeps its fixed code; a fictional
///   number that is not registered is refused.
/// - **Check** counts the attempt against the verification (a check is never refused because of
///   the number, so nobody can lock another person out of the code they hold), then compares
///   HMAC-SHA256(secret, id ‖ code) in constant time. Codes are single use, expire, and accept
///   ``VerificationConfiguration/maxAttempts`` checks. A failed check also counts against the
///   number's failure budget (``SendGuard/failedCheckLimit``), which refuses *new* verifications
///   for it once the budget has no room for another one's attempts.
/// - **Faults**: a store that fails or times out gives a ``VerificationError`` with a store code and
///   approves nothing. A sender that fails closes the verification (no code is usable without an
///   SMS) and gives `.sendFailed`; the rate-limit hits it took stay counted.
///
/// ```swift
/// let verifier = try PhoneVerifier(store: InMemoryVerificationStore(),
///                                  sender: OutboxSender(path: "smskit-outbox.jsonl"),
///                                  secret: VerificationSecret(Array(secretText.utf8)),
///                                  configuration: VerificationConfiguration(appName: "Acme"))
/// let started = try await verifier.start(phoneNumber: "+55 11 96123-4567", clientKey: "203.0.113.9")
/// started.locale   // "pt-BR"
/// let result = try await verifier.check(id: started.id, code: "042917")
/// result.status    // "approved" or "incorrect_code", ...
/// ```
public struct PhoneVerifier: Sendable {
    /// The configuration.
    public let configuration: VerificationConfiguration
    /// The test numbers: no SMS, fixed codes, the client and number limits of other numbers.
    public let testNumbers: TestNumberRegistry
    /// The store.
    public let store: any VerificationStore
    /// The sender.
    public let sender: any SMSSender
    /// The renderer of the SMS text.
    public let renderer: SMSTemplateRenderer

    let secret: VerificationSecret
    let clock: VerificationClock
    let engine = PhoneNumberEngine()
    /// Bounds the `refused` events this verifier appends (refused starts otherwise write nothing).
    let refusalEvents = RefusalEventBudget()

    /// The longest phone number input accepted (bytes).
    public static let maximumNumberLength = 256
    /// The longest language code accepted (bytes).
    public static let maximumLanguageCodeLength = 64
    /// The longest client key accepted (bytes).
    public static let maximumClientKeyLength = 256

    /// Creates a verifier.
    ///
    /// - Parameters:
    ///   - store: Where verifications and counters live.
    ///   - sender: What delivers the SMS.
    ///   - secret: The server secret for the code digests.
    ///   - testNumbers: Test numbers with fixed codes; none by default.
    ///   - configuration: Code length, lifetime, attempts, resends, send guard.
    ///   - renderer: The SMS templates; the bundled catalogs by default.
    ///   - clock: The time source; the system clock by default.
    /// - Throws: ``VerificationError`` `.invalidConfiguration` when the configuration is out of range
    ///   or the default renderer cannot be made.
    public init(store: any VerificationStore, sender: any SMSSender, secret: VerificationSecret,
                testNumbers: TestNumberRegistry? = nil,
                configuration: VerificationConfiguration = VerificationConfiguration(),
                renderer: SMSTemplateRenderer? = nil, clock: VerificationClock = .system) throws(VerificationError) {
        try configuration.validate()
        self.store = store
        self.sender = sender
        self.secret = secret
        self.configuration = configuration
        self.clock = clock
        do {
            self.testNumbers = try testNumbers ?? TestNumberRegistry()
            self.renderer = try renderer ?? SMSTemplateRenderer()
        } catch {
            throw VerificationError(.invalidConfiguration, "cannot set up the verifier: \(error)")
        }
    }

    /// The language an SMS to a number in `region` is written in when the caller gives none: the
    /// region's likely language from CLDR (`pt-BR` for BR), through
    /// `SMSTemplateRenderer.defaultLanguageCode(forRegion:)`; the renderer then falls back as usual
    /// (e.g. to its default locale) when no catalog has it. `nil` for non-geographic numbers.
    public func defaultLanguage(forRegion region: RegionCode?) -> String? {
        guard let region, region != .nonGeographic, region != .unknown else { return nil }
        return SMSTemplateRenderer.defaultLanguageCode(forRegion: region.identifier)
    }

    /// Runs one store operation, mapping its faults to ``VerificationError`` and applying the timeout.
    func withStore<Result: Sendable>(
        _ body: @escaping @Sendable () async throws -> Result
    ) async throws(VerificationError) -> Result {
        do {
            guard let timeout = configuration.storeTimeout else { return try await body() }
            return try await withThrowingTaskGroup(of: Result?.self) { group in
                group.addTask { try await body() }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let value = first else {
                    throw VerificationStoreError(.timeout, "the store did not answer within \(timeout)")
                }
                return value
            }
        } catch let error as VerificationStoreError {
            switch error.kind {
            case .unavailable: throw VerificationError(.storeUnavailable, "the verification store failed: \(error.message)")
            case .timeout: throw VerificationError(.storeTimeout, "the verification store timed out: \(error.message)")
            case .corrupted: throw VerificationError(.storeCorrupted, "the verification store is damaged: \(error.message)")
            case .full: throw VerificationError(.storeFull, "the verification store is full: \(error.message)")
            }
        } catch is CancellationError {
            throw VerificationError(.storeTimeout, "the store operation was cancelled")
        } catch {
            throw VerificationError(.storeUnavailable, "the verification store failed")
        }
    }
}
