import Foundation
import PhoneVerification

/// A delivery report Kannel fetches from the `dlr-url` the ``KannelSender`` gave a part, read into
/// a ``PhoneVerification/DeliveryReport``.
///
/// The URL carries the message's token and the part's number, which SMSKit put there, and
/// Kannel's escapes: `type=%d` (the report type), `status=%A` (the SMS centre's answer: for an SMPP
/// connection, the receipt text `id:… stat:… err:…`), `smsc=%i` (the SMSC's ID) and `ts=%T` (the
/// UNIX time). The types map to states: 1 delivered, 2 failed, 4 buffered and 8 accepted by the
/// SMSC (`accepted`), 16 rejected by the SMSC (`failed`); Kannel's 34 (expired) and 66 (unknown)
/// too. A receipt text in `status` gives the error code and the done date, and tells an expired
/// part from a failed one.
///
/// ```swift
/// let report = try KannelDeliveryReport(query: [("token", token), ("part", "1"), ("type", "1"),
///                                               ("status", "id:1000 stat:DELIVRD err:000")],
///                                       receivedAt: Date())
/// report.deliveryReport.state   // .delivered
/// ```
public struct KannelDeliveryReport: Sendable, Hashable {
    /// The message's token, as the URL carried it.
    public var token: String
    /// The report as the store applies it (its target is the token's digest and the part).
    public var deliveryReport: DeliveryReport
    /// Kannel's report type (`%d`).
    public var type: Int
    /// The receipt read from `status`, when it holds one.
    public var receipt: DeliveryReceipt?

    /// Why a report URL was refused.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// A stable name: `missing_token`, `malformed_token`, `malformed_part`, `unknown_type`, `oversized_field`.
        public var reason: String
        /// What to fix.
        public var message: String
        public var description: String { message }
    }

    /// The longest value read from a report URL: a receipt text (254 octets) percent-encoded three times over.
    public static let maximumFieldLength = 1024

    /// Reads a report from the query (or form) fields of Kannel's request.
    ///
    /// - Throws: ``Failure`` for a missing or malformed token, a part outside 1...255, a type that
    ///   is not a Kannel report type, or a field longer than ``maximumFieldLength``.
    public init(query: [(name: String, value: String)], receivedAt: Date) throws(Failure) {
        func field(_ name: String) throws(Failure) -> String? {
            guard let value = query.first(where: { $0.name == name })?.value else { return nil }
            guard value.utf8.count <= Self.maximumFieldLength else {
                throw Failure(reason: "oversized_field", message: "the report's \(name) has \(value.utf8.count) bytes; at most \(Self.maximumFieldLength)")
            }
            return value
        }
        guard let token = try field("token") else {
            throw Failure(reason: "missing_token", message: "the report has no token")
        }
        guard DeliveryMessage.isWellFormedToken(token) else {
            throw Failure(reason: "malformed_token", message: "the report's token is not 22 URL-safe base64 characters")
        }
        guard let partText = try field("part"), let part = Int(partText), (1...DeliveryMessage.maximumParts).contains(part) else {
            throw Failure(reason: "malformed_part", message: "the report's part is not a number from 1 to \(DeliveryMessage.maximumParts)")
        }
        guard let typeText = try field("type"), let type = Int(typeText), var state = Self.state(type: type) else {
            throw Failure(reason: "unknown_type", message: "the report's type is not one of Kannel's (1, 2, 4, 8, 16, 34, 66)")
        }
        let receipt = try field("status").map { DeliveryReceipt(text: $0) }
        let readable = receipt.flatMap { $0.messageID != nil || $0.stat != nil ? $0 : nil }
        // A final failure's receipt says whether it expired or was undeliverable.
        if state == .failed, let read = readable?.state, read == .expired { state = .expired }
        let errorCode = (state == .failed || state == .expired) ? readable?.error : nil
        self.token = token
        self.type = type
        self.receipt = readable
        self.deliveryReport = DeliveryReport(
            target: .token(digest: DeliveryMessage.digest(ofToken: token), part: part), state: state,
            providerMessageID: readable?.messageID, errorCode: errorCode, receivedAt: receivedAt,
            doneAt: state.isFinal ? readable?.doneAt : nil)
    }

    /// The state a Kannel report type means, or `nil` for a type Kannel does not send.
    public static func state(type: Int) -> DeliveryState? {
        switch type {
        case 1: return .delivered
        case 2, 16: return .failed
        case 4, 8: return .accepted
        case 34: return .expired
        case 66: return .unknown
        default: return nil
        }
    }

    /// The `dlr-url` of one part, or `nil` when the configuration asks for no reports or the SMS
    /// has no token.
    static func url(configuration: KannelSender.Configuration, token: String?, part: Int) throws(KannelError) -> String? {
        guard let base = configuration.deliveryReportURL, let token else { return nil }
        let separator = base.contains("?") ? "&" : "?"
        // Kannel replaces the %-escapes when it fetches the URL; the token is URL-safe as it is.
        return base + separator + "token=\(token)&part=\(part)&type=%d&status=%A&smsc=%i&ts=%T"
    }

    /// Checks a report endpoint for ``KannelSender/Configuration/deliveryReportURL``.
    ///
    /// - Throws: ``KannelError/Code/invalidConfiguration`` when it is not an `http` or `https` URL,
    ///   or when the sendsms parameters already set `dlr-url` or `dlr-mask`.
    public static func validate(_ configuration: KannelSender.Configuration) throws(KannelError) {
        guard let base = configuration.deliveryReportURL else { return }
        guard let components = URLComponents(string: base), ["http", "https"].contains(components.scheme?.lowercased() ?? ""),
              components.host?.isEmpty == false else {
            throw KannelError(.invalidConfiguration, "the delivery report URL must be an http:// or https:// URL")
        }
        guard (1...31).contains(configuration.deliveryReportMask) else {
            throw KannelError(.invalidConfiguration, "the dlr-mask must be 1 to 31, not \(configuration.deliveryReportMask)")
        }
        for parameter in configuration.parameters where ["dlr-url", "dlr-mask", "dlrurl", "dlrmask"].contains(parameter.name.lowercased()) {
            throw KannelError(.invalidConfiguration,
                "the sendsms parameter \(parameter.name) is set by the sender when delivery reports are on; remove it from the URL")
        }
    }
}
