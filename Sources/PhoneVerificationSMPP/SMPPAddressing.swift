import SMSEncoding
import SMPPCodec

/// How the client fills `source_addr` and `destination_addr` with their TON and NPI, from the
/// recipient's E.164 number and the sender ID. SMSCs reject or rewrite a sender whose TON does not
/// match its form, so the choice is one testable function.
///
/// ```swift
/// try SMPPAddressing.source("Acme")          // TON 5 (alphanumeric), NPI 0
/// try SMPPAddressing.source("+447700900123") // TON 1 (international), NPI 1 (E.164), "447700900123"
/// try SMPPAddressing.source("12345")         // TON 3 (network specific: a short code), NPI 0
/// try SMPPAddressing.source("07700900123")   // TON 2 (national), NPI 1
/// try SMPPAddressing.destination("+905321234567") // TON 1, NPI 1, "905321234567"
/// ```
public enum SMPPAddressing {
    /// The longest short code: longer digit strings are subscriber numbers.
    public static let maximumShortCodeLength = 8

    /// The source address for a sender ID.
    ///
    /// - `+` and 1-15 digits: international, E.164 (TON 1, NPI 1), without the `+`;
    /// - digits starting with `0`, longer than a short code: national (TON 2, NPI 1);
    /// - up to ``maximumShortCodeLength`` digits: a short code (TON 3 network specific, NPI 0);
    /// - other digits (9-15): an international number written without `+` (TON 1, NPI 1);
    /// - anything else: alphanumeric (TON 5, NPI 0), at most 11 characters of the GSM default
    ///   alphabet in printable ASCII (an extension-table character such as `[` counts two).
    ///
    /// - Throws: ``SMPPError/Code/invalidConfiguration`` for an empty sender ID, a number over 15
    ///   digits, or an alphanumeric one that is too long or not in the GSM default alphabet.
    public static func source(_ senderID: String) throws(SMPPError) -> SMPPAddress {
        let utf8 = Array(senderID.utf8)
        func isDigits(_ bytes: ArraySlice<UInt8>) -> Bool {
            !bytes.isEmpty && bytes.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        }
        guard !utf8.isEmpty else { throw SMPPError(.invalidConfiguration, "the sender ID is empty") }
        if utf8.first == UInt8(ascii: "+"), isDigits(utf8.dropFirst()) {
            guard utf8.count <= 16 else {
                throw SMPPError(.invalidConfiguration, "the sender number has more than 15 digits")
            }
            return SMPPAddress(ton: 1, npi: 1, address: String(senderID.dropFirst()))
        }
        if isDigits(utf8[...]) {
            guard utf8.count <= 15 else {
                throw SMPPError(.invalidConfiguration, "the sender number has more than 15 digits")
            }
            if utf8.count <= maximumShortCodeLength { return SMPPAddress(ton: 3, npi: 0, address: senderID) }
            if utf8.first == UInt8(ascii: "0") { return SMPPAddress(ton: 2, npi: 1, address: senderID) }
            return SMPPAddress(ton: 1, npi: 1, address: senderID)
        }
        guard utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }),
              let septets = try? GSM7.encode(senderID), septets.count <= 11 else {
            throw SMPPError(.invalidConfiguration,
                "an alphanumeric sender ID is at most 11 characters of the GSM default alphabet (printable ASCII)")
        }
        return SMPPAddress(ton: 5, npi: 0, address: senderID)
    }

    /// The destination address for a recipient in E.164 (`+` and 1-15 digits): international
    /// (TON 1, NPI 1), without the `+`.
    ///
    /// - Throws: ``SMPPError/Code/unsupportedMessage`` when `e164` is not in E.164.
    public static func destination(_ e164: String) throws(SMPPError) -> SMPPAddress {
        let utf8 = Array(e164.utf8)
        guard utf8.count >= 2, utf8.count <= 16, utf8[0] == UInt8(ascii: "+"),
              utf8.dropFirst().allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            throw SMPPError(.unsupportedMessage, "the recipient is not in E.164 (+ and up to 15 digits)")
        }
        return SMPPAddress(ton: 1, npi: 1, address: String(e164.dropFirst()))
    }
}
