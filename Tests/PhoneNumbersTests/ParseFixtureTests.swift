import PhoneNumbers
import Testing

/// Agreement with the oracle on every row of Fixtures/parse.tsv: free-form input with a default
/// region; error code or E.164, possibility, validity, type, region and extension.
@Suite struct ParseFixtureTests {
    let engine = PhoneNumberEngine()

    @Test func everyRowAgreesWithTheOracle() throws {
        let fixture = try Fixture("parse.tsv")
        #expect(fixture.rows.count >= 100_000)
        let names = ["error", "e164", "possible", "valid", "type", "number_region", "extension"]
        let columns = names.map(fixture.column)
        var mismatchesByField = [String: Int]()
        var examples: [String] = []
        for row in fixture.rows {
            let input = row[0]
            let region = row[1] == "ZZ" ? nil : RegionCode(row[1])
            var got: [String]
            do {
                let number = try engine.parse(input, defaultRegion: region)
                let (numberRegion, type) = engine.classify(number)
                got = ["", engine.formatE164(number), engine.possibility(of: number).rawValue,
                       engine.isValid(number) ? "true" : "false", type.rawValue,
                       numberRegion?.identifier ?? "", number.extension ?? ""]
            } catch {
                got = [error.code.name, "", "", "", "", "", ""]
            }
            let want = columns.map { row[$0] }
            if got != want {
                for (i, name) in names.enumerated() where got[i] != want[i] { mismatchesByField[name, default: 0] += 1 }
                if examples.count < 25 { examples.append("\(input.debugDescription) [\(row[1])]: got \(got) want \(want)") }
            }
        }
        #expect(mismatchesByField.isEmpty, "\(mismatchesByField)\n\(examples.joined(separator: "\n"))")
    }
}
