import PhoneNumbers
import Testing

/// Agreement with the oracle (PyPI phonenumbers, same metadata version) on every row and field of
/// Fixtures/dialling.tsv (tools/oracle/gen_dialling_fixture.py): format_out_of_country_calling_number,
/// format_number_for_mobile_dialing with and without formatting, can_be_internationally_dialled.
@Suite struct DiallingFixtureTests {
    let engine = PhoneNumberEngine()

    @Test func everyRowAgreesWithTheOracle() throws {
        let fixture = try Fixture("dialling.tsv")
        #expect(fixture.header == ["cc", "nsn", "ext", "from", "out_of_country", "mobile", "mobile_digits", "can_dial"])
        #expect(fixture.rows.count >= 50_000)
        var mismatches: [String] = []
        var agreeing = 0
        var regionsFrom: Set<String> = []
        for row in fixture.rows {
            let nsn = row[1]
            var zeros = nsn.prefix(while: { $0 == "0" }).count
            if zeros == nsn.count { zeros -= 1 }
            let number = PhoneNumber(countryCode: Int(row[0])!, nationalNumber: UInt64(nsn.dropFirst(zeros))!,
                                     leadingZeros: zeros, extension: row[2].isEmpty ? nil : row[2])
            let from = RegionCode(row[3]) ?? .unknown
            regionsFrom.insert(row[3])
            let got = [
                engine.formatOutOfCountry(number, callingFrom: from),
                engine.formatForMobileDialing(number, callingFrom: from, withFormatting: true),
                engine.formatForMobileDialing(number, callingFrom: from, withFormatting: false),
                engine.canBeInternationallyDialled(number) ? "true" : "false",
            ]
            let want = Array(row[4...7])
            if got == want {
                agreeing += 1
            } else if mismatches.count < 30 {
                mismatches.append("+\(row[0]) \(row[1]) ext \(row[2]) from \(row[3]): got \(got) want \(want)")
            }
        }
        #expect(agreeing == fixture.rows.count, "\(fixture.rows.count - agreeing) rows differ:\n\(mismatches.joined(separator: "\n"))")
        #expect(regionsFrom.count >= 240)
    }

    @Test func documentationExamples() throws {
        let london = try engine.parse("+44 20 7031 3000", defaultRegion: nil)
        #expect(engine.formatOutOfCountry(london, callingFrom: "US") == "011 44 20 7031 3000")
        #expect(engine.formatOutOfCountry(london, callingFrom: "DE") == "00 44 20 7031 3000")
        #expect(engine.formatOutOfCountry(london, callingFrom: "GB") == "020 7031 3000")
        #expect(engine.formatForMobileDialing(london, callingFrom: "GB", withFormatting: true) == "020 7031 3000")
        #expect(engine.formatForMobileDialing(london, callingFrom: "US", withFormatting: false) == "+442070313000")
        #expect(!engine.canBeInternationallyDialled(try engine.parse("1800 123 456", defaultRegion: "AU")))
        #expect(engine.canBeInternationallyDialled(try engine.parse("+61 2 1234 5678", defaultRegion: nil)))
    }
}
