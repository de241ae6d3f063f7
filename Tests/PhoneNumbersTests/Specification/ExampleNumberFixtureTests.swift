import PhoneNumbers
import Testing

/// Agreement with the oracle (PyPI phonenumbers, same metadata version) on every row of
/// Fixtures/example_numbers.tsv (tools/oracle/gen_example_fixture.py): example_number,
/// example_number_for_type and example_number_for_non_geo_entity.
@Suite struct ExampleNumberFixtureTests {
    let engine = PhoneNumberEngine()

    @Test func everyRowAgreesWithTheOracle() throws {
        let fixture = try Fixture("example_numbers.tsv")
        #expect(fixture.header == ["call", "key", "type", "e164"])
        #expect(fixture.rows.count >= 4_000)
        var mismatches: [String] = []
        var agreeing = 0
        var found = 0
        for row in fixture.rows {
            let number: PhoneNumber?
            switch row[0] {
            case "non_geo":
                number = engine.exampleNumber(forNonGeographicCallingCode: Int(row[1])!)
            case "default":
                number = RegionCode(row[1]).flatMap { engine.exampleNumber(for: $0) }
            default:
                let type = try #require(PhoneNumberType(rawValue: row[2]))
                number = RegionCode(row[1]).flatMap { engine.exampleNumber(for: $0, type: type) }
            }
            let got = number.map { engine.formatE164($0) } ?? ""
            if !got.isEmpty { found += 1 }
            if got == row[3] {
                agreeing += 1
            } else if mismatches.count < 30 {
                mismatches.append("\(row[0]) \(row[1]) \(row[2]): got \(got) want \(row[3])")
            }
        }
        #expect(agreeing == fixture.rows.count, "\(mismatches.joined(separator: "\n"))")
        #expect(found >= 1_500)
    }

    @Test func documentationExamples() {
        #expect(engine.exampleNumber(for: "GB").map { engine.formatE164($0) } == "+441212345678")
        #expect(engine.exampleNumber(for: "GB", type: .mobile).map { engine.formatE164($0) } == "+447400123456")
        #expect(engine.exampleNumber(forNonGeographicCallingCode: 800).map { engine.formatE164($0) } == "+80012345678")
        #expect(engine.exampleNumber(forNonGeographicCallingCode: 44) == nil)
        #expect(engine.exampleNumber(for: .nonGeographic) == nil)
    }
}
