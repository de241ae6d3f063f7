/// Why Kannel did not take an SMS: a typed reason, how far the SMS got, and a message for the
/// operator that never holds the password, the text (it holds the code) or the recipient.
///
/// ```swift
/// do {
///     try await sender.send(sms)
/// } catch let error as KannelError {
///     error.code           // .connectionFailed: Kannel's smsbox is down; nothing was sent
///     error.acceptedParts  // 0
/// }
/// ```
public struct KannelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The reason, as a stable name (`error.code.name`, e.g. `"connection_failed"`).
    ///
    /// A struct over a private enum, as ``PhoneVerification/VerificationError/Code``, so that codes can be added.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String {
            case invalidConfiguration = "invalid_configuration"
            case unsupportedMessage = "unsupported_message"
            case connectionFailed = "connection_failed"
            case unavailable = "unavailable"
            case rejected = "rejected"
            case serverError = "server_error"
            case timedOut = "timed_out"
            case connectionLost = "connection_lost"
            case malformedResponse = "malformed_response"
            case cancelled = "cancelled"
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The sender's URL or settings are unusable (not `http`, no host, a reserved parameter...).
        public static let invalidConfiguration = Code(.invalidConfiguration)
        /// The SMS cannot go through `sendsms` exactly as SMSKit encoded it (national language
        /// tables, more than 255 parts, no parts); nothing was sent.
        public static let unsupportedMessage = Code(.unsupportedMessage)
        /// No connection to smsbox (refused, unreachable, connect timeout), after the retries;
        /// the request never left, so nothing was sent.
        public static let connectionFailed = Code(.connectionFailed)
        /// smsbox answered 503 on every attempt: it did not take the SMS.
        public static let unavailable = Code(.unavailable)
        /// smsbox refused the request (4xx: credentials, parameters, a `sendsms-user` limit); not retried.
        public static let rejected = Code(.rejected)
        /// smsbox answered 5xx other than 503; not retried (it may have queued the part).
        public static let serverError = Code(.serverError)
        /// No answer within the response timeout after the request left; not retried (Kannel may
        /// have accepted it, and `sendsms` has no idempotency key).
        public static let timedOut = Code(.timedOut)
        /// The connection closed before a complete answer; not retried once the request left.
        public static let connectionLost = Code(.connectionLost)
        /// The answer is not HTTP/1.1.
        public static let malformedResponse = Code(.malformedResponse)
        /// The task sending the SMS was cancelled.
        public static let cancelled = Code(.cancelled)

        /// The stable name, e.g. `"connection_failed"`.
        public var name: String { value.rawValue }
        public var description: String { value.rawValue }
    }

    /// The reason.
    public let code: Code
    /// What happened and what to do, for the operator.
    public let message: String
    /// The parts Kannel accepted before the failure (a multipart SMS is one request per part).
    public let acceptedParts: Int
    /// The parts of the SMS.
    public let partCount: Int
    /// The HTTP status smsbox answered with, when it answered.
    public let httpStatus: Int?

    /// Creates an error.
    public init(_ code: Code, _ message: String, acceptedParts: Int = 0, partCount: Int = 0, httpStatus: Int? = nil) {
        self.code = code
        self.message = message
        self.acceptedParts = acceptedParts
        self.partCount = partCount
        self.httpStatus = httpStatus
    }

    public var description: String { "\(code.name): \(message)" }
}
