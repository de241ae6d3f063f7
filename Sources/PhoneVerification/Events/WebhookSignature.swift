import Crypto
import Foundation

/// HMAC-SHA256 signatures of outgoing HTTP bodies (webhook events, the HTTPS sender's messages),
/// in the scheme Stripe uses: the signed text is `<unix seconds>.<body>`, and the header is
///
///     SMSKit-Signature: t=1764320000,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd
///
/// Binding the timestamp into the MAC lets a receiver refuse replays older than a tolerance
/// window; `v1` names the scheme so that a later one can be sent beside it. A receiver checks it
/// with ``verify(header:body:now:tolerance:)`` or the few lines of Python in `docs/webhooks.md`.
///
/// ```swift
/// let signature = WebhookSignature(secret: Array(secretFileBytes))
/// let header = signature.header(body: body, timestamp: Date())   // "t=...,v1=..."
/// try signature.verify(header: header, body: body, now: Date())   // the receiver's side
/// ```
// `@unchecked`: `SymmetricKey` is an immutable value (its bytes are never changed after creation),
// as in ``VerificationSecret``.
public struct WebhookSignature: @unchecked Sendable {
    /// The name of the header carrying the signature.
    public static let headerName = "SMSKit-Signature"

    /// The default replay window of ``verify(header:body:now:tolerance:)``: five minutes either way.
    public static let defaultTolerance: Duration = .seconds(300)

    /// The shortest secret accepted, in bytes.
    public static let minimumSecretLength = 16

    /// Why a signature header was refused.
    public struct VerificationFailure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The reason, as a stable name.
        public enum Reason: String, Sendable, Hashable {
            /// The header is not `t=<digits>,v1=<64 hex digits>[,...]`, or is too long.
            case malformedHeader = "malformed_header"
            /// The timestamp is further from `now` than the tolerance (a replay, or a wrong clock).
            case outsideTolerance = "outside_tolerance"
            /// No `v1` signature matches the body and timestamp (tampered body, wrong secret).
            case mismatch
        }
        /// The reason.
        public let reason: Reason
        /// A failure for a reason.
        public init(reason: Reason) { self.reason = reason }
        public var description: String { "webhook signature refused: \(reason.rawValue)" }
    }

    private let key: SymmetricKey

    /// A signer and verifier with a shared secret.
    ///
    /// - Parameter secret: The shared secret's bytes (at least ``minimumSecretLength``).
    /// - Throws: ``VerificationError`` `.invalidSecret` when it is shorter.
    public init(secret: [UInt8]) throws(VerificationError) {
        guard secret.count >= Self.minimumSecretLength else {
            throw VerificationError(.invalidSecret,
                "a webhook secret has at least \(Self.minimumSecretLength) bytes, not \(secret.count)")
        }
        key = SymmetricKey(data: secret)
    }

    /// A signer with the secret in a private file (a regular file of the running user, mode
    /// `0600` or `0400`, as the verification secret's; surrounding white space is dropped).
    ///
    /// - Parameter path: The file.
    /// - Throws: ``VerificationError`` `.invalidSecret` when the file is not private, not
    ///   readable, or holds fewer than ``minimumSecretLength`` bytes.
    public init(contentsOfFile path: String) throws(VerificationError) {
        try self.init(secret: Array(VerificationSecret.privateFileBytes(path)))
    }

    /// The hex HMAC-SHA256 of `<timestamp>.<body>`.
    ///
    /// - Parameters:
    ///   - body: The exact bytes sent.
    ///   - timestamp: Unix seconds.
    /// - Returns: 64 lowercase hex digits.
    public func signature(body: some Collection<UInt8>, timestamp: Int64) -> String {
        var mac = HMAC<SHA256>(key: key)
        mac.update(data: Array("\(timestamp).".utf8))
        mac.update(data: Array(body))
        return VerificationSecret.hex(Array(mac.finalize()))
    }

    /// The header value for a body sent at `timestamp`: `t=<unix seconds>,v1=<hex>`.
    ///
    /// - Parameters:
    ///   - body: The exact bytes sent.
    ///   - timestamp: When it is sent.
    /// - Returns: The value of the ``headerName`` header.
    public func header(body: some Collection<UInt8>, timestamp: Date) -> String {
        let seconds = Int64(timestamp.timeIntervalSince1970.rounded(.down))
        return "t=\(seconds),v1=\(signature(body: body, timestamp: seconds))"
    }

    /// Checks a header against a received body: the timestamp within `tolerance` of `now`, and a
    /// `v1` signature equal (compared in constant time) to the body's.
    ///
    /// - Parameters:
    ///   - header: The ``headerName`` header as received.
    ///   - body: The body's exact bytes, before any parsing.
    ///   - now: The receiver's time.
    ///   - tolerance: The largest accepted distance between the timestamp and `now`.
    /// - Throws: ``VerificationFailure`` with the reason.
    public func verify(header: String, body: some Collection<UInt8>, now: Date,
                       tolerance: Duration = Self.defaultTolerance) throws(VerificationFailure) {
        guard header.utf8.count <= 1024 else { throw VerificationFailure(reason: .malformedHeader) }
        var timestamp: Int64?
        var candidates: [[UInt8]] = []
        for item in header.split(separator: ",") {
            let pair = item.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { throw VerificationFailure(reason: .malformedHeader) }
            switch pair[0] {
            case "t":
                guard timestamp == nil, pair[1].utf8.count <= 12, pair[1].utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
                      let seconds = Int64(pair[1]) else { throw VerificationFailure(reason: .malformedHeader) }
                timestamp = seconds
            case "v1":
                guard pair[1].utf8.count == 64, candidates.count < 8 else {
                    throw VerificationFailure(reason: .malformedHeader)
                }
                candidates.append(Array(pair[1].utf8))
            default:
                continue  // other schemes, for receivers of a later version
            }
        }
        guard let timestamp, !candidates.isEmpty else { throw VerificationFailure(reason: .malformedHeader) }
        let distance = abs(now.timeIntervalSince1970 - Double(timestamp))
        guard distance <= tolerance.timeInterval else { throw VerificationFailure(reason: .outsideTolerance) }
        let expected = Array(signature(body: body, timestamp: timestamp).utf8)
        var matched = false
        for candidate in candidates where CheckRequest.constantTimeEqual(Array(candidate.map { $0 | 0x20 }), expected) {
            matched = true
        }
        guard matched else { throw VerificationFailure(reason: .mismatch) }
    }
}
