import PhoneNumbers
import Testing

/// `check` reports an input that is not a valid number but a short or emergency number of the
/// default region (`PhoneNumberCheck.shortNumber`); answers from the oracle's ShortNumberInfo.
@Suite struct ShortNumberCheckTests {
    let engine = PhoneNumberEngine()

    struct Case: Sendable, CustomStringConvertible {
        let text: String
        let region: RegionCode?
        let short: ShortNumberInfo?
        var description: String { "\(text) in \(region?.identifier ?? "none")" }
    }

    static func info(_ region: RegionCode, valid: Bool = true, _ cost: ShortNumberCost, emergency: Bool = false,
                     carrier: Bool = false, sms: Bool = false) -> ShortNumberInfo {
        ShortNumberInfo(region: region, isValid: valid, cost: cost, isEmergency: emergency, isCarrierSpecific: carrier,
                        isSMSService: sms)
    }

    static let cases: [Case] = [
        Case(text: "911", region: "US", short: info("US", .tollFree, emergency: true)),
        Case(text: "9-1-1", region: "US", short: info("US", .tollFree, emergency: true)),
        // Given with its calling code: the oracle's ShortNumberInfo for the number's region, but a
        // plus sign never reaches an emergency service.
        Case(text: "+1 911", region: "US", short: info("US", .tollFree)),
        Case(text: "tel:+1-911", region: "US", short: info("US", .tollFree)),
        Case(text: "+91 1171627", region: "IN", short: info("IN", .premiumRate, carrier: true)),
        Case(text: "+911171627", region: "IN", short: info("IN", .premiumRate, carrier: true)),
        Case(text: "+91 1171627", region: "US", short: info("IN", .premiumRate, carrier: true)),
        Case(text: "+44 999", region: "US", short: info("GB", .tollFree)),
        Case(text: "+44 9990", region: "GB", short: nil),
        Case(text: "24280", region: "US", short: info("US", .premiumRate, sms: true)),
        Case(text: "33669", region: "US", short: info("US", .unknownCost, carrier: true, sms: true)),
        Case(text: "112", region: "DE", short: info("DE", .tollFree, emergency: true)),
        Case(text: "000", region: "AU", short: info("AU", .tollFree, emergency: true)),
        Case(text: "(650) 253-0000", region: "US", short: nil),  // valid: no short-number facts
        Case(text: "+1 201 555 012", region: "US", short: nil),  // invalid, not short
        Case(text: "911", region: nil, short: nil),
        Case(text: "hello", region: "US", short: nil),
    ]

    @Test(arguments: cases)
    func checkReportsShortNumbers(_ c: Case) {
        let check = engine.check(c.text, defaultRegion: c.region)
        #expect(check.shortNumber == c.short)
        var text = c.text
        let bytes = text.withUTF8 { engine.check(utf8: $0, defaultRegion: c.region) }
        #expect(bytes == check)
        #expect(engine.checkBatch([PhoneNumberInput(c.text, defaultRegion: c.region)]) == [check])
    }
}
