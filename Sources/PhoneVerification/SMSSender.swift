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

    /// Creates an SMS.
    public init(to: String, text: String, encoding: SMSCharacterEncoding, parts: [SMSPart], locale: String,
                verificationID: String) {
        self.to = to
        self.text = text
        self.encoding = encoding
        self.parts = parts
        self.locale = locale
        self.verificationID = verificationID
    }
}

/// Hands an SMS to whatever delivers it: an SMPP or HTTP gateway, a file, a test.
///
/// Throw when the SMS was not accepted: the verifier then closes the verification (its code is
/// never usable without an SMS) and reports ``VerificationError/Code/sendFailed``. Implement it with
/// one method:
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
}
