import Foundation
import Logging
import PhoneVerification
import SMSEncoding
import SMSKitHTTPClient

/// An ``PhoneVerification/SMSSender`` that POSTs each SMS as one JSON document to a provider's
/// HTTPS endpoint (or an adapter in front of one), signed like the webhooks
/// (``PhoneVerification/WebhookSignature``, header `SMSKit-Signature`).
///
/// The document:
///
/// ```json
/// {"message_key":"3f2a...","verification_id":"Zq3...","recipient":"+447700900123","text":"Your Acme code is 042917.",
///  "encoding":"gsm7","locale":"en","parts":[{"udh":"","user_data":"d9...","udl":26,"text":"Your Acme code is 042917."}]}
/// ```
///
/// `message_key` (also sent as `Idempotency-Key`) is unique per SMS and the same on every
/// attempt, so a provider that deduplicates by it is safe to retry. Retries are made only where
/// no byte of the request can have been received: a refused connection, a connect timeout, a
/// name that does not resolve yet. A timeout or a lost connection after the request was written,
/// and any non-2xx answer, fail the send without a retry (the provider may have queued the SMS:
/// sending it twice would send two codes). The answer's `message_id` (a string), or the `id`s
/// of its `messages` array (one per part, in part order), are the provider's IDs: ``submit(_:)``
/// hands them to the verifier, which records them so that delivery reports naming them find the part.
public struct HTTPSSender: SMSSender {
    /// What a send returns: the provider's IDs, in the order of the answer (one per part, or one).
    public struct Submission: Sendable, Hashable {
        /// The message key sent.
        public var messageKey: String
        /// The provider's message IDs; `nil` where an element has none, or one longer than
        /// ``PhoneVerification/DeliveryReport/maximumProviderIDLength`` (cut short, it could name another message).
        public var providerMessageIDs: [String?]
    }

    /// Why a send failed.
    public struct SendError: Error, Sendable, CustomStringConvertible {
        /// What happened (no number, no code).
        public let description: String
        /// The provider's status, when it answered.
        public let status: Int?
    }

    let url: OutboundURL
    let signature: WebhookSignature
    let client: OutboundHTTPClient
    let maxAttempts: Int
    let logger: Logger

    /// A sender.
    ///
    /// - Parameters:
    ///   - url: The provider's (or adapter's) endpoint.
    ///   - signature: The signer, with the secret shared with the provider.
    ///   - client: The HTTP client (timeouts, response cap, destination policy).
    ///   - maxAttempts: Attempts while the connection is refused before anything was sent; 3 by default.
    ///   - logger: Where failures go (the URL without its query; never the number or the text).
    public init(url: OutboundURL, signature: WebhookSignature, client: OutboundHTTPClient, maxAttempts: Int = 3,
                logger: Logger = Logger(label: "smskit.https-sender")) {
        self.url = url
        self.signature = signature
        self.client = client
        self.maxAttempts = max(1, maxAttempts)
        self.logger = logger
    }

    /// Sends for the verifier: the provider's IDs, one per part in part order.
    public func submit(_ sms: OutgoingSMS) async throws -> SubmittedSMS {
        SubmittedSMS(providerMessageIDs: try await post(sms).providerMessageIDs)
    }

    /// Sends and returns the message key and the provider's IDs, or a typed failure.
    public func post(_ sms: OutgoingSMS) async throws(SendError) -> Submission {
        let key = UUID().uuidString.lowercased()
        let body = Self.document(sms, key: key)
        var attempt = 1
        while true {
            let request = OutboundHTTPRequest(method: .POST, url: url, headers: [
                ("Content-Type", "application/json"),
                (WebhookSignature.headerName, signature.header(body: body, timestamp: Date())),
                ("Idempotency-Key", key),
            ], body: body)
            do {
                let response = try await client.send(request)
                guard response.isSuccess else {
                    logger.warning("the HTTPS provider refused the SMS", metadata: [
                        "status": "\(response.status)", "url": "\(url)", "verification_id": "\(sms.verificationID)"])
                    throw SendError(description: "the provider answered \(response.status); not retried", status: response.status)
                }
                return Submission(messageKey: key, providerMessageIDs: Self.messageIDs(response.body))
            } catch let error as SendError {
                throw error
            } catch let error as OutboundHTTPError {
                if !error.requestWritten, attempt < maxAttempts, error.kind != .destinationRefused {
                    attempt += 1
                    try? await Task.sleep(for: .milliseconds(200 * attempt))
                    continue
                }
                logger.warning("the SMS did not reach the HTTPS provider", metadata: [
                    "error": "\(error.kind.rawValue)", "url": "\(url)", "verification_id": "\(sms.verificationID)",
                    "request_written": "\(error.requestWritten)"])
                throw SendError(description: error.requestWritten
                    ? "\(error.kind.rawValue) after the request was sent; not retried, as the provider may have it"
                    : "\(error.kind.rawValue) (\(attempt) attempts); nothing was sent", status: nil)
            } catch {
                throw SendError(description: "the send failed", status: nil)
            }
        }
    }

    struct Document: Encodable {
        struct Part: Encodable {
            var udh: String
            var user_data: String
            var udl: Int
            var text: String
        }
        var message_key: String
        var verification_id: String
        var recipient: String
        var text: String
        var encoding: String
        var locale: String
        var parts: [Part]
    }

    static func document(_ sms: OutgoingSMS, key: String) -> [UInt8] {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        let document = Document(
            message_key: key, verification_id: sms.verificationID, recipient: sms.to, text: sms.text,
            encoding: sms.encoding.rawValue, locale: sms.locale,
            parts: sms.parts.map { Document.Part(udh: hex($0.userDataHeader), user_data: hex($0.userData),
                                                 udl: $0.userDataLength, text: $0.text) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? Array(encoder.encode(document))) ?? []
    }

    /// `message_id`, or the `id` (or `message_id`) of each element of `messages`.
    static func messageIDs(_ body: [UInt8]) -> [String?] {
        func kept(_ id: Any?) -> String? {
            guard let id = id as? String, !id.isEmpty, id.utf8.count <= DeliveryReport.maximumProviderIDLength else { return nil }
            return id
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else { return [] }
        if let id = object["message_id"] { return [kept(id)] }
        if let messages = object["messages"] as? [Any] {
            return messages.prefix(DeliveryMessage.maximumParts).map { element in
                let element = element as? [String: Any]
                return kept(element?["id"] ?? element?["message_id"])
            }
        }
        return []
    }
}
