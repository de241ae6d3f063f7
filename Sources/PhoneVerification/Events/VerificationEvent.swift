import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One state change of a verification, as it is stored with the verification, read from
/// `GET /v1/events` and delivered to webhooks.
///
/// An event is identified by its verification and its ``sequence``: the store numbers the events
/// of one verification 1, 2, 3... in the order the changes happened, and ``id`` (`<verification
/// ID>.<sequence>`) never changes, so a consumer deduplicates deliveries by ``id`` and orders
/// one verification's events by ``sequence``. ``cursor`` orders all events of a store, for readers
/// that pull (`GET /v1/events?after=<cursor>`).
///
/// Events never carry the code, the digest or the full phone number: the consumer correlates by
/// the verification ID (which the app got from the start), and ``Details/maskedNumber`` keeps only
/// the last digits (``VerificationEvent/mask(_:)``) for support screens. Webhook receivers and event
/// readers are therefore not trusted with numbers; an app that needs the number has it from the
/// start or the approval.
///
/// ```swift
/// let event = VerificationEvent(verificationID: started.id, kind: .delivered, time: now,
///                               details: .init(messageID: "0a1b2c", part: 1))
/// try await store.appendEvents([event])
/// ```
public struct VerificationEvent: Sendable, Hashable {
    /// What happened: a stable, machine-readable name (`kind.name`, e.g. `"delivery_failed"`).
    ///
    /// A struct over a private enum (as ``VerificationError/Code``), so that kinds can be added.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, CaseIterable {
            case started, sent, resent, delivered
            case deliveryFailed = "delivery_failed"
            case approved
            case incorrectCode = "incorrect_code"
            case maxAttempts = "max_attempts"
            case expired, cancelled, refused
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// A verification was made (its SMS is about to be handed to the sender).
        public static let started = Kind(.started)
        /// The sender accepted the verification's SMS.
        public static let sent = Kind(.sent)
        /// Another start for the number resent the code of its open verification (same ID).
        public static let resent = Kind(.resent)
        /// The network reported a part of the SMS delivered.
        public static let delivered = Kind(.delivered)
        /// The network, the SMS centre or the sender reported that the SMS failed.
        public static let deliveryFailed = Kind(.deliveryFailed)
        /// A check with the right code approved the verification.
        public static let approved = Kind(.approved)
        /// A check had the wrong code (``Details/attemptsLeft`` says how many remain).
        public static let incorrectCode = Kind(.incorrectCode)
        /// A wrong code used the last attempt: no check can approve the verification any more.
        public static let maxAttempts = Kind(.maxAttempts)
        /// The code's lifetime ended without approval (reported by the retention sweep).
        public static let expired = Kind(.expired)
        /// The verification was cancelled by the app.
        public static let cancelled = Kind(.cancelled)
        /// The send guard refused a start (``Details/reason`` and ``Details/retryAt`` say why and until when).
        public static let refused = Kind(.refused)

        /// Every kind, in the order of the list above.
        public static let allCases: [Kind] = Value.allCases.map(Kind.init)

        /// The kind with this name, or `nil`.
        public init?(name: String) {
            guard let value = Value(rawValue: name) else { return nil }
            self.value = value
        }

        /// The stable name, e.g. `"incorrect_code"`.
        public var name: String { value.rawValue }
        public var description: String { value.rawValue }
    }

    /// What an event says beyond its kind; each field is present only for the kinds that have it.
    public struct Details: Sendable, Hashable {
        /// The number with all but its last digits masked (`started`, `resent`, `refused`).
        public var maskedNumber: String?
        /// The refusal's ``VerificationError/Code`` name (`refused`), e.g. `"range_blocked"`.
        public var reason: String?
        /// When a start may succeed again (`refused`), or `nil` when waiting does not help.
        public var retryAt: Date?
        /// The checks still accepted (`incorrect_code`).
        public var attemptsLeft: Int?
        /// The message the report is about (`sent`, `delivered`, `delivery_failed`).
        public var messageID: String?
        /// The part of a multipart message, from 1 (`delivered`, `delivery_failed`).
        public var part: Int?
        /// The SMS centre's or the network's error code (`delivery_failed`).
        public var errorCode: String?
        /// The segments the SMS took (`sent`, `resent`).
        public var segments: Int?

        /// Creates details; every field defaults to absent.
        public init(maskedNumber: String? = nil, reason: String? = nil, retryAt: Date? = nil, attemptsLeft: Int? = nil,
                    messageID: String? = nil, part: Int? = nil, errorCode: String? = nil, segments: Int? = nil) {
            self.maskedNumber = maskedNumber
            self.reason = reason
            self.retryAt = retryAt
            self.attemptsLeft = attemptsLeft
            self.messageID = messageID
            self.part = part
            self.errorCode = errorCode
            self.segments = segments
        }
    }

    /// The verification the event is about (for `refused`, the ID the refused start would have had:
    /// nothing else carries it).
    public var verificationID: String
    /// The event's place among its verification's events, from 1; 0 until a store appended it.
    public var sequence: Int
    /// The event's place among all events of its store (opaque, increasing, with gaps); 0 until
    /// appended.
    public var cursor: Int64
    /// What happened.
    public var kind: Kind
    /// When it happened (milliseconds).
    public var time: Date
    /// What else the consumer needs for this kind.
    public var details: Details

    /// An event to append (the store assigns ``sequence`` and ``cursor``).
    ///
    /// - Parameters:
    ///   - verificationID: The verification.
    ///   - kind: What happened.
    ///   - time: When (kept to the millisecond).
    ///   - details: The kind's details.
    public init(verificationID: String, kind: Kind, time: Date, details: Details = Details()) {
        self.init(verificationID: verificationID, sequence: 0, cursor: 0, kind: kind, time: time, details: details)
    }

    /// An event as a store returns it.
    public init(verificationID: String, sequence: Int, cursor: Int64, kind: Kind, time: Date, details: Details) {
        self.verificationID = verificationID
        self.sequence = sequence
        self.cursor = cursor
        self.kind = kind
        self.time = Self.millisecond(time)
        self.details = details
        self.details.retryAt = details.retryAt.map(Self.millisecond)
    }

    /// The event ID: `<verification ID>.<sequence>`, unique in a store and stable across deliveries.
    public var id: String { "\(verificationID).\(sequence)" }

    /// A number with all but its last `visible` digits replaced by `*`, the `+` kept:
    /// `+447700900123` becomes `+**********23`.
    ///
    /// - Parameters:
    ///   - e164: The number in E.164.
    ///   - visible: The digits left in clear at the end (2 by default).
    /// - Returns: The masked number, as long as the original.
    public static func mask(_ e164: String, visible: Int = 2) -> String {
        let digits = e164.utf8.filter { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
        var seen = 0
        var masked = ""
        masked.reserveCapacity(e164.utf8.count)
        for character in e164 {
            if character.isASCII, character.isNumber {
                seen += 1
                masked.append(seen > digits - visible ? character : "*")
            } else {
                masked.append(character)
            }
        }
        return masked
    }
}

extension VerificationEvent.Kind: Codable {
    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let kind = Self(name: name) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "unknown event kind"))
        }
        self = kind
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}

extension VerificationEvent: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, cursor, sequence, kind, time
        case verificationID = "verification_id"
        case maskedNumber = "masked_number", reason, retryAt = "retry_at", attemptsLeft = "attempts_left"
        case messageID = "message_id", part, errorCode = "error_code", segments
    }

    /// Decodes the JSON of ``encode(to:)`` (the `id` field is checked against verification and sequence).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let retry = try container.decodeIfPresent(String.self, forKey: .retryAt)
        let details = Details(
            maskedNumber: try container.decodeIfPresent(String.self, forKey: .maskedNumber),
            reason: try container.decodeIfPresent(String.self, forKey: .reason),
            retryAt: try retry.map { try Self.date($0, container.codingPath) },
            attemptsLeft: try container.decodeIfPresent(Int.self, forKey: .attemptsLeft),
            messageID: try container.decodeIfPresent(String.self, forKey: .messageID),
            part: try container.decodeIfPresent(Int.self, forKey: .part),
            errorCode: try container.decodeIfPresent(String.self, forKey: .errorCode),
            segments: try container.decodeIfPresent(Int.self, forKey: .segments))
        self.init(verificationID: try container.decode(String.self, forKey: .verificationID),
                  sequence: try container.decode(Int.self, forKey: .sequence),
                  cursor: try container.decodeIfPresent(Int64.self, forKey: .cursor) ?? 0,
                  kind: try container.decode(Kind.self, forKey: .kind),
                  time: try Self.date(try container.decode(String.self, forKey: .time), container.codingPath),
                  details: details)
        if let id = try container.decodeIfPresent(String.self, forKey: .id), id != self.id {
            throw DecodingError.dataCorruptedError(forKey: .id, in: container,
                                                   debugDescription: "the id is not <verification_id>.<sequence>")
        }
    }

    /// Encodes `id`, `cursor`, `verification_id`, `sequence`, `kind`, `time` (ISO 8601 with
    /// milliseconds, UTC) and the details that are present, under snake_case names.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(cursor, forKey: .cursor)
        try container.encode(verificationID, forKey: .verificationID)
        try container.encode(sequence, forKey: .sequence)
        try container.encode(kind, forKey: .kind)
        try container.encode(Self.timestamp(time), forKey: .time)
        try container.encodeIfPresent(details.maskedNumber, forKey: .maskedNumber)
        try container.encodeIfPresent(details.reason, forKey: .reason)
        try container.encodeIfPresent(details.retryAt.map(Self.timestamp), forKey: .retryAt)
        try container.encodeIfPresent(details.attemptsLeft, forKey: .attemptsLeft)
        try container.encodeIfPresent(details.messageID, forKey: .messageID)
        try container.encodeIfPresent(details.part, forKey: .part)
        try container.encodeIfPresent(details.errorCode, forKey: .errorCode)
        try container.encodeIfPresent(details.segments, forKey: .segments)
    }

    /// The event as one JSON object (keys sorted, no trailing newline): the body of a webhook
    /// delivery and one line of `GET /v1/events`.
    public func jsonBytes() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding strings, integers and a nested value of this type cannot fail.
        return (try? Array(encoder.encode(self))) ?? []
    }

    /// A time as stores keep it: milliseconds since 1970, to the nearest.
    package static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    /// A time kept to the nearest millisecond, as stores and JSON keep it.
    static func millisecond(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
    }

    /// `2027-01-15T08:00:00.123Z`.
    static func timestamp(_ date: Date) -> String {
        let ms = Int64((date.timeIntervalSince1970 * 1000).rounded())
        var seconds = time_t(ms.floorDiv(1000))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(ms.floorMod(1000)), 3))Z"
    }

    private static func date(_ text: String, _ path: [any CodingKey]) throws -> Date {
        guard let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
            ?? Date(text, strategy: Date.ISO8601FormatStyle()) else {
            throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "not an ISO 8601 time"))
        }
        return millisecond(date)
    }
}

extension Int64 {
    fileprivate func floorDiv(_ divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor < 0) ? quotient - 1 : quotient
    }

    fileprivate func floorMod(_ divisor: Int64) -> Int64 { self - floorDiv(divisor) * divisor }
}

extension VerificationEvent.Details {
    /// The details of a refusal: the error's code name and retry time (never its message, which
    /// may name the number).
    public init(refusal error: VerificationError, maskedNumber: String?) {
        self.init(maskedNumber: maskedNumber, reason: error.code.name, retryAt: error.retryAfter)
    }
}
