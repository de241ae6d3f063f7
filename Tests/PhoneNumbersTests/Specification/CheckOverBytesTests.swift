import PhoneNumbers
import Testing

/// `check(utf8:defaultRegion:)`, the check over bytes that record readers (`smskit validate`)
/// call, says exactly what `check(_:defaultRegion:)` says of the same text, for every input of
/// the parse fixture.
@Suite struct RecordCheckTests {
    let engine = PhoneNumberEngine()

    @Test func checkOverBytesEqualsCheckOfText() throws {
        let fixture = try Fixture("parse.tsv")
        var compared = 0
        for row in fixture.rows {
            let region = row[1] == "ZZ" ? nil : RegionCode(row[1])
            let expected = engine.check(row[0], defaultRegion: region)
            var text = row[0]
            let record = text.withUTF8 { engine.check(utf8: $0, defaultRegion: region) }
            #expect(record == expected, "\(row[0])")
            #expect(record.e164 == expected.e164, "\(row[0])")
            compared += 1
        }
        #expect(compared > 100_000)
    }
}
