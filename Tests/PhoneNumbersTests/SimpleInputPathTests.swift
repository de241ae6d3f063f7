import PhoneNumbers
import SMSKitTestSupport
import Testing

/// The fast path for ASCII digits with plain separators must give exactly what libphonenumber's
/// whole algorithm gives: the same number or the same error code, for every input of its shape.
@Suite struct SimpleInputPathTests {
    let engine = PhoneNumberEngine()

    @Test func fastPathAgreesWithTheWholeAlgorithm() {
        var random = SplitMix64(seed: 0x5EED_0F_5A17)
        let regions: [RegionCode?] = [nil, "US", "GB", "DE", "FR", "IT", "AR", "BR", "MX", "RU", "KZ", "IN", "CN", "JP",
                                      "AU", "NZ", "SG", "TR", "EG", "NG", "CA", "GG", "VA", "001"]
        // Mostly digits; separators and '+' often enough to meet every case (runs of '+', '+' after
        // a separator or a digit, leading and trailing separators).
        let alphabet = Array("0123456789012345678901234567890123456789 -.()/+ -+".utf8)
        var simple = 0
        var numbers = 0
        var differences: [String] = []
        for _ in 0..<60_000 {
            let length = 1 + random.below(22)
            var bytes: [UInt8] = []
            // Real prefixes now and then, so that country codes, IDDs and trunk prefixes are met.
            switch random.below(6) {
            case 0: bytes += Array("+".utf8)
            case 1: bytes += Array("00".utf8)
            case 2: bytes += Array("011".utf8)
            case 3: bytes += Array("0".utf8)
            default: break
            }
            for _ in 0..<length { bytes.append(alphabet[random.below(alphabet.count)]) }
            let region = regions[random.below(regions.count)]
            let (fast, whole) = bytes.withUnsafeBufferPointer { engine._parseBothWays(utf8: $0, defaultRegion: region) }
            let text = String(decoding: bytes, as: UTF8.self)
            switch (fast, whole) {
            case (.success(nil), _):
                continue  // not the simple shape: only the whole algorithm runs
            case (.success(let a?), .success(let b)):
                simple += 1
                numbers += 1
                if a != b { differences.append("\(text) \(region?.identifier ?? "-"): \(a) vs \(b)") }
            case (.failure(let a), .failure(let b)):
                simple += 1
                if a.code != b.code { differences.append("\(text) \(region?.identifier ?? "-"): \(a.code) vs \(b.code)") }
            default:
                simple += 1
                differences.append("\(text) \(region?.identifier ?? "-"): \(fast) vs \(whole)")
            }
        }
        #expect(differences.count == 0, "first differences: \(differences.prefix(10))")
        // The generator must exercise the fast path a lot, both parses and errors.
        #expect(simple > 30_000)
        #expect(numbers > 10_000)
    }
}
