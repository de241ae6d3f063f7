import PhoneNumberTimeZones
import PhoneNumbers
import Testing

/// Sending windows across daylight-saving transitions, 30-minute offsets and numbers with several
/// zones. Expected instants are worked out by hand from the 2026 rules (and checked against
/// Python's zoneinfo): they do not come from the code under test.
@Suite struct SendingWindowTests {
    let engine = PhoneNumberEngine()

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let e164: String
        let at: Int64
        let window: LocalTimeWindow
        let expected: SendingDecision
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        // New Jersey (America/New_York). DST starts Sun 2026-03-08 02:00 EST -> 03:00 EDT.
        Case(name: "US spring forward: 01:30 EST waits for 08:00 EDT (12:00Z, not 13:00Z)", e164: "+12015550123",
             at: 1_772_951_400, window: .daytime, expected: .notBefore(UTCInstant(secondsSince1970: 1_772_971_200))),
        Case(name: "US spring forward: 08:00 EDT is allowed", e164: "+12015550123",
             at: 1_772_971_200, window: .daytime, expected: .allowed),
        Case(name: "US spring forward: a 02:30 start skipped by the gap opens at 03:00 EDT (07:00Z)", e164: "+12015550123",
             at: 1_772_949_600, window: LocalTimeWindow(startHour: 2, startMinute: 30, endHour: 21, endMinute: 0)!,
             expected: .notBefore(UTCInstant(secondsSince1970: 1_772_953_200))),
        // DST ends Sun 2026-11-01 02:00 EDT -> 01:00 EST.
        Case(name: "US fall back: 01:00 EDT waits for 08:00 EST (13:00Z)", e164: "+12015550123",
             at: 1_793_509_200, window: .daytime, expected: .notBefore(UTCInstant(secondsSince1970: 1_793_538_000))),
        Case(name: "US fall back: 20:59 EST is allowed, 21:00 EST is not", e164: "+12015550123",
             at: 1_793_538_000 + 12 * 3600 + 59 * 60, window: .daytime, expected: .allowed),
        Case(name: "US: 21:00 is the end of the window", e164: "+12015550123",
             at: 1_793_538_000 + 13 * 3600, window: .daytime,
             expected: .notBefore(UTCInstant(secondsSince1970: 1_793_538_000 + 86_400))),
        // Sydney (Australia/Sydney). DST ends Sun 2026-04-05 03:00 AEDT -> 02:00 AEST.
        Case(name: "Sydney DST end: 01:00 AEDT waits for 08:00 AEST (22:00Z)", e164: "+61293744000",
             at: 1_775_311_200, window: .daytime, expected: .notBefore(UTCInstant(secondsSince1970: 1_775_340_000))),
        // DST starts Sun 2026-10-04 02:00 AEST -> 03:00 AEDT.
        Case(name: "Sydney DST start: 01:00 AEST waits for 08:00 AEDT (21:00Z)", e164: "+61293744000",
             at: 1_791_039_600, window: .daytime, expected: .notBefore(UTCInstant(secondsSince1970: 1_791_061_200))),
        // Delhi (Asia/Calcutta, UTC+05:30).
        Case(name: "India +05:30: 07:30 IST waits for 08:00 IST (02:30Z)", e164: "+911123012345",
             at: 1_780_279_200, window: .daytime, expected: .notBefore(UTCInstant(secondsSince1970: 1_780_281_000))),
        Case(name: "India +05:30: 08:00 IST is allowed", e164: "+911123012345",
             at: 1_780_281_000, window: .daytime, expected: .allowed),
        // Adelaide and Perth share +61 8: Adelaide is UTC+10:30 in January, Perth UTC+8.
        Case(name: "+61 8 (Adelaide +10:30 and Perth +8): the later opening, Perth's 08:00 (00:00Z)", e164: "+61881234567",
             at: 1_767_225_600 - 3600, window: .daytime, expected: .notBefore(UTCInstant(secondsSince1970: 1_767_225_600))),
        // A +7 mobile number has every zone of +7, from Bucharest (UTC+2) to Kamchatka (UTC+12):
        // in January all of them are inside 08:00-21:00 only from 06:00Z to 09:00Z.
        Case(name: "+7 mobile, 16 zones: 10:00Z waits for 06:00Z next day", e164: "+79123456789",
             at: 1_768_471_200, window: .daytime, expected: .notBefore(UTCInstant(secondsSince1970: 1_768_543_200))),
        Case(name: "+7 mobile, 16 zones: 07:00Z is allowed everywhere", e164: "+79123456789",
             at: 1_768_543_200 + 3600, window: .daytime, expected: .allowed),
        // A +1 toll-free number has every zone of +1, Pago Pago (UTC-11) to Guam (UTC+10): 21 hours
        // apart, which is 3 hours the other way round the clock. Guam opens last (22:00Z) and
        // St John's (UTC-03:30) closes first (00:30Z).
        Case(name: "+1 toll free, 42 zones: 10:00Z waits for Guam's 08:00 (22:00Z)", e164: "+18005550123",
             at: 1_768_471_200, window: .daytime, expected: .notBefore(UTCInstant(secondsSince1970: 1_768_514_400))),
        Case(name: "+1 toll free, 42 zones: 00:29:59Z is allowed", e164: "+18005550123",
             at: 1_768_523_399, window: .daytime, expected: .allowed),
        Case(name: "+1 toll free, 42 zones: 00:30Z is St John's 21:00", e164: "+18005550123",
             at: 1_768_523_400, window: .daytime, expected: .notBefore(UTCInstant(secondsSince1970: 1_768_514_400 + 86_400))),
        // With a one-hour window, Bucharest (06:00Z-07:00Z) and Kamchatka (20:00Z-21:00Z) never meet.
        Case(name: "+7 mobile with a one-hour window: no common window", e164: "+79123456789",
             at: 1_768_471_200, window: LocalTimeWindow(startHour: 8, startMinute: 0, endHour: 9, endMinute: 0)!,
             expected: .noCommonWindow),
        Case(name: "An invalid number has no time zone", e164: "+1201555012",
             at: 1_768_471_200, window: .daytime, expected: .unknownTimeZone),
        // A window over midnight, 22:00 to 06:00, in New York at 23:00 EST.
        Case(name: "A window over midnight", e164: "+12015550123",
             at: 1_768_536_000, window: LocalTimeWindow(startHour: 22, startMinute: 0, endHour: 6, endMinute: 0)!,
             expected: .allowed),
    ]

    @Test(arguments: cases)
    func decision(_ c: Case) throws {
        let number = try engine.parse(e164: c.e164)
        let decision = engine.sendingDecision(for: number, at: UTCInstant(secondsSince1970: c.at), window: c.window)
        #expect(decision == c.expected, "\(decision)")
        // When it says wait, the instant it names is allowed, and a second before it is not.
        if case .notBefore(let instant) = decision {
            #expect(engine.sendingDecision(for: number, at: instant, window: c.window) == .allowed)
            let before = UTCInstant(secondsSince1970: instant.secondsSince1970 - 1)
            #expect(engine.sendingDecision(for: number, at: before, window: c.window) != .allowed)
        }
    }

    struct OffsetCase: Sendable, CustomTestStringConvertible {
        let zone: String
        let at: Int64
        let offset: Int
        let local: String
        var testDescription: String { "\(zone) at \(at)" }
    }

    @Test(arguments: [
        OffsetCase(zone: "America/New_York", at: 1_772_953_199, offset: -5 * 3600, local: "2026-03-08T01:59:59-05:00"),
        OffsetCase(zone: "America/New_York", at: 1_772_953_200, offset: -4 * 3600, local: "2026-03-08T03:00:00-04:00"),
        OffsetCase(zone: "Australia/Sydney", at: 1_775_311_200, offset: 11 * 3600, local: "2026-04-05T01:00:00+11:00"),
        OffsetCase(zone: "Australia/Sydney", at: 1_775_340_000, offset: 10 * 3600, local: "2026-04-05T08:00:00+10:00"),
        OffsetCase(zone: "Asia/Calcutta", at: 1_780_281_000, offset: 19_800, local: "2026-06-01T08:00:00+05:30"),
        OffsetCase(zone: "Australia/Adelaide", at: 1_767_225_600, offset: 37_800, local: "2026-01-01T10:30:00+10:30"),
        OffsetCase(zone: "Asia/Katmandu", at: 1_767_225_600, offset: 20_700, local: "2026-01-01T05:45:00+05:45"),
    ])
    func offsets(_ c: OffsetCase) throws {
        let zone = try #require(PhoneNumberTimeZone(c.zone))
        #expect(zone.utcOffset(at: UTCInstant(secondsSince1970: c.at)) == c.offset)
        #expect(zone.localTime(at: UTCInstant(secondsSince1970: c.at)) == c.local)
    }

    @Test func transitions() throws {
        let newYork = try #require(PhoneNumberTimeZone("America/New_York"))
        // From 2026-01-01: spring forward at 2026-03-08T07:00Z, then fall back at 2026-11-01T06:00Z.
        let spring = try #require(newYork.nextTransition(after: UTCInstant(secondsSince1970: 1_767_225_600)))
        #expect(spring == UTCInstant(secondsSince1970: 1_772_953_200))
        #expect(newYork.nextTransition(after: spring) == UTCInstant(secondsSince1970: 1_793_512_800))
        // India has kept +05:30 since 1945.
        let india = try #require(PhoneNumberTimeZone("Asia/Calcutta"))
        #expect(india.nextTransition(after: UTCInstant(secondsSince1970: 1_767_225_600)) == nil)
    }

    /// Every zone libphonenumber's data names is one the system ICU knows (or the sending window
    /// answers unknownTimeZone for its numbers), except America/Ciudad_Juarez, which the tz
    /// database added in 2022g, after Debian 12's ICU 72 (2022e).
    @Test func everyDataZoneIsKnownToICU() {
        let unknown = PhoneNumberTimeZone.all.filter { $0.utcOffset(at: UTCInstant(secondsSince1970: 1_767_225_600)) == nil }
        let version = PhoneNumberTimeZone.tzDataVersion
        let expected = version < "2022g" ? ["America/Ciudad_Juarez"] : []
        #expect(unknown.map(\.identifier) == expected, "ICU's tz \(version) lacks \(unknown)")
        #expect(PhoneNumberTimeZone.all.count > 250)
        #expect(!PhoneNumberTimeZone.tzDataVersion.isEmpty)
    }

    @Test func instantDescriptions() {
        #expect(UTCInstant(secondsSince1970: 0).description == "1970-01-01T00:00:00Z")
        #expect(UTCInstant(secondsSince1970: 1_772_971_200).description == "2026-03-08T12:00:00Z")
        #expect(UTCInstant(secondsSince1970: 951_782_400).description == "2000-02-29T00:00:00Z")
        #expect(UTCInstant(secondsSince1970: -1).description == "1969-12-31T23:59:59Z")
        #expect(LocalTimeWindow.daytime.description == "08:00-21:00")
    }
}
