import PhoneNumberCarriers
import PhoneNumberTimeZones
import PhoneNumbers
import Testing

/// Unknown regions, languages and zones and numbers no parse gives: empty answers or nil, never
/// a trap.
@Suite struct BadInputTests {
    let engine = PhoneNumberEngine()

    static let strangeNumbers: [PhoneNumber] = [
        PhoneNumber(countryCode: 0, nationalNumber: 0),
        PhoneNumber(countryCode: -1, nationalNumber: 123),
        PhoneNumber(countryCode: Int.max, nationalNumber: UInt64.max, leadingZeros: 0),
        PhoneNumber(countryCode: 1, nationalNumber: UInt64.max),
        PhoneNumber(countryCode: 39, nationalNumber: 0, leadingZeros: 40),
        PhoneNumber(countryCode: 7, nationalNumber: 9_001_234_567, leadingZeros: Int.max),
        PhoneNumber(countryCode: 999, nationalNumber: 2_015_550_123),
        PhoneNumber(countryCode: 1000, nationalNumber: 2_015_550_123),
    ]

    @Test(arguments: strangeNumbers)
    func strangeNumbersHaveNoAnswers(_ number: PhoneNumber) {
        #expect(engine.timeZones(of: number).isEmpty)
        #expect(engine.carrierName(of: number, locale: .english) == nil)
        #expect(engine.safeCarrierName(of: number, locale: .english) == nil)
        #expect(engine.sendingDecision(for: number, at: UTCInstant(secondsSince1970: 0)) == .unknownTimeZone)
        _ = engine.geographicalTimeZones(of: number)  // any answer, no trap
        _ = engine.carrierName(ofValidNumber: number, locale: .english)
    }

    @Test(arguments: ["", "e", "english", "en-", "-en", "en__US", "en-US-US", "zh-Hant-Hant", "12", "en-1234",
                      "en-US-x", "é", "en\u{0}", String(repeating: "a", count: 10_000), "en-Latn-US-extra"])
    func malformedLocalesAreRefused(_ tag: String) {
        #expect(CarrierLocale(tag) == nil)
    }

    @Test(arguments: [("EN", "en"), ("zh-hant-tw", "zh_Hant_TW"), ("pt_br", "pt_BR"), ("es-419", "es_419"), ("kk", "kk")])
    func localesAreNormalized(_ tag: String, _ identifier: String) throws {
        #expect(try #require(CarrierLocale(tag)).identifier == identifier)
    }

    @Test func unknownLanguagesFallBackToEnglishButChineseJapaneseKoreanDoNot() throws {
        let number = try engine.parse(e164: "+40721234567")  // Vodafone Romania, English only
        #expect(engine.carrierName(of: number, locale: try #require(CarrierLocale("xx")))?.text == "Vodafone")
        #expect(engine.carrierName(of: number, locale: try #require(CarrierLocale("ja"))) == nil)
        #expect(engine.carrierName(of: number, locale: try #require(CarrierLocale("zh-TW"))) == nil)
    }

    @Test func regionsWithoutMetadataAreNotPortable() {
        #expect(!engine.isMobileNumberPortable(.unknown))
        #expect(!engine.isMobileNumberPortable(.nonGeographic))
        #expect(!engine.isMobileNumberPortable("QQ"))
        #expect(engine.isMobileNumberPortable("GB"))
    }

    @Test func unknownZonesAndWindows() {
        #expect(PhoneNumberTimeZone("Mars/Olympus_Mons") == nil)
        #expect(PhoneNumberTimeZone("") == nil)
        #expect(PhoneNumberTimeZone(String(repeating: "x", count: 100_000)) == nil)
        #expect(LocalTimeWindow(startMinute: 60, endMinute: 60) == nil)
        #expect(LocalTimeWindow(startMinute: -1, endMinute: 60) == nil)
        #expect(LocalTimeWindow(startMinute: 0, endMinute: 1440) == nil)
        #expect(LocalTimeWindow(startHour: 24, startMinute: 0, endHour: 1, endMinute: 0) == nil)
        #expect(LocalTimeWindow(startHour: 8, startMinute: 60, endHour: 9, endMinute: 0) == nil)
        #expect(engine.timeZones(forCountryCode: 0).isEmpty)
        #expect(engine.timeZones(forCountryCode: -44).isEmpty)
        #expect(engine.timeZones(forCountryCode: .max).isEmpty)
    }

    @Test func extremeInstantsGiveNoAnswerRatherThanATrap() throws {
        let zone = try #require(PhoneNumberTimeZone("Europe/Paris"))
        #expect(zone.utcOffset(at: UTCInstant(secondsSince1970: .max)) == nil)
        #expect(zone.utcOffset(at: UTCInstant(secondsSince1970: .min)) == nil)
        #expect(zone.sendingDecision(at: UTCInstant(secondsSince1970: .max)) == .unknownTimeZone)
        let number = try engine.parse(e164: "+33142685300")
        #expect(engine.sendingDecision(for: number, at: UTCInstant(secondsSince1970: .min)) == .unknownTimeZone)
    }
}
