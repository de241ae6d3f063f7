import PhoneNumbers
import Testing

/// Agreement with the oracle (PyPI phonenumbers, same metadata version) on every row and field of
/// Fixtures/e164.tsv: strict E.164 input, possibility, validity, type and region.
@Suite struct E164FixtureTests {
    let engine = PhoneNumberEngine()

    @Test func everyRowAgreesWithTheOracle() throws {
        let fixture = try Fixture("e164.tsv")
        #expect(fixture.rows.count >= 50_000)
        var mismatches: [String] = []
        var fields = 0
        for row in fixture.rows {
            let input = row[0]
            var got: [String]
            do {
                let number = try engine.parse(e164: input)
                let (region, type) = engine.classify(number)
                got = ["", engine.formatE164(number), engine.possibility(of: number).rawValue,
                       engine.isValid(number) ? "true" : "false", type.rawValue, region?.identifier ?? ""]
            } catch {
                got = [error.code.name, "", "", "", "", ""]
            }
            let want = Array(row[1...6])
            fields += want.count
            if got != want, mismatches.count < 20 {
                mismatches.append("\(input): got \(got) want \(want)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    @Test func everyExampleNumberValidatesWithItsType() throws {
        let fixture = try Fixture("examples.tsv")
        #expect(fixture.rows.count > 1_000)
        var failures: [String] = []
        for row in fixture.rows {
            let (region, typeName, e164) = (RegionCode(row[0])!, row[1], row[2])
            let number = try engine.parse(e164: e164)
            let type = engine.type(of: number, in: region)
            let expected = PhoneNumberType(rawValue: typeName)!
            // Where fixed-line and mobile numbers share patterns (the US, for example), the example
            // of either is reported as fixed_line_or_mobile, as libphonenumber does.
            let agrees = type == expected
                || (type == .fixedLineOrMobile && (expected == .fixedLine || expected == .mobile))
            if !engine.isValid(number, for: region) || !agrees {
                failures.append("\(region) \(typeName) \(e164): type in region \(type)")
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(20).joined(separator: "\n"))")
    }
}
