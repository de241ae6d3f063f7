import Foundation
import SMSEncoding
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An ``SMSSender`` that appends each SMS as one JSON line to a file: the development default.
///
/// Each line has `to`, `text`, `encoding` (`gsm7`/`ucs2`), `parts` (each with `text`, `udh` and
/// `user_data` in hex, `udl`), `locale`, `verification_id`, `delivery_token` (for reports) and
/// `sent_at` (ISO 8601). The file is
/// created with mode 0600 (it holds codes: it *is* the SMS) and opened with `O_APPEND`, and each
/// line is one `write(2)`, so lines from several processes never interleave.
///
/// ```swift
/// let sender = OutboxSender(path: "smskit-outbox.jsonl")
/// // {"encoding":"gsm7","locale":"en","parts":[...],"text":"Your Acme code is 042917.","to":"+16505550100",...}
/// ```
public struct OutboxSender: SMSSender {
    /// The file the lines are appended to.
    public let path: String

    /// A sender appending to `path` (created when missing).
    ///
    /// - Parameter path: The outbox file.
    public init(path: String) {
        self.path = path
    }

    private struct Line: Encodable {
        struct Part: Encodable {
            var text: String
            var udh: String
            var user_data: String
            var udl: Int
        }
        var to: String
        var text: String
        var encoding: String
        var parts: [Part]
        var locale: String
        var verification_id: String
        var delivery_token: String?
        var sent_at: String
    }

    /// What the outbox throws.
    public struct OutboxError: Error, Sendable, CustomStringConvertible {
        /// What happened.
        public let description: String
    }

    public func send(_ sms: OutgoingSMS) async throws {
        let line = Line(
            to: sms.to, text: sms.text, encoding: sms.encoding.rawValue,
            parts: sms.parts.map {
                Line.Part(text: $0.text, udh: VerificationSecret.hex($0.userDataHeader),
                          user_data: VerificationSecret.hex($0.userData), udl: $0.userDataLength)
            },
            locale: sms.locale, verification_id: sms.verificationID, delivery_token: sms.deliveryToken,
            sent_at: Date().formatted(.iso8601))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var bytes = Array(try encoder.encode(line))
        bytes.append(UInt8(ascii: "\n"))
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw OutboxError(description: "cannot open the outbox \(path): \(String(cString: strerror(errno)))")
        }
        defer { _ = close(fd) }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            throw OutboxError(description: "cannot append to the outbox \(path)")
        }
    }
}
