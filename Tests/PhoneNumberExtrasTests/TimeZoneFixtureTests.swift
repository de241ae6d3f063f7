import PhoneNumberTimeZones
import PhoneNumbers
import Testing

/// Every row of Fixtures/timezones.tsv (tools/oracle/gen_timezone_fixture.py): SMSKit's time
/// zones agree with the oracle's PhoneNumberToTimeZonesMapper on every field.
@Suite struct TimeZoneFixtureTests {
    let engine = PhoneNumberEngine()

    @Test func everyRowAgrees() throws {
        let fixture = try ExtrasFixture("timezones.tsv")
        #expect(fixture.rows.count > 10_000)
        var disagreements: [String] = []
        var agreed = 0
        for row in fixture.rows {
            let kind = fixture.field(row, "kind")
            let cc = try #require(Int(fixture.field(row, "cc")))
            if kind == "country" {
                let got = engine.timeZones(forCountryCode: cc).description
                if got == fixture.field(row, "time_zones") { agreed += 1 } else { disagreements.append("+\(cc): \(got)") }
                continue
            }
            let number = PhoneNumber(
                countryCode: cc, nationalNumber: try #require(UInt64(fixture.field(row, "national"))),
                leadingZeros: try #require(Int(fixture.field(row, "leading_zeros"))))
            let zones = engine.timeZones(of: number).description
            let geographical = engine.geographicalTimeZones(of: number).description
            if zones == fixture.field(row, "time_zones"), geographical == fixture.field(row, "geographical_time_zones") {
                agreed += 1
            } else {
                disagreements.append("\(row.joined(separator: " ")): got \(zones) / \(geographical)")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) rows disagree, first: \(disagreements.prefix(10))")
        print("timezones.tsv: \(agreed) of \(fixture.rows.count) rows agree")
    }
}
