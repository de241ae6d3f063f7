import PhoneNumbers
import SMSKitTestSupport
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

    /// The writer the CLI calls with a number's fields: Italian leading zeros kept, and nothing
    /// written for hand-made numbers longer than E.164 allows (never a clipped number).
    @Test func e164WriterFromFields() {
        func write(_ code: Int, _ value: UInt64, _ zeros: Int) -> String {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: _RecordCheck.e164Capacity) { out in
                let n = _RecordCheck._writeE164(countryCode: code, nationalNumber: value, leadingZeros: zeros, to: out.baseAddress!)
                return String(decoding: UnsafeBufferPointer(rebasing: out[0..<n]), as: UTF8.self)
            }
        }
        #expect(write(1, 6_502_530_000, 0) == "+16502530000")
        #expect(write(39, 612_345_678, 1) == "+390612345678")
        #expect(write(225, 7_123_456, 2) == "+225007123456")
        #expect(write(800, 12_345_678_901_234_567, 0) == "+80012345678901234567")  // 21 bytes
        #expect(write(800, 123_456_789_012_345_678, 0) == "")                     // 18 digits
        #expect(write(39, 612_345_678, 40) == "")
    }

    /// The writer the CLI calls with a number's packed digits writes what the one from its fields
    /// writes, for numbers with and without the digits (17 digits, odd fields).
    @Test func e164WriterFromPackedDigits() {
        func write(_ number: PhoneNumber, packed: Bool) -> String {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: _RecordCheck.e164Capacity) { out in
                let n = packed
                    ? _RecordCheck._writeE164(countryCode: number.countryCode, nationalDigits: number._packedNationalDigits,
                                              longValue: number._longFields.value, longZeros: number._longFields.zeros,
                                              to: out.baseAddress!)
                    : _RecordCheck._writeE164(countryCode: number.countryCode, nationalNumber: number.nationalNumber,
                                              leadingZeros: number.leadingZeros, to: out.baseAddress!)
                return String(decoding: UnsafeBufferPointer(rebasing: out[0..<n]), as: UTF8.self)
            }
        }
        var random = SplitMix64(seed: 0x3C0D)
        for _ in 0..<50_000 {
            var value: UInt64 = 0
            for _ in 0..<(1 + random.below(17)) { value = value &* 10 &+ UInt64(random.below(10)) }
            let number = PhoneNumber(countryCode: 1 + random.below(999), nationalNumber: value, leadingZeros: random.below(3))
            #expect(write(number, packed: true) == write(number, packed: false))
        }
        #expect(write(PhoneNumber(countryCode: 39, nationalNumber: 612_345_678, leadingZeros: 1), packed: true) == "+390612345678")
    }
}
