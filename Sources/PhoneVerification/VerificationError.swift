import Foundation

/// Why a verification could not be started or checked: a typed reason, a message for the person
/// operating the gateway, and when to try again where waiting helps.
///
/// Every refusal of the send guard, every bad input and every fault of the store or the sender is
/// one of these. Messages never contain the code, the secret or the store's internals.
///
/// ```swift
/// do {
///     let started = try await verifier.start(phoneNumber: "+1 900 555 0100")
/// } catch let error {
///     error.code        // .refusedNumberType
///     error.retryAfter  // nil: waiting does not help
/// }
/// ```
public struct VerificationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The reason, as a stable, machine-readable name (`error.code.name`, e.g. `"range_blocked"`).
    ///
    /// A struct over a private enum, as NIO's `FileSystemError.Code`, so that codes can be added.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String {
            case invalidNumber = "invalid_number"
            case regionNotAllowed = "region_not_allowed"
            case refusedNumberType = "refused_number_type"
            case fictionalNumber = "fictional_number"
            case numberRateLimited = "number_rate_limited"
            case clientRateLimited = "client_rate_limited"
            case rangeBlocked = "range_blocked"
            case tooManyFailedChecks = "too_many_failed_checks"
            case resendCooldown = "resend_cooldown"
            case invalidLanguageCode = "invalid_language_code"
            case invalidClientKey = "invalid_client_key"
            case malformedCode = "malformed_code"
            case storeUnavailable = "store_unavailable"
            case storeTimeout = "store_timeout"
            case storeCorrupted = "store_corrupted"
            case storeFull = "store_full"
            case sendFailed = "send_failed"
            case renderFailed = "render_failed"
            case invalidConfiguration = "invalid_configuration"
            case invalidSecret = "invalid_secret"
            case regionCapped = "region_capped"
            case conversionHold = "conversion_hold"
            case numberDenied = "number_denied"
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The input is not a phone number, or not a valid one (the engine's reason is in the message).
        public static let invalidNumber = Code(.invalidNumber)
        /// The number's region is denied, or not in the allowed list.
        public static let regionNotAllowed = Code(.regionNotAllowed)
        /// The number's type cannot take an SMS or costs extra (premium rate, shared cost, ...).
        public static let refusedNumberType = Code(.refusedNumberType)
        /// A fictional number that is not in the test-number registry: nothing is ever sent to it.
        public static let fictionalNumber = Code(.fictionalNumber)
        /// Too many codes sent to this number in the window (this includes resends).
        public static let numberRateLimited = Code(.numberRateLimited)
        /// Too many starts from this client key (e.g. an IP address) in the window.
        public static let clientRateLimited = Code(.clientRateLimited)
        /// The number's range is blocked: many starts into it with few successful checks (SMS pumping).
        public static let rangeBlocked = Code(.rangeBlocked)
        /// The number had too many failed checks in the window (its failure budget) for a new
        /// verification; a verification already open can still be checked and resent.
        public static let tooManyFailedChecks = Code(.tooManyFailedChecks)
        /// A resend came before the cooldown after the previous send ended.
        public static let resendCooldown = Code(.resendCooldown)
        /// The language code is too long or holds characters no locale tag has.
        public static let invalidLanguageCode = Code(.invalidLanguageCode)
        /// The client key is empty or longer than 256 bytes.
        public static let invalidClientKey = Code(.invalidClientKey)
        /// The code is not 4 to 10 ASCII digits; no attempt is counted.
        public static let malformedCode = Code(.malformedCode)
        /// The store could not be reached or failed; nothing was approved.
        public static let storeUnavailable = Code(.storeUnavailable)
        /// The store did not answer in time; nothing was approved.
        public static let storeTimeout = Code(.storeTimeout)
        /// The store's data is damaged (e.g. not a SQLite file); nothing was approved.
        public static let storeCorrupted = Code(.storeCorrupted)
        /// The in-memory store holds its maximum of open verifications.
        public static let storeFull = Code(.storeFull)
        /// The sender failed; the verification was closed, so no code is usable without an SMS.
        public static let sendFailed = Code(.sendFailed)
        /// The message could not be rendered (a broken custom catalog).
        public static let renderFailed = Code(.renderFailed)
        /// The configuration is out of range (e.g. a code length outside 4...10).
        public static let invalidConfiguration = Code(.invalidConfiguration)
        /// The server secret is missing or shorter than 32 bytes.
        public static let invalidSecret = Code(.invalidSecret)
        /// The number's region took its daily SMS cap (``RegionCaps``).
        public static let regionCapped = Code(.regionCapped)
        /// The number's range or region is held: too few of its codes were approved or delivered
        /// (``ConversionHold``).
        public static let conversionHold = Code(.conversionHold)
        /// The number is on the deny list (``SendGuard/deniedNumbers``).
        public static let numberDenied = Code(.numberDenied)

        /// The stable name, e.g. `"range_blocked"`.
        public var name: String { value.rawValue }
        public var description: String { value.rawValue }

        /// Whether the error is a fault of the store (unavailable, timeout, corrupted, full).
        public var isStoreFault: Bool {
            value == .storeUnavailable || value == .storeTimeout || value == .storeCorrupted || value == .storeFull
        }
    }

    /// The reason.
    public let code: Code
    /// What happened and what to do, for the operator; never holds a code or the secret.
    public let message: String
    /// When trying again can succeed (a window ends, a block lifts), or `nil` when waiting does not help.
    public let retryAfter: Date?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The reason.
    ///   - message: What happened and what to do.
    ///   - retryAfter: When trying again can succeed.
    public init(_ code: Code, _ message: String, retryAfter: Date? = nil) {
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }

    public var description: String { "\(code.name): \(message)" }
}

/// What a ``VerificationStore`` throws: a fault of the storage, never a verdict on a code.
///
/// The verifier turns these into ``VerificationError`` with the store codes; a store fault never
/// approves anything.
public struct VerificationStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of fault.
    public enum Kind: String, Sendable, Hashable {
        /// The store cannot be reached or refused the operation.
        case unavailable
        /// The store did not answer in time.
        case timeout
        /// The stored data is damaged or is not the store's format.
        case corrupted
        /// The store holds its maximum number of entries.
        case full
    }

    /// The kind of fault.
    public let kind: Kind
    /// What happened, without credentials or query text.
    public let message: String

    /// Creates a store error.
    ///
    /// - Parameters:
    ///   - kind: The kind of fault.
    ///   - message: What happened.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "\(kind.rawValue): \(message)" }
}
