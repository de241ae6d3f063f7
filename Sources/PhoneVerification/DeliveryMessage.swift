import Crypto
import Foundation

/// One part of an SMS as delivery reports left it.
public struct DeliveryPart: Sendable, Hashable, Codable {
    /// The part's number, from 1.
    public var number: Int
    /// Where the part stands.
    public var state: DeliveryState
    /// The gateway's or SMS centre's ID of the part (an SMPP `submit_sm_resp` message ID), once known.
    public var providerMessageID: String?
    /// The SMS centre's or network's error code of a failed part (the `err:` of an SMPP receipt).
    public var errorCode: String?
    /// When the latest report that changed the part arrived (or when the part was recorded).
    public var updatedAt: Date
    /// When the part reached a final state, as the report dates it when it does.
    public var doneAt: Date?

    /// Creates a part.
    public init(number: Int, state: DeliveryState = .queued, providerMessageID: String? = nil, errorCode: String? = nil,
                updatedAt: Date, doneAt: Date? = nil) {
        self.number = number
        self.state = state
        self.providerMessageID = providerMessageID
        self.errorCode = errorCode
        self.updatedAt = updatedAt
        self.doneAt = doneAt
    }

    /// The part after `report`, and what the report did. A report may also name the part's
    /// provider ID and error code: they are kept when the part has none yet, even from a stale
    /// report (the ID of an SMPP `submit_sm_resp` can come after the part's receipt).
    public func applying(_ report: DeliveryReport) -> (part: DeliveryPart, transition: DeliveryState.Transition) {
        var part = self
        let (state, transition) = self.state.merged(with: report.state)
        part.state = state
        var filled = false
        if part.providerMessageID == nil, let id = report.providerMessageID {
            part.providerMessageID = id
            filled = true
        }
        if transition == .changed {
            part.updatedAt = report.receivedAt
            if state.isFinal { part.doneAt = report.doneAt ?? report.receivedAt }
            if state == .failed || state == .expired { part.errorCode = report.errorCode }
        } else if filled {
            part.updatedAt = report.receivedAt
        }
        return (part, transition)
    }
}

/// One SMS sent for a verification (its first send or a resend), with its parts.
///
/// The gateway reaches it through an unguessable token (``makeToken()``, 128 random bits) in its
/// report URL; a store keeps only the token's SHA-256 digest (``digest(ofToken:)``), so a copy of
/// the store gives nobody a URL that forges reports.
public struct DeliveryMessage: Sendable, Hashable {
    /// SHA-256 of the message's token: 32 bytes.
    public var tokenDigest: [UInt8]
    /// The verification the SMS belongs to.
    public var verificationID: String
    /// 1 for the verification's first SMS, 2 for its first resend, and so on.
    public var sequence: Int
    /// When the SMS was handed to the sender.
    public var createdAt: Date
    /// The locale the SMS was written in (BCP 47, after fallback).
    public var locale: String
    /// The parts, in order (numbers 1...count).
    public var parts: [DeliveryPart]

    /// Creates a message.
    public init(tokenDigest: [UInt8], verificationID: String, sequence: Int, createdAt: Date, locale: String = "",
                parts: [DeliveryPart]) {
        self.tokenDigest = tokenDigest
        self.verificationID = verificationID
        self.sequence = sequence
        self.createdAt = createdAt
        self.locale = locale
        self.parts = parts
    }

    /// A new message of `partCount` queued parts.
    public init(token: String, verificationID: String, sequence: Int, partCount: Int, createdAt: Date, locale: String = "") {
        self.init(tokenDigest: Self.digest(ofToken: token), verificationID: verificationID, sequence: sequence,
                  createdAt: createdAt, locale: locale,
                  parts: (1...max(1, min(partCount, Self.maximumParts))).map { DeliveryPart(number: $0, updatedAt: createdAt) })
    }

    /// The most parts a message has (the concatenation header counts them in one octet).
    public static let maximumParts = 255

    /// The message's state: see ``DeliveryState/combined(_:)``.
    public var state: DeliveryState { DeliveryState.combined(parts.lazy.map(\.state)) }

    /// The error code of the first failed part (or, failing that, of the first expired one).
    public var errorCode: String? {
        parts.first(where: { $0.state == .failed })?.errorCode
            ?? parts.first(where: { $0.state == .expired })?.errorCode
    }

    /// A new token: 22 URL-safe base64 characters (128 random bits).
    public static func makeToken() -> String { _Random.id() }

    /// Whether `text` could be a token (22 URL-safe base64 characters); check this before hashing input.
    public static func isWellFormedToken(_ text: String) -> Bool { _Random.isWellFormedID(text) }

    /// The digest a store keeps for a token: SHA-256 of its UTF-8 bytes.
    public static func digest(ofToken token: String) -> [UInt8] { Array(SHA256.hash(data: Array(token.utf8))) }

    /// Applies a report to part `number`: the message after it and what changed, or `nil` when the
    /// message has no such part. One home for the rules; every store calls it.
    public func applying(_ report: DeliveryReport, toPart number: Int) -> (message: DeliveryMessage, result: DeliveryReportResult)? {
        guard let index = parts.firstIndex(where: { $0.number == number }) else { return nil }
        var message = self
        let before = state
        let (part, transition) = parts[index].applying(report)
        message.parts[index] = part
        let result = DeliveryReportResult(verificationID: verificationID, sequence: sequence, part: number,
                                          transition: transition, partChanged: part != parts[index],
                                          previousState: before, state: message.state, errorCode: message.errorCode)
        return (message, result)
    }
}

/// A delivery report: which part it is about and what it says.
public struct DeliveryReport: Sendable, Hashable {
    /// How a report names its part.
    public enum Target: Sendable, Hashable {
        /// By the message's token digest and the part's number (a report URL that carries both).
        case token(digest: [UInt8], part: Int)
        /// By the SMS centre's message ID (an SMPP receipt): the ID as written, decimal or hex.
        case providerMessageID(String)
    }

    /// The part the report is about.
    public var target: Target
    /// The state it reports.
    public var state: DeliveryState
    /// The part's provider ID the report tells, if any.
    public var providerMessageID: String?
    /// The error code it reports, if any.
    public var errorCode: String?
    /// When it arrived.
    public var receivedAt: Date
    /// When the SMS centre says the part reached its state (an SMPP receipt's `done date`), if it says.
    public var doneAt: Date?

    /// The longest provider message ID kept (SMPP allows 65 octets).
    public static let maximumProviderIDLength = 65
    /// The longest error code kept.
    public static let maximumErrorCodeLength = 32

    /// Creates a report. Over-long IDs and error codes are not kept: they name nothing a store holds.
    public init(target: Target, state: DeliveryState, providerMessageID: String? = nil, errorCode: String? = nil,
                receivedAt: Date, doneAt: Date? = nil) {
        self.target = target
        self.state = state
        self.providerMessageID = providerMessageID.flatMap(Self.normalizedProviderID)
        self.errorCode = errorCode.flatMap { Self.printable($0, limit: Self.maximumErrorCodeLength) }
        self.receivedAt = receivedAt
        self.doneAt = doneAt
    }

    /// A provider ID as stores keep it: lowercased printable ASCII, or `nil` when empty or too long.
    public static func normalizedProviderID(_ id: String) -> String? {
        printable(id, limit: maximumProviderIDLength)?.lowercased()
    }

    /// The forms a provider ID can take in a receipt (SMS centres answer `submit_sm` in one base and
    /// write receipts in the other, and may pad decimal IDs with zeros): the ID itself, the same
    /// number in the other base, and a decimal ID without its leading zeros.
    public static func providerIDForms(_ id: String) -> [String] {
        guard let key = normalizedProviderID(id) else { return [] }
        var forms = [key]
        if let decimal = UInt64(key, radix: 10) {
            forms.append(String(decimal))
            forms.append(String(decimal, radix: 16))
        }
        if let hex = UInt64(key, radix: 16) { forms.append(String(hex)) }
        var seen = Set<String>()
        return forms.filter { seen.insert($0).inserted }
    }

    static func printable(_ text: String, limit: Int) -> String? {
        let bytes = text.utf8
        guard !bytes.isEmpty, bytes.count <= limit, bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        return text
    }
}

/// What a store did with a ``DeliveryReport``.
public struct DeliveryReportResult: Sendable, Hashable {
    /// The verification the message belongs to.
    public var verificationID: String
    /// The message's place among the verification's SMS (1 first send).
    public var sequence: Int
    /// The part the report was about.
    public var part: Int
    /// What the report did to the part's state.
    public var transition: DeliveryState.Transition
    /// Whether the part changed at all (its state, or a provider ID it had not had).
    public var partChanged: Bool
    /// The message's state before the report.
    public var previousState: DeliveryState
    /// The message's state after it.
    public var state: DeliveryState
    /// The message's error code after it.
    public var errorCode: String?

    /// Creates a result.
    public init(verificationID: String, sequence: Int, part: Int, transition: DeliveryState.Transition, partChanged: Bool,
                previousState: DeliveryState, state: DeliveryState, errorCode: String?) {
        self.verificationID = verificationID
        self.sequence = sequence
        self.part = part
        self.transition = transition
        self.partChanged = partChanged
        self.previousState = previousState
        self.state = state
        self.errorCode = errorCode
    }

    /// Whether this report made the message final (`delivered`, `failed` or `expired`): the moment
    /// to emit a delivery event or count a delivery, once per message.
    public var messageBecameFinal: Bool { state.isFinal && !previousState.isFinal }
}
