import Foundation

/// The text of an SMPP delivery receipt (SMPP 3.4 appendix B):
/// `id:IIII sub:SSS dlvrd:DDD submit date:YYMMDDhhmm done date:YYMMDDhhmm stat:DDDDDDD err:E text:...`,
/// as an SMS centre writes it in a `deliver_sm`, and as gateways pass it on (Kannel's `%A`).
///
/// Every field is optional and read by its label, case-insensitive, in any order; unknown words
/// are ignored, so a receipt from a centre that adds fields still reads. Reading never throws: what
/// a field does not hold in a known form is `nil`.
///
/// ```swift
/// let receipt = DeliveryReceipt(text: "id:1000 sub:001 dlvrd:001 submit date:2611280910 done date:2611280911 stat:DELIVRD err:000 text:Kod")
/// receipt.messageID   // "1000"
/// receipt.state       // .delivered
/// receipt.doneAt      // 2026-11-28 09:11 UTC
/// ```
public struct DeliveryReceipt: Sendable, Hashable {
    /// `id:`, the SMS centre's message ID as written (decimal or hex: see ``DeliveryReport/providerIDForms(_:)``).
    public var messageID: String?
    /// `stat:`, as written.
    public var stat: String?
    /// `sub:`, the number of messages submitted.
    public var submitted: Int?
    /// `dlvrd:`, the number delivered.
    public var delivered: Int?
    /// `submit date:` (YYMMDDhhmm[ss]), as written.
    public var submitDate: String?
    /// `done date:` (YYMMDDhhmm[ss]), as written.
    public var doneDate: String?
    /// `err:`, the network or SMS centre error, as written.
    public var error: String?
    /// `text:`, the first characters of the message, as written.
    public var text: String?

    /// The longest receipt text read (SMPP's `short_message` holds at most 254 octets).
    public static let maximumLength = 254

    /// Reads a receipt's text; octets outside printable ASCII end it, and only its first
    /// ``maximumLength`` octets are read.
    public init(text: some StringProtocol) {
        self.init(bytes: Array(text.utf8.prefix(Self.maximumLength)))
    }

    /// Reads a receipt from the octets of a `short_message`.
    public init(bytes: [UInt8]) {
        let fields = Self.fields(of: bytes)
        messageID = fields["id"].flatMap { $0.isEmpty ? nil : $0 }
        stat = fields["stat"]
        submitted = fields["sub"].flatMap { Int($0) }
        delivered = fields["dlvrd"].flatMap { Int($0) }
        submitDate = fields["submit date"]
        doneDate = fields["done date"]
        error = fields["err"].flatMap { $0.isEmpty ? nil : $0 }
        text = fields["text"]
    }

    /// The delivery state `stat:` names, or `nil` when it names none this library knows.
    public var state: DeliveryState? { stat.flatMap(Self.state(stat:)) }

    /// When the part reached its state, from `done date:` read as UTC, or `nil` when absent or not a date.
    public var doneAt: Date? { doneDate.flatMap(Self.date) }

    /// Whether the error code says "no error" (absent, or all zeros).
    public var hasError: Bool {
        guard let error else { return false }
        return !error.utf8.allSatisfy { $0 == UInt8(ascii: "0") }
    }

    /// The delivery state of a receipt's `stat:` word (`DELIVRD`, `EXPIRED`, `DELETED`, `UNDELIV`,
    /// `ACCEPTD`, `UNKNOWN`, `REJECTD`, `ENROUTE`, and the long spellings some centres use), case-insensitive.
    public static func state(stat: String) -> DeliveryState? {
        switch stat.uppercased() {
        case "DELIVRD", "DELIVERED": return .delivered
        case "EXPIRED": return .expired
        case "DELETED", "UNDELIV", "UNDELIVERABLE", "REJECTD", "REJECTED": return .failed
        case "ACCEPTD", "ACCEPTED", "ENROUTE", "SCHEDULED": return .accepted
        case "UNKNOWN": return .unknown
        default: return nil
        }
    }

    /// A receipt date, `YYMMDDhhmm` or `YYMMDDhhmmss`, read as UTC in 2000-2099; `nil` when it is
    /// not one (a month 13, a 31 February, letters).
    public static func date(_ text: String) -> Date? {
        let digits = Array(text.utf8)
        guard digits.count == 10 || digits.count == 12,
              digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        func number(_ at: Int) -> Int { Int(digits[at] - UInt8(ascii: "0")) * 10 + Int(digits[at + 1] - UInt8(ascii: "0")) }
        var components = DateComponents()
        components.calendar = Calendar(identifier: .gregorian)
        components.timeZone = TimeZone(identifier: "UTC")
        components.year = 2000 + number(0)
        components.month = number(2)
        components.day = number(4)
        components.hour = number(6)
        components.minute = number(8)
        components.second = digits.count == 12 ? number(10) : 0
        guard components.isValidDate, let date = components.date else { return nil }
        return date
    }

    /// Reads the fields by label, case-insensitive; each value runs to the next space except `text:`,
    /// which runs to the end. Octets outside printable ASCII end the text.
    package static func fields(of bytes: some Collection<UInt8>) -> [String: String] {
        let printable = bytes.prefix(while: { $0 >= 0x20 && $0 < 0x7F })
        let text = String(decoding: printable, as: UTF8.self)
        let lower = text.lowercased()
        var fields: [String: String] = [:]
        // Longer labels first, so that "submit date:" is not read as "date:".
        for label in ["submit date", "done date", "id", "sub", "dlvrd", "stat", "err", "text"] {
            var searchStart = lower.startIndex
            while let range = lower.range(of: label + ":", range: searchStart..<lower.endIndex) {
                // A label starts the text or follows a space.
                if range.lowerBound == lower.startIndex || lower[lower.index(before: range.lowerBound)] == " " {
                    let valueStart = range.upperBound
                    let valueEnd = label == "text" ? text.endIndex : (text[valueStart...].firstIndex(of: " ") ?? text.endIndex)
                    fields[label] = String(text[valueStart..<valueEnd])
                    break
                }
                searchStart = range.upperBound
            }
        }
        return fields
    }
}
