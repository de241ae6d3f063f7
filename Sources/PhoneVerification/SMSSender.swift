import Foundation
import SMSEncoding

/// One SMS to send: the recipient, the text and how it goes over the air.
public struct OutgoingSMS: Sendable, Hashable {
    /// The recipient in E.164, e.g. `+5511961234567`.
    public var to: String
    /// The text (after smart encoding, when the encoder changed it).
    public var text: String
    /// GSM 7-bit or UCS-2.
    public var encoding: SMSCharacterEncoding
    /// The parts with their user data headers (one part: no header).
    public var parts: [SMSPart]
    /// The locale the text is in (BCP 47).
    public var locale: String
    /// The verification the SMS belongs to.
    public var verificationID: String
    /// The message's delivery-report token (see ``DeliveryMessage``), for senders whose gateway
    /// calls back with reports: put it in the report URL with the part's number. `nil` when the
    /// verifier keeps no message for the SMS.
    public var deliveryToken: String?

    /// Creates an SMS.
    public init(to: String, text: String, encoding: SMSCharacterEncoding, parts: [SMSPart], locale: String,
                verificationID: String, deliveryToken: String? = nil) {
        self.to = to
        self.text = text
        self.encoding = encoding
        self.parts = parts
        self.locale = locale
        self.verificationID = verificationID
        self.deliveryToken = deliveryToken
    }
}

/// What a sender learnt when it handed over an SMS: the gateway's ID of each part, when it tells them.
public struct SubmittedSMS: Sendable, Hashable {
    /// The provider's message ID of each part, in part order (`nil` for a part it gave none);
    /// empty when the gateway gives no IDs (Kannel's `sendsms` answers with none).
    public var providerMessageIDs: [String?]

    /// Creates a submission result.
    public init(providerMessageIDs: [String?] = []) {
        self.providerMessageIDs = providerMessageIDs
    }
}

/// Hands an SMS to whatever delivers it: an SMPP or HTTP gateway, a file, a test.
///
/// Throw when the SMS was not accepted: the verifier then closes the verification (its code is
/// never usable without an SMS) and reports ``VerificationError/Code/sendFailed``. Implement one of
/// the two methods: ``send(_:)``, or ``submit(_:)`` when the gateway answers with each part's
/// message ID (the verifier records them, so that receipts naming them find the message):
///
/// ```swift
/// struct GatewaySender: SMSSender {
///     func send(_ sms: OutgoingSMS) async throws {
///         for part in sms.parts { try await gateway.submit(to: sms.to, userData: part.userData,
///                                                          header: part.userDataHeader) }
///     }
/// }
/// ```
public protocol SMSSender: Sendable {
    /// Sends one SMS, or throws when it was not accepted.
    func send(_ sms: OutgoingSMS) async throws

    /// Sends one SMS and returns what the gateway said of its parts, or throws when it was not accepted.
    func submit(_ sms: OutgoingSMS) async throws -> SubmittedSMS
}

extension SMSSender {
    /// Sends through ``send(_:)``: no provider IDs.
    public func submit(_ sms: OutgoingSMS) async throws -> SubmittedSMS {
        try await send(sms)
        return SubmittedSMS()
    }

    /// Sends through ``submit(_:)``, ignoring the IDs.
    public func send(_ sms: OutgoingSMS) async throws {
        _ = try await submit(sms)
    }
}
