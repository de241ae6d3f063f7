@testable import PhoneNumbers
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
        var agreement = Agreement()
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
            agreement.compare(bytes, region: region, engine: engine)
        }
        // The generator must exercise the fast path a lot, both parses and errors.
        agreement.expectAgreement(simple: 30_000, numbers: 10_000)
    }

    /// The same agreement over the wider shape: leading text, digits of other scripts, Unicode
    /// separators, trailing punctuation, and now and then a character that must send the input to
    /// the whole algorithm (letters, '#', '~', ';', 'x', '*', ',', '²', invalid UTF-8).
    @Test func widerShapeAgreesWithTheWholeAlgorithm() {
        var random = SplitMix64(seed: 0x5EED_0F_5A18)
        let regions: [RegionCode?] = [nil, "US", "GB", "DE", "FR", "IN", "BD", "EG", "IR", "TR", "JP", "CN", "AR",
                                      "BR", "RU", "AU", "SA", "TH", "001"]
        let leading = ["", "", "", "Tel: ", "No. ", "tel:", "तेल: ", "(", "<", "%", "_", " ", "☎ ", "x", "#", "²"]
        // Digit strings of several scripts: ASCII, Arabic-Indic, Extended Arabic-Indic,
        // Devanagari, Bengali, full-width, Thai; picked per input and now and then per digit.
        let scripts: [UInt32] = [0x30, 0x30, 0x660, 0x6F0, 0x966, 0x9E6, 0xFF10, 0xE50]
        let separators: [String] = [" ", "-", ".", "(", ")", "/", "[", "]", "\u{A0}", "\u{AD}", "\u{200B}", "\u{2060}",
                                    "\u{3000}", "\u{2010}", "\u{2013}", "\u{2015}", "\u{2212}", "\u{30FC}",
                                    "\u{FF0D}", "\u{FF0E}", "\u{FF0F}", "\u{FF08}", "\u{FF09}", "\u{FF3B}", "\u{FF3D}"]
        let trailing = ["", "", "", "!", "+", ".", " ", "...", "_", "?", ")", "\u{3000}"]
        let intruders = ["a", "x", "#", "~", ";", "*", ",", "²", "\u{FF5E}", "\u{2053}", "ext", "+", "!", "\u{FF0B}", "Б"]
        var agreement = Agreement()
        for _ in 0..<60_000 {
            var text = leading[random.below(leading.count)]
            switch random.below(7) {
            case 0: text += "+"
            case 1: text += "\u{FF0B}"
            case 2: text += "00"
            case 3: text += "0"
            case 4: text += "+ "
            default: break
            }
            var script = scripts[random.below(scripts.count)]
            for _ in 0..<(1 + random.below(16)) {
                if random.below(12) == 0 { script = scripts[random.below(scripts.count)] }
                switch random.below(10) {
                case 0, 1: text += separators[random.below(separators.count)]
                case 2 where random.below(8) == 0: text += intruders[random.below(intruders.count)]
                default: text.unicodeScalars.append(Unicode.Scalar(script + UInt32(random.below(10)))!)
                }
            }
            text += trailing[random.below(trailing.count)]
            var bytes = Array(text.utf8)
            if random.below(50) == 0 { bytes.insert(0xFF, at: random.below(bytes.count + 1)) }
            let region = regions[random.below(regions.count)]
            agreement.compare(bytes, region: region, engine: engine)
        }
        agreement.expectAgreement(simple: 30_000, numbers: 10_000)
    }

    /// The run table of the fast path is `_simpleKind(ascii:)` (digits and separators), and
    /// ends a run at every byte that is not ASCII.
    @Test func runClassTableMatchesTheKinds() {
        let table = PhoneNumberEngine._simpleRunClasses
        #expect(table.utf8CodeUnitCount == 256)
        for byte in 0..<256 {
            var expected = UInt8(ascii: "@")
            if byte < 0x80 {
                if UInt8(byte) &- 0x30 < 10 { expected = UInt8(ascii: "A") }
                else if _simpleKind(ascii: UInt8(byte)) == .separator { expected = UInt8(ascii: "B") }
            }
            #expect(table.utf8Start[byte] == expected, "0x\(String(byte, radix: 16))")
        }
    }

    /// A run appended at once is what appending its bytes one by one gives (`append(_:keep:)`),
    /// at the capacity's edge and past it too: the same digits, count and end.
    @Test func runAppendAgreesWithAppendingByteByByte() {
        var random = SplitMix64(seed: 0x5EED_0F_5A19)
        let alphabet = Array("0123456789 -./()[]+x#é".utf8)
        let classes = PhoneNumberEngine._simpleRunClasses.utf8Start
        var problems: [String] = []
        for _ in 0..<20_000 {
            var bytes: [UInt8] = []
            for _ in 0..<random.below(140) {
                bytes.append(random.below(4) == 0 ? alphabet[random.below(alphabet.count)] : UInt8(0x30 + random.below(10)))
            }
            let start = random.below(bytes.count + 1)
            var fast = _DigitString(), slow = _DigitString()
            for _ in 0..<random.below(70) {
                let digit = UInt8(0x30 + random.below(10))
                fast.append(digit)
                slow.append(digit)
            }
            let (end, digits) = bytes.withUnsafeBufferPointer { fast.appendRun($0, from: start, classes: classes) }
            var i = start, slowDigits = 0
            while i < bytes.count, classes[Int(bytes[i])] & 3 != 0 {
                let isDigit = classes[Int(bytes[i])] & 1 != 0
                slow.append(bytes[i], keep: isDigit)
                slowDigits += isDigit ? 1 : 0
                i += 1
            }
            let same = end == i && digits == slowDigits && fast.count == slow.count
                && (0..<fast.count).allSatisfy { fast[$0] == slow[$0] }
            if !same { problems.append("\(bytes) from \(start): \(end) \(digits) vs \(i) \(slowDigits)") }
        }
        #expect(problems.isEmpty, "first problems: \(problems.prefix(5))")
    }

    /// Long input (up to 150 digits and separators) through the fast path and the whole
    /// algorithm: digit strings that fill the capacity and overflow it.
    @Test func longInputAgreesWithTheWholeAlgorithm() {
        var random = SplitMix64(seed: 0x5EED_0F_5A1A)
        let regions: [RegionCode?] = [nil, "US", "GB", "DE", "IN", "001"]
        let alphabet = Array("0123456789012345678901234567890123456789 -.()/".utf8)
        var agreement = Agreement()
        for _ in 0..<20_000 {
            var bytes: [UInt8] = random.below(2) == 0 ? Array("+".utf8) : []
            for _ in 0..<(1 + random.below(150)) { bytes.append(alphabet[random.below(alphabet.count)]) }
            agreement.compare(bytes, region: regions[random.below(regions.count)], engine: engine)
        }
        agreement.expectAgreement(simple: 10_000, numbers: 100)
    }

    /// "+" and digits only (the strict E.164 shape) of every length, with calling codes whose
    /// numbers a national prefix may start or that are not in use: what the word path leaves
    /// goes through the simple path, which must give what the whole algorithm gives.
    @Test func strictE164ShapeAgreesWithTheWholeAlgorithm() {
        var random = SplitMix64(seed: 0x5EED_0F_5A1B)
        let regions: [RegionCode?] = [nil, "US", "GB", "DE", "IT", "RU", "001"]
        let starts = ["", "1", "44", "440", "39", "390", "7", "78", "49", "490", "0", "999", "800", "883", "979", "2"]
        var differences: [String] = []
        var numbers = 0
        for _ in 0..<40_000 {
            var text = "+" + starts[random.below(starts.count)]
            for _ in 0..<random.below(24) { text += String(random.below(10)) }
            let region = regions[random.below(regions.count)]
            let parsed = Result { () throws(PhoneNumberError) in try engine.parse(text, defaultRegion: region) }
            let whole = Array(text.utf8).withUnsafeBufferPointer { engine._parseBothWays(utf8: $0, defaultRegion: region).freeForm }
            if case .success = parsed { numbers += 1 }
            if let difference = parseDifference(parsed, whole, input: "\(text) \(region?.identifier ?? "-")") {
                differences.append(difference)
            }
        }
        #expect(differences.isEmpty, "first differences: \(differences.prefix(10))")
        #expect(numbers > 10_000)
    }

    /// Three-byte UTF-8 decoded inline by the fast path, well-formed or not (overlong forms,
    /// surrogates, truncated sequences, a sequence cut by the input's end): the same as the
    /// whole algorithm, whose decoder reads each ill-formed part as U+FFFD.
    @Test func threeByteSequencesAgreeWithTheWholeAlgorithm() {
        var random = SplitMix64(seed: 0x5EED_0F_5A1C)
        let regions: [RegionCode?] = [nil, "US", "IN", "TH", "JP", "001"]
        let pieces: [[UInt8]] = [Array("०".utf8), Array("९".utf8), Array("৫".utf8), Array("๓".utf8), Array("０".utf8),
                                 Array("９".utf8), Array("‐".utf8), Array("　".utf8), Array("ー".utf8), Array("＋".utf8),
                                 Array("～".utf8), [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF], [0xED, 0xA0, 0x80],
                                 [0xED, 0x9F, 0xBF], [0xEF, 0xBF], [0xE2, 0x80], [0xE0], [0xEF, 0xBF, 0xBF]]
        var agreement = Agreement()
        for _ in 0..<60_000 {
            var bytes: [UInt8] = random.below(3) == 0 ? Array("+".utf8) : []
            for _ in 0..<(3 + random.below(12)) {
                if random.below(3) == 0 {
                    bytes += pieces[random.below(pieces.count)]
                } else {
                    bytes.append(UInt8(0x30 + random.below(10)))
                }
            }
            if random.below(4) == 0 { bytes += pieces[random.below(pieces.count)] }  // now and then cut at the end
            agreement.compare(bytes, region: regions[random.below(regions.count)], engine: engine)
        }
        agreement.expectAgreement(simple: 10_000, numbers: 3_000)
    }

    /// The block tables of the BMP give what searching the ranges gives, for every scalar: the
    /// decimal value, the digit value and whether a character is a decimal digit.
    @Test func blockTablesAgreeWithTheRangeSearch() {
        var problems: [String] = []
        for value: UInt32 in 0...0x10FFFF {
            guard let c = Unicode.Scalar(value) else { continue }
            let decimal = _UnicodeClasses.decimalDigitValueBySearch(c)
            if _UnicodeClasses.decimalDigitValue(c) != decimal || _UnicodeClasses.isDecimal(c) != (decimal != nil)
                || _UnicodeClasses.digitValue(c) != _UnicodeClasses.digitValueBySearch(c) {
                problems.append("U+\(String(value, radix: 16, uppercase: true))")
                if problems.count >= 10 { break }
            }
        }
        #expect(problems.isEmpty, "first problems: \(problems)")
    }

    /// The one-search digit value of the fast path is `unicodedata.digit` on every character
    /// Python's `\d` matches, and nil on every other one.
    @Test func decimalDigitValueOfEveryScalar() {
        var decimals = 0
        for value: UInt32 in 0...0x10FFFF {
            guard let c = Unicode.Scalar(value) else { continue }
            let expected = _UnicodeClasses.isDecimal(c) ? _UnicodeClasses.digitValue(c) : nil
            if _UnicodeClasses.decimalDigitValue(c) != expected {
                Issue.record("U+\(String(value, radix: 16, uppercase: true))")
                return
            }
            if expected != nil { decimals += 1 }
        }
        #expect(decimals == 660)  // Python 3.11 (Unicode 14): 66 runs of ten
    }
}

/// Runs the fast path and the whole algorithm on inputs and collects where they differ.
private struct Agreement {
    /// Inputs of the simple shape, and those of them that parsed.
    var simple = 0
    var numbers = 0
    var differences: [String] = []

    mutating func compare(_ bytes: [UInt8], region: RegionCode?, engine: PhoneNumberEngine) {
        let (fast, whole) = bytes.withUnsafeBufferPointer { engine._parseBothWays(utf8: $0, defaultRegion: region) }
        let input = "\(String(decoding: bytes, as: UTF8.self)) \(region?.identifier ?? "-")"
        let shortcut: Result<PhoneNumber, PhoneNumberError>
        switch fast {
        case .success(nil): return  // not the simple shape: only the whole algorithm runs
        case .success(let number?): shortcut = .success(number); numbers += 1
        case .failure(let error): shortcut = .failure(error)
        }
        if let difference = parseDifference(shortcut, whole, input: input) { differences.append(difference) }
        simple += 1
    }

    func expectAgreement(simple minimumSimple: Int, numbers minimumNumbers: Int) {
        #expect(differences.isEmpty, "first differences: \(differences.prefix(10))")
        #expect(simple > minimumSimple)
        #expect(numbers > minimumNumbers)
    }
}
