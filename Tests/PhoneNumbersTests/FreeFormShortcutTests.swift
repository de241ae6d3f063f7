@testable import PhoneNumbers
import SMSKitTestSupport
import Testing

/// The free-form parse skips searches and passes whose trigger characters the input lacks
/// (``_InputFlags``): it must give exactly what the whole algorithm gives without the shortcuts.
@Suite struct FreeFormShortcutTests {
    let engine = PhoneNumberEngine()

    /// The flag table is the rules it tabulates.
    @Test func inputFlagTableMatchesTheRules() {
        let table = _InputFlags.asciiTable
        #expect(table.utf8CodeUnitCount == 128)
        for byte in 0..<128 {
            #expect(table.utf8Start[byte] == 0x40 | _InputFlags.of(ascii: UInt8(byte)).rawValue, "0x\(String(byte, radix: 16))")
        }
    }

    /// Random free-form input: numbers with letters, extensions of every label, RFC 3966
    /// parameters, second numbers, line feeds and now and then a character that is not ASCII.
    @Test func shortcutsAgreeWithTheWholeAlgorithm() {
        var random = SplitMix64(seed: 0x5EED_F4EE_F0)
        let regions: [RegionCode?] = [nil, "US", "GB", "DE", "FR", "IT", "AR", "BR", "MX", "RU", "IN", "JP", "AU",
                                      "SG", "CA", "LB", "AM", "SM", "001"]
        let leading = ["", "", "", "", "Tel: ", "tel:", "tel:+", "(", "+", "+", "00", "0", "x", "#", "; ", "Phone "]
        let pieces = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9",
                      " ", " ", "-", ".", "(", ")", "/", "\\", "+", "*", "#", "~", ",", ",,", ";", ":", "_", "!", "\n",
                      "x", "X", "ext", "ext.", "Ext: ", "extn", "extension", "anexo", "int", "e", "a", "i", "B",
                      "FLOWERS", "ZZ", "h0he", ";ext=", ";isub=", ";phone-context=", ";phone-context=+1",
                      ";phone-context=+44-20", ";phone-context=example.com", "/ x", "\\x", " # ", " ~ ",
                      "\u{FF58}", "\u{FF03}", "\u{FF5E}", "\u{0434}\u{043E}\u{0431}", "\u{0661}", "\u{2010}", "é"]
        var differences: [String] = []
        var numbers = 0
        var extensions = 0
        for _ in 0..<80_000 {
            // A number (digits, now and then a piece), then a tail of pieces.
            var text = leading[random.below(leading.count)]
            for _ in 0..<(4 + random.below(10)) {
                text += random.below(5) == 0 ? pieces[random.below(pieces.count)] : String(random.below(10))
            }
            for _ in 0..<random.below(6) { text += pieces[random.below(pieces.count)] }
            let bytes = Array(text.utf8)
            let region = regions[random.below(regions.count)]
            let (shortcut, full) = bytes.withUnsafeBufferPointer { engine._parseFreeFormBothWays(utf8: $0, defaultRegion: region) }
            let input = "\(text.debugDescription) \(region?.identifier ?? "-")"
            switch (shortcut, full) {
            case (.success(let a), .success(let b)):
                numbers += 1
                if a.extension != nil { extensions += 1 }
                if a != b { differences.append("\(input): \(a) vs \(b)") }
            case (.failure(let a), .failure(let b)):
                if a.code != b.code { differences.append("\(input): \(a.code) vs \(b.code)") }
            default:
                differences.append("\(input): \(shortcut) vs \(full)")
            }
        }
        #expect(differences.isEmpty, "first differences: \(differences.prefix(10))")
        #expect(numbers > 10_000)
        #expect(extensions > 1_000)
    }
}
