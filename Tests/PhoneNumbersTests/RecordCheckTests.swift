import PhoneNumbers
import Testing

/// The byte-level check the CLI uses (`_checkRecord`, package access) says exactly what the public
/// `check(_:defaultRegion:)` says, for every input of the parse fixture.
@Suite struct RecordCheckTests {
    let engine = PhoneNumberEngine()

    @Test func recordCheckEqualsPublicCheck() throws {
        let fixture = try Fixture("parse.tsv")
        var compared = 0
        for row in fixture.rows {
            let region = row[1] == "ZZ" ? nil : RegionCode(row[1])
            let expected = engine.check(row[0], defaultRegion: region)
            var text = row[0]
            let record = text.withUTF8 { engine._checkRecord(utf8: $0, defaultRegion: region) }
            #expect(record.number == expected.number, "\(row[0])")
            #expect(record.error == expected.error?.code, "\(row[0])")
            if expected.number != nil {
                #expect(record.possibility == expected.possibility, "\(row[0])")
            }
            #expect(record.type == expected.type && record.isValid == expected.isValid, "\(row[0])")
            #expect(record.region == expected.region, "\(row[0])")
            #expect(record.fictional == expected.fictional, "\(row[0])")
            let e164 = record.withE164 { $0.isEmpty ? nil : String(decoding: $0, as: UTF8.self) }
            #expect(e164 == expected.e164, "\(row[0])")
            if let region = expected.region {
                var identifier = ""
                region.withIdentifierBytes { identifier = String(decoding: $0, as: UTF8.self) }
                #expect(identifier == region.identifier)
            }
            compared += 1
        }
        #expect(compared > 100_000)
    }
}
