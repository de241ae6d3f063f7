import PhoneNumberCarriers
import PhoneNumbers
import Testing

/// Every row of Fixtures/carriers.tsv (tools/oracle/gen_carrier_fixture.py): SMSKit's carrier
/// names (checked, unchecked, safe) and portability agree with the oracle's.
@Suite struct CarrierFixtureTests {
    let engine = PhoneNumberEngine()

    @Test func everyRowAgrees() throws {
        let fixture = try ExtrasFixture("carriers.tsv")
        #expect(fixture.rows.count > 50_000)
        var disagreements: [String] = []
        var agreed = 0
        for row in fixture.rows {
            if fixture.field(row, "kind") == "region" {
                let region = try #require(RegionCode(fixture.field(row, "locale")))
                let got = engine.isMobileNumberPortable(region) ? "true" : "false"
                if got == fixture.field(row, "portable") { agreed += 1 } else { disagreements.append("\(region): \(got)") }
                continue
            }
            let number = PhoneNumber(
                countryCode: try #require(Int(fixture.field(row, "cc"))),
                nationalNumber: try #require(UInt64(fixture.field(row, "national"))),
                leadingZeros: try #require(Int(fixture.field(row, "leading_zeros"))))
            let locale = try #require(CarrierLocale(fixture.field(row, "locale")))
            let name = engine.carrierName(of: number, locale: locale)?.text ?? ""
            let validName = engine.carrierName(ofValidNumber: number, locale: locale)?.text ?? ""
            let safeName = engine.safeCarrierName(of: number, locale: locale)?.text ?? ""
            let portable = engine.region(of: number).map { engine.isMobileNumberPortable($0) } ?? false
            if name == fixture.field(row, "name"), validName == fixture.field(row, "valid_name"),
               safeName == fixture.field(row, "safe_name"), (portable ? "true" : "false") == fixture.field(row, "portable") {
                agreed += 1
            } else {
                disagreements.append("\(row.joined(separator: "|")): got \(name)|\(validName)|\(safeName)|\(portable)")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) rows disagree, first: \(disagreements.prefix(10))")
        print("carriers.tsv: \(agreed) of \(fixture.rows.count) rows agree")
    }
}
