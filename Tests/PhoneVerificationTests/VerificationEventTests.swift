import Foundation
import PhoneVerification
import Testing

@Suite struct VerificationEventTests {
    @Test func kindsHaveStableNames() {
        #expect(VerificationEvent.Kind.allCases.map(\.name) == [
            "started", "sent", "resent", "delivered", "delivery_failed", "approved", "incorrect_code",
            "max_attempts", "expired", "cancelled", "refused",
        ])
        for kind in VerificationEvent.Kind.allCases { #expect(VerificationEvent.Kind(name: kind.name) == kind) }
        #expect(VerificationEvent.Kind(name: "STARTED") == nil)
    }

    @Test func idIsVerificationAndSequence() {
        let event = VerificationEvent(verificationID: "AAAAAAAAAAAAAAAAAAAAAA", sequence: 3, cursor: 17,
                                      kind: .approved, time: Date(timeIntervalSince1970: 1_800_000_000), details: .init())
        #expect(event.id == "AAAAAAAAAAAAAAAAAAAAAA.3")
    }

    @Test func jsonRoundTripsWithSnakeCaseAndOnlyPresentDetails() throws {
        let error = VerificationError(.rangeBlocked, "the number range of +447700900123 is blocked",
                                      retryAfter: Date(timeIntervalSince1970: 1_800_000_600.5))
        let event = VerificationEvent(
            verificationID: "abc_DEF-0123456789abcd", sequence: 1, cursor: 42, kind: .refused,
            time: Date(timeIntervalSince1970: 1_800_000_000.123),
            details: .init(refusal: error, maskedNumber: VerificationEvent.mask("+447700900123")))
        let json = String(decoding: event.jsonBytes(), as: UTF8.self)
        #expect(json == #"{"cursor":42,"id":"abc_DEF-0123456789abcd.1","kind":"refused","masked_number":"+**********23","#
            + #""reason":"range_blocked","retry_at":"2027-01-15T08:10:00.500Z","sequence":1,"#
            + #""time":"2027-01-15T08:00:00.123Z","verification_id":"abc_DEF-0123456789abcd"}"#)
        // The refusal's message, which names the number, is not in the event.
        #expect(!json.contains("7700900"))
        let decoded = try JSONDecoder().decode(VerificationEvent.self, from: Data(json.utf8))
        #expect(decoded == event)
    }

    @Test func decodingRefusesAnIDThatDisagrees() {
        let json = #"{"cursor":1,"id":"x.2","kind":"sent","sequence":1,"time":"2027-01-15T08:00:00.000Z","verification_id":"x"}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(VerificationEvent.self, from: Data(json.utf8)) }
        let unknown = #"{"sequence":1,"kind":"teleported","time":"2027-01-15T08:00:00.000Z","verification_id":"x"}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(VerificationEvent.self, from: Data(unknown.utf8)) }
    }

    @Test(arguments: [("+447700900123", "+**********23"), ("+16502530000", "+*********00"), ("+1", "+1"), ("", "")])
    func maskKeepsTheLastDigits(number: String, masked: String) {
        #expect(VerificationEvent.mask(number) == masked)
    }
}
