import PhoneVerification

/// Where `smskit serve` hands verification SMS: `--sender SCHEME:VALUE`.
///
/// One home for the sender schemes: to add a gateway, add a case, its `parsing` branch and its
/// `makeSender()` line. Today: `outbox:PATH` (JSON lines appended to a file; the default).
///
/// ```swift
/// let location = try SMSSenderLocation(parsing: "outbox:/var/lib/smskit/outbox.jsonl")
/// ```
public enum SMSSenderLocation: Sendable, Hashable, CustomStringConvertible {
    /// JSON lines appended to a file (``PhoneVerification/OutboxSender``).
    case outbox(path: String)

    /// `outbox:smskit-outbox.jsonl` in the working directory, as `smskit verify start`.
    public static let `default` = SMSSenderLocation.outbox(path: "smskit-outbox.jsonl")

    /// Reads `SCHEME:VALUE`.
    ///
    /// - Throws: ``ServiceConfigurationError`` for an unknown sender scheme or an empty value.
    public init(parsing text: String) throws(ServiceConfigurationError) {
        guard let colon = text.firstIndex(of: ":") else {
            throw ServiceConfigurationError("The sender must look like SCHEME:VALUE, e.g. outbox:PATH.")
        }
        let scheme = text[..<colon].lowercased()
        let value = String(text[text.index(after: colon)...])
        switch scheme {
        case "outbox":
            guard !value.isEmpty else { throw ServiceConfigurationError("outbox: needs a file path, e.g. outbox:smskit-outbox.jsonl.") }
            self = .outbox(path: value)
        default:
            throw ServiceConfigurationError("Unknown sender scheme '\(scheme.prefix(32))': use outbox:PATH.")
        }
    }

    /// The sender.
    func makeSender() -> any SMSSender {
        switch self {
        case .outbox(let path): OutboxSender(path: path)
        }
    }

    public var description: String {
        switch self {
        case .outbox(let path): "outbox:\(path)"
        }
    }
}
