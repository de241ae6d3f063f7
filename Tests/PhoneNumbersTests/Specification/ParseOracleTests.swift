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
        var inlineE164 = (checked: 0, long: 0, mismatches: [String]())
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
                // The inline E.164 text is formatE164's, for the 16- to 21-byte ones too.
                let text = number.e164
                inlineE164.checked += 1
                if text?.count ?? 0 > 15 { inlineE164.long += 1 }
                if text?.description != got[1] || text?.count != got[1].utf8.count {
                    inlineE164.mismatches.append("\(input.debugDescription): \(String(describing: text)) vs \(got[1])")
                }
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
        #expect(inlineE164.checked > 90_000 && inlineE164.long > 500)
        #expect(inlineE164.mismatches.isEmpty, "\(inlineE164.mismatches.prefix(20).joined(separator: "\n"))")
    }
}
