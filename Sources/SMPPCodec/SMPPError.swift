/// Why an SMPP operation failed: a typed reason and a message for the operator that never holds
/// the password or the text of a message (it holds the code).
///
/// ```swift
/// do {
///     try await sender.send(sms)
/// } catch let error as SMPPError {
///     error.code           // .rejected: the SMSC answered submit_sm with an error status
///     error.commandStatus  // 0x0000000B (ESME_RINVDSTADR)
/// }
/// ```
public struct SMPPError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The reason, as a stable name (`error.code.name`, e.g. `"malformed_pdu"`).
    ///
    /// A struct over a private enum, so that codes can be added.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String {
            case malformedPDU = "malformed_pdu"
            case pduTooLarge = "pdu_too_large"
            case unknownCommand = "unknown_command"
            case invalidField = "invalid_field"
            case invalidConfiguration = "invalid_configuration"
            case unsupportedMessage = "unsupported_message"
            case connectionFailed = "connection_failed"
            case tlsFailed = "tls_failed"
            case bindFailed = "bind_failed"
            case notBound = "not_bound"
            case rejected = "rejected"
            case throttled = "throttled"
            case timedOut = "timed_out"
            case connectionLost = "connection_lost"
            case genericNack = "generic_nack"
            case shutDown = "shut_down"
            case cancelled = "cancelled"
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// Bytes that are not a well-formed SMPP 3.4 PDU (a length that lies, a string without its
        /// terminating NUL, a field longer than the specification allows, bytes left over).
        public static let malformedPDU = Code(.malformedPDU)
        /// A `command_length` above the configured maximum: the PDU is not read, the connection is closed.
        public static let pduTooLarge = Code(.pduTooLarge)
        /// A `command_id` this codec does not know.
        public static let unknownCommand = Code(.unknownCommand)
        /// A value that cannot be encoded (a string too long for its field, a short message over 254 octets).
        public static let invalidField = Code(.invalidField)
        /// The `smpp://` location or the settings are unusable.
        public static let invalidConfiguration = Code(.invalidConfiguration)
        /// The SMS cannot go over SMPP exactly as SMSKit encoded it; nothing was sent.
        public static let unsupportedMessage = Code(.unsupportedMessage)
        /// No TCP connection to the SMSC; nothing was sent.
        public static let connectionFailed = Code(.connectionFailed)
        /// The TLS handshake with the SMSC failed (a certificate not signed by a trusted authority,
        /// or not for the SMSC's name), or the TLS settings are unusable; nothing was sent.
        public static let tlsFailed = Code(.tlsFailed)
        /// The SMSC refused the bind (wrong system_id or password, for instance).
        public static let bindFailed = Code(.bindFailed)
        /// No bound session within the time allowed; nothing was sent.
        public static let notBound = Code(.notBound)
        /// The SMSC answered `submit_sm` with an error status: it did not take the part.
        public static let rejected = Code(.rejected)
        /// The SMSC answered `ESME_RTHROTTLED` or `ESME_RMSGQFUL` on every attempt: it did not take the part.
        public static let throttled = Code(.throttled)
        /// No response within the response timeout after the PDU left: not retried, as the SMSC may
        /// have accepted it.
        public static let timedOut = Code(.timedOut)
        /// The connection closed after the PDU left and before its response: not retried, as the
        /// SMSC may have accepted it.
        public static let connectionLost = Code(.connectionLost)
        /// The SMSC answered with `generic_nack`: it could not read the PDU, so it did not take it.
        public static let genericNack = Code(.genericNack)
        /// The client was shut down.
        public static let shutDown = Code(.shutDown)
        /// The task waiting for the answer was cancelled.
        public static let cancelled = Code(.cancelled)

        /// The stable name, e.g. `"malformed_pdu"`.
        public var name: String { value.rawValue }
        public var description: String { value.rawValue }
    }

    /// The reason.
    public let code: Code
    /// What happened and what to do, for the operator.
    public let message: String
    /// The SMSC's `command_status`, when it answered with one.
    public let commandStatus: SMPPCommandStatus?
    /// The parts the SMSC accepted before the failure (a multipart SMS is one `submit_sm` per part).
    public let acceptedParts: Int

    /// Creates an error.
    public init(_ code: Code, _ message: String, commandStatus: SMPPCommandStatus? = nil, acceptedParts: Int = 0) {
        self.code = code
        self.message = message
        self.commandStatus = commandStatus
        self.acceptedParts = acceptedParts
    }

    public var description: String { "\(code.name): \(message)" }

    package func with(acceptedParts: Int) -> SMPPError {
        SMPPError(code, message, commandStatus: commandStatus, acceptedParts: acceptedParts)
    }
}
