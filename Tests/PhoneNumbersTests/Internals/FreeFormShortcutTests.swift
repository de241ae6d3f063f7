@testable import PhoneNumbers
import SMSKitTestSupport
import Testing

/// The free-form parse skips searches and passes whose trigger characters the input lacks
/// (``_InputFlags``): it must give exactly what the whole algorithm gives without the shortcuts.
@Suite struct FreeFormShortcutTests {
    let engine = PhoneNumberEngine()

    /// The flag table is the rules it tabulates.
    @Test func inputFlagTableMatchesTheRules() {
        let table = _InputFlags.byteTable
        #expect(table.utf8CodeUnitCount == 256)
        for byte in 0..<256 {
            let flags = byte < 0x80 ? _InputFlags.of(ascii: UInt8(byte)) : .notASCII
            #expect(table.utf8Start[byte] == 0x40 | flags.rawValue, "0x\(String(byte, radix: 16))")
        }
    }

    /// The case folding of extension labels, ASCII in one range test, is the simple case folding
    /// with `re`'s IGNORECASE extras for every scalar.
    @Test func caseFoldingOfEveryScalar() {
        func reference(_ v: UInt32) -> UInt32 {
            switch v {
            case 0x41...0x5A: return v + 0x20
            case 0x130, 0x131: return 0x69
            case 0x17F: return 0x73
            case 0xC0...0xDE where v != 0xD7: return v + 0x20
            case 0x410...0x42F: return v + 0x20
            case 0xFF21...0xFF3A: return v + 0x20
            default: return v
            }
        }
        for value: UInt32 in 0...0x10FFFF {
            guard let c = Unicode.Scalar(value) else { continue }
            if _Chars.fold(c) != reference(value) {
                Issue.record("U+\(String(value, radix: 16, uppercase: true))")
                return
            }
        }
    }

    /// The viability scan for ASCII input (raw table bytes, letters from the shifted sum) reads
    /// what the scan for any input reads: the same verdict, extension, letters and split.
    @Test func asciiViabilityScanAgreesWithTheGeneralScan() {
        var random = SplitMix64(seed: 0x5EED_A5C1)
        let pieces = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "1", "2", "3", " ", "-", ".", "(", ")",
                      "/", "+", "+", "*", "#", "~", ",", ";", ":", "x", "X", "ext", "a", "B", "zz", "=", "\n", "!", "_"]
        var differences: [String] = []
        var viable = 0
        for _ in 0..<100_000 {
            var text = ""
            for _ in 0..<random.below(20) { text += pieces[random.below(pieces.count)] }
            let scalars = Array(text.unicodeScalars)
            scalars.withUnsafeBufferPointer { s in
                for searchExtension in [true, false] {
                    var a = _Viability.Scan(), b = _Viability.Scan()
                    let fast = _Viability.check(s, s.count, searchExtension: searchExtension, scan: &a, ascii: true)
                    let slow = _Viability.check(s, s.count, searchExtension: searchExtension, scan: &b, ascii: false)
                    if fast.viable != slow.viable || fast.extension?.start != slow.extension?.start
                        || fast.extension?.digits != slow.extension?.digits
                        || a.letters != b.letters || a.afterThirdDigit != b.afterThirdDigit {
                        differences.append("\(text.debugDescription) \(searchExtension)")
                    }
                    if fast.viable { viable += 1 }
                }
            }
        }
        #expect(differences.isEmpty, "first differences: \(differences.prefix(10))")
        #expect(viable > 5_000)
    }

    /// Short ASCII input (0 to 9 bytes: the copy's four-byte steps, its overlapping last step
    /// and its byte loop below four) through the shortcuts and through the decoder.
    @Test func shortInputCopiesAsTheDecoderDecodes() {
        var random = SplitMix64(seed: 0x5EED_C0B1)
        let alphabet = Array("0123456789+ -;/#xe\n".utf8)
        var differences: [String] = []
        for round in 0..<50_000 {
            var bytes: [UInt8] = []
            for _ in 0..<(round % 10) { bytes.append(alphabet[random.below(alphabet.count)]) }
            let region: RegionCode? = round % 3 == 0 ? nil : "US"
            let (shortcut, full) = bytes.withUnsafeBufferPointer { engine._parseFreeFormBothWays(utf8: $0, defaultRegion: region) }
            if let difference = parseDifference(shortcut, full, input: "\(bytes)") { differences.append(difference) }
        }
        #expect(differences.isEmpty, "first differences: \(differences.prefix(5))")
    }

    /// The table of what normalizing keeps of ASCII: the digits, nothing else.
    @Test func asciiDigitTableKeepsTheDigits() {
        let table = PhoneNumberEngine._asciiDigits
        #expect(table.utf8CodeUnitCount == 128)
        for byte in 0..<128 {
            let expected = UInt8(byte) &- 0x30 < 10 ? UInt8(byte) : UInt8(ascii: "@")
            #expect(table.utf8Start[byte] == expected, "0x\(String(byte, radix: 16))")
        }
    }

    /// Long ASCII input (up to 200 characters, vanity letters now and then): normalizing in one
    /// table pass fills the digit string to its capacity and past it as the per-character loop.
    @Test func longInputNormalizesAsTheWholeAlgorithm() {
        var random = SplitMix64(seed: 0x5EED_F4EE_F1)
        let regions: [RegionCode?] = [nil, "US", "GB", "DE", "IN", "001"]
        let alphabet = Array("012345678901234567890123456789 -.()/ABCDEFGHWXYZabcxyz#;,~".utf8)
        var differences: [String] = []
        var numbers = 0
        for round in 0..<20_000 {
            var bytes: [UInt8] = random.below(2) == 0 ? Array("+1".utf8) : []
            for _ in 0..<(40 + random.below(160)) {
                bytes.append(round % 3 == 0 ? alphabet[random.below(alphabet.count)] : UInt8(0x30 + random.below(10)))
            }
            let region = regions[random.below(regions.count)]
            let (shortcut, full) = bytes.withUnsafeBufferPointer { engine._parseFreeFormBothWays(utf8: $0, defaultRegion: region) }
            if case .success = shortcut { numbers += 1 }
            if let difference = parseDifference(shortcut, full, input: "\(bytes)") { differences.append(difference) }
        }
        #expect(differences.isEmpty, "first differences: \(differences.prefix(5))")
        #expect(numbers > 0)
    }

    /// The dispatcher skips the simple-input fast path for input that ends in a character the
    /// fast path refuses: for such input it must return nil, never a number or an error.
    @Test func simplePathRefusesWhatTheDispatcherSkips() {
        var random = SplitMix64(seed: 0x5EED_5119)
        let regions: [RegionCode?] = [nil, "US", "GB", "DE", "IN", "001"]
        let alphabet = Array("0123456789012345678901234567890123456789 -.()/+ -+aZx#~*,;!_".utf8) + [0xC2, 0xA0, 0xFF]
        var skipped = 0
        var problems: [String] = []
        for _ in 0..<100_000 {
            var bytes: [UInt8] = []
            for _ in 0..<(1 + random.below(20)) { bytes.append(alphabet[random.below(alphabet.count)]) }
            if random.below(2) == 0 { bytes.append(Array("aZx#~*,;".utf8)[random.below(8)]) }
            let region = regions[random.below(regions.count)]
            let (skip, simple) = bytes.withUnsafeBufferPointer { buffer in
                (engine._endsOutsideSimpleShape(buffer), engine._parseBothWays(utf8: buffer, defaultRegion: region).simple)
            }
            guard skip else { continue }
            skipped += 1
            if case .success(nil) = simple { continue }
            problems.append("\(bytes) \(region?.identifier ?? "-"): \(simple)")
        }
        #expect(problems.isEmpty, "first problems: \(problems.prefix(10))")
        #expect(skipped > 40_000)
    }

    /// The dispatcher's characters are those the simple path calls `.other` or `.refuse`.
    @Test func simpleRefusedEndMasksMatchTheKinds() {
        for byte in 0..<256 {
            let bytes = [UInt8(ascii: "1"), UInt8(byte)]
            let skip = bytes.withUnsafeBufferPointer { engine._endsOutsideSimpleShape($0) }
            let kind: _SimpleKind? = byte < 0x80 ? _simpleKind(ascii: UInt8(byte)) : nil
            #expect(skip == (kind == .other || kind == .refuse), "0x\(String(byte, radix: 16))")
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
            if case .success(let number) = shortcut {
                numbers += 1
                if number.extension != nil { extensions += 1 }
            }
            if let difference = parseDifference(shortcut, full, input: input) { differences.append(difference) }
        }
        #expect(differences.isEmpty, "first differences: \(differences.prefix(10))")
        #expect(numbers > 10_000)
        #expect(extensions > 1_000)
    }

    /// The extension search only tries starts after the last digit before the trailing run, and
    /// only characters that can begin an alternative: it must find what trying every start finds
    /// (`_EXTN_PATTERN.search`: the leftmost start that matches to the end, or to a final line
    /// feed). The viability pattern, read in two loops, against its one-loop reading.
    @Test func extensionSearchAndViabilityAgreeWithExhaustiveReadings() {
        var random = SplitMix64(seed: 0x5EED_E87E)
        let pieces: [String] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "1", "2", "3", "4", "5",
                                " ", " ", "-", ".", ":", ",", ";", "#", "~", "x", "X", "e", "t", "n", "a", "i", "o",
                                "s", "=", "*", "(", "+", "\n", "\t", "\u{A0}", "ext", "ext.", "extension", "anexo",
                                "int", "\u{FF58}", "\u{FF03}", "\u{FF5E}", "\u{0434}\u{043E}\u{0431}", "\u{0661}",
                                "\u{FF10}", "\u{FF0E}", "\u{0301}", "\u{F3}", "\u{130}", "\u{17F}", "\u{FF45}\u{FF58}\u{FF54}"]
        var differences: [String] = []
        var found = 0
        var viable = 0
        var checkedExtensions = 0
        for _ in 0..<200_000 {
            // Half of them after a number, so that the viability pattern holds often.
            var text = ["", "+1 650 253", "0301234", "+44-20.7", "(06) 12"][random.below(2) * (1 + random.below(4))]
            for _ in 0..<(1 + random.below(14)) { text += pieces[random.below(pieces.count)] }
            let scalars = Array(text.unicodeScalars)
            scalars.withUnsafeBufferPointer { s in
                let count = s.count
                let fast = _Extension.search(s, count)
                let slow = Self.exhaustiveSearch(s, count)
                if fast?.start != slow?.start || fast?.digits != slow?.digits {
                    differences.append("search \(text.debugDescription): \(String(describing: fast)) vs \(String(describing: slow))")
                }
                if fast != nil { found += 1 }
                for end in [count, fast?.start ?? 0] {
                    let a = _Viability.isViable(s, end), b = Self.oneLoopViability(s, end)
                    if a != b { differences.append("viable \(text.debugDescription) [..<\(end)]: \(a) vs \(b)") }
                    if a { viable += 1 }
                }
                // The parse's combined check: the viability pattern, then the extension search,
                // its start kept when the number before it is viable.
                for searchExtension in [true, false] {
                    var scan = _Viability.Scan(), checkScan = _Viability.Scan()
                    let viable = _Viability.isViable(s, count, scan: &scan)
                    let expected = viable && searchExtension
                        ? _Extension.search(s, count).flatMap { _Viability.prefixIsViable(s, $0.start, scan: scan) ? $0 : nil } : nil
                    let (checked, found) = _Viability.check(s, count, searchExtension: searchExtension, scan: &checkScan)
                    if checked != viable || found?.start != expected?.start || found?.digits != expected?.digits
                        || checkScan.letters != scan.letters || checkScan.afterThirdDigit != scan.afterThirdDigit {
                        differences.append("check \(text.debugDescription) \(searchExtension): \(checked) \(String(describing: found))")
                    }
                    if checked, found != nil, searchExtension { checkedExtensions += 1 }
                }
                // What the scan of the whole learnt answers for every prefix; its letter count.
                var scan = _Viability.Scan()
                if _Viability.isViable(s, count, scan: &scan), scan.letters >= 0 {
                    let letters = s.filter { _Viability.classBits($0) & 8 != 0 }.count
                    if scan.letters != letters { differences.append("letters \(text.debugDescription): \(scan.letters)") }
                    for end in 0...count where _Viability.prefixIsViable(s, end, scan: scan) != _Viability.isViable(s, end) {
                        differences.append("prefix \(text.debugDescription) [..<\(end)]")
                    }
                }
            }
        }
        #expect(differences.isEmpty, "first differences: \(differences.prefix(10))")
        #expect(found > 10_000)
        #expect(viable > 10_000)
        #expect(checkedExtensions > 3_000)
    }

    /// The decoding of input that is not all ASCII reads well-formed UTF-8 itself and leaves the
    /// rest to the standard decoder: it must give the standard decoder's scalars (U+FFFD for
    /// each ill-formed part) for well-formed, ill-formed and truncated sequences, and refuse
    /// more than 250 scalars.
    @Test func decodingAgreesWithTheStandardDecoder() {
        var random = SplitMix64(seed: 0x5EED_DEC0DE)
        let pieces: [[UInt8]] = [[0x31], [0x2B], [0x20], [0x61], Array("٣".utf8), Array("－".utf8), Array("😀".utf8),
                                 Array("é".utf8), [0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xC2], [0xE0, 0x80, 0x80],
                                 [0xE0, 0xA0], [0xED, 0xA0, 0x80], [0xEF, 0xBF], [0xF0, 0x8F, 0xBF, 0xBF],
                                 [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80], [0xFE], [0xFF], [0xF0, 0x9F, 0x98]]
        var differences: [String] = []
        var illFormed = 0
        var refused = 0
        withUnsafeTemporaryAllocation(of: Unicode.Scalar.self, capacity: PhoneNumberEngine.maxInputLength + 2) { buffer in
            for round in 0..<60_000 {
                var bytes: [UInt8] = []
                let length = round % 100 == 0 ? 240 + random.below(30) : random.below(12)
                for _ in 0..<length { bytes += pieces[random.below(pieces.count)] }
                let expected = Array(String(decoding: bytes, as: UTF8.self).unicodeScalars)
                if String(validating: bytes, as: UTF8.self) == nil { illFormed += 1 }
                let result = bytes.withUnsafeBufferPointer { input in
                    Result { () throws(PhoneNumberError) in try engine._decode(input, into: buffer) }
                }
                switch result {
                case .success(let count):
                    if expected.count > PhoneNumberEngine.maxInputLength || Array(buffer[0..<count]) != expected {
                        differences.append("\(bytes): \(Array(buffer[0..<count]))")
                    }
                case .failure(let error):
                    refused += 1
                    if error.code != .tooLong || expected.count <= PhoneNumberEngine.maxInputLength {
                        differences.append("\(bytes): \(error)")
                    }
                }
            }
        }
        #expect(differences.isEmpty, "first differences: \(differences.prefix(10))")
        #expect(illFormed > 20_000)
        #expect(refused > 100)
    }

    /// The RFC 3966 phone-context check reads a domain name in one pass: it must answer what
    /// splitting the name into labels at its dots and checking each label answers, for every
    /// string of up to five of the characters that matter and for longer random ones.
    @Test func phoneContextCheckAgreesWithLabelSplitting() {
        let alphabet: [Unicode.Scalar] = ["a", "Z", "1", "\u{661}", "-", ".", ".", "+", "_", "\u{E9}"]
        var random = SplitMix64(seed: 0x5EED_C0_7E87)
        var inputs: [[Unicode.Scalar]] = [[]]
        var level: [[Unicode.Scalar]] = [[]]
        for _ in 0..<5 {
            level = level.flatMap { prefix in alphabet.map { prefix + [$0] } }
            inputs += level
        }
        for _ in 0..<50_000 {
            inputs.append((0..<(6 + random.below(10))).map { _ in alphabet[random.below(alphabet.count)] })
        }
        var differences: [String] = []
        var valid = 0
        for scalars in inputs {
            let (fast, slow) = scalars.withUnsafeBufferPointer { (engine._isPhoneContextValid($0), Self.labelSplittingCheck($0)) }
            if fast != slow { differences.append("\(String(String.UnicodeScalarView(scalars)).debugDescription): \(fast)") }
            if fast { valid += 1 }
        }
        #expect(differences.isEmpty, "first differences: \(differences.prefix(10))")
        #expect(valid > 3_000)
    }

    /// `^([alnum]+((-)*[alnum])*\.)*[alpha]+((-)*[alnum])*\.?$` or a global number, by labels.
    static func labelSplittingCheck(_ c: _Scalars) -> Bool {
        func isAlnum(_ x: Unicode.Scalar) -> Bool { _Chars.isAlpha(x) || _UnicodeClasses.isDecimal(x) }
        if c.isEmpty { return false }
        if c[0] == "+" {
            let rest = c.dropFirst()
            return rest.contains { _UnicodeClasses.isDecimal($0) }
                && rest.allSatisfy { _UnicodeClasses.isDecimal($0) || "-.()".unicodeScalars.contains($0) }
        }
        var labels = c.split(separator: ".", omittingEmptySubsequences: false)
        if labels.count > 1, labels.last!.isEmpty { labels.removeLast() }
        for (k, label) in labels.enumerated() {
            guard let first = label.first, let last = label.last, isAlnum(last),
                  k == labels.count - 1 ? _Chars.isAlpha(first) : isAlnum(first),
                  label.allSatisfy({ isAlnum($0) || $0 == "-" }) else { return false }
        }
        return true
    }

    /// Every start, every alternative, no shortcut.
    static func exhaustiveSearch(_ s: _Scalars, _ count: Int) -> (start: Int, digits: Range<Int>)? {
        for start in 0..<count {
            if let digits = _Extension.match(s, start, count) { return (start, digits) }
            if s[count - 1] == "\n", let digits = _Extension.match(s, start, count - 1) { return (start, digits) }
        }
        return nil
    }

    /// `_Viability.isViable` as one loop that tests the digit count per character.
    static func oneLoopViability(_ s: _Scalars, _ count: Int) -> Bool {
        if count < 2 { return false }
        if count == 2, _UnicodeClasses.isDecimal(s[0]), _UnicodeClasses.isDecimal(s[1]) { return true }
        var i = 0
        while i < count, _Chars.isPlus(s[i]) { i += 1 }
        var digits = 0
        var main = count  // where the main part must end, the rest being an extension
        while i < count {
            let bits = _Viability.classBits(s[i])
            if bits & (digits < 3 ? 0b0111 : 0b1111) == 0 {
                guard digits >= 3 else { return false }
                main = i
                break
            }
            digits &+= Int(bits & 1)
            i += 1
        }
        if digits < 3 { return false }
        if main == count { return true }
        // Some split at or before `main`, after the third digit, followed by an extension.
        var seen = 0
        var k = 0
        while k < count, _Chars.isPlus(s[k]) { k += 1 }
        while k < main, seen < 3 { if _UnicodeClasses.isDecimal(s[k]) { seen += 1 }; k += 1 }
        guard seen == 3 else { return false }
        for split in k...main where _Extension.match(s, split, count) != nil { return true }
        return false
    }
}

/// Input that is not all ASCII keeps the exact flags of its ASCII characters (`;`, `/`, letters,
/// line feeds), with `extensionLabel` always: the free-form parse with those flags must give what
/// it gives with every flag.
@Suite struct NonASCIIFlagTests {
    let engine = PhoneNumberEngine()

    @Test func nonASCIIInputWithItsASCIIFlagsParsesAsWithEveryFlag() {
        var random = SplitMix64(seed: 0x5EED_0A5C)
        let regions: [RegionCode?] = [nil, "US", "GB", "DE", "IN", "RU", "JP", "SG", "001"]
        let nonASCII = ["\u{0661}", "\u{0967}", "\u{FF11}", "\u{2010}", "\u{FF0D}", "\u{00A0}", "\u{3000}", "\u{30FC}",
                        "\u{FF0B}", "\u{FF58}", "\u{FF03}", "\u{FF5E}", "\u{0434}\u{043E}\u{0431}", "é", "\u{0131}",
                        "\u{017F}", "\u{FF45}\u{FF58}\u{FF54}", "\u{FF0F}", "\u{FF1B}", "नमस्ते"]
        let ascii = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", " ", "-", "+", "(", ")", ".", ";", "/", "\\",
                     "/ x", "\n", "ext. ", "x", "#", "~", ",,", "FLOWERS", "abc", ";isub=", ";phone-context=+44",
                     ";ext=", "tel:", "_", "!"]
        var differences: [String] = []
        var numbers = 0
        for _ in 0..<60_000 {
            var text = random.below(3) == 0 ? "+" : ""
            for _ in 0..<(3 + random.below(16)) {
                switch random.below(6) {
                case 0: text += nonASCII[random.below(nonASCII.count)]
                case 1: text += ascii[random.below(ascii.count)]
                default: text += String(random.below(10))
                }
            }
            if !text.unicodeScalars.contains(where: { !$0.isASCII }) { text += nonASCII[random.below(nonASCII.count)] }
            let region = regions[random.below(regions.count)]
            let bytes = Array(text.utf8)
            let (shortcut, full) = bytes.withUnsafeBufferPointer { engine._parseFreeFormBothWays(utf8: $0, defaultRegion: region) }
            if case .success = shortcut { numbers += 1 }
            let input = "\(text.debugDescription) \(region?.identifier ?? "-")"
            if let difference = parseDifference(shortcut, full, input: input) { differences.append(difference) }
        }
        #expect(differences.isEmpty, "first differences: \(differences.prefix(10))")
        #expect(numbers > 10_000)
    }
}

/// The ASCII viability check skips the extension search for a number read whole without a
/// letter or `~`: over such numbers (and ones with a `~`), it must find what the general check
/// finds.
@Suite struct LetterlessExtensionSkipTests {
    @Test func letterlessNumbersHaveNoExtension() {
        var random = SplitMix64(seed: 0x5EED_7117)
        let pieces = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9",
                      " ", "-", ".", "(", ")", "/", "*", "[", "]", "+", "~", " ~ ", "~~", "- "]
        var differences: [String] = []
        var extensions = 0
        for _ in 0..<100_000 {
            var text = random.below(2) == 0 ? "+" : ""
            for _ in 0..<(2 + random.below(18)) { text += pieces[random.below(pieces.count)] }
            let scalars = Array(text.unicodeScalars)
            scalars.withUnsafeBufferPointer { s in
                var a = _Viability.Scan(), b = _Viability.Scan()
                let fast = _Viability.check(s, s.count, searchExtension: true, scan: &a, ascii: true)
                let slow = _Viability.check(s, s.count, searchExtension: true, scan: &b, ascii: false)
                if fast.viable != slow.viable || fast.extension?.start != slow.extension?.start
                    || fast.extension?.digits != slow.extension?.digits {
                    differences.append(text.debugDescription)
                }
                if slow.extension != nil { extensions += 1 }
            }
        }
        #expect(differences.isEmpty, "first differences: \(differences.prefix(10))")
        #expect(extensions > 1_000)
    }
}
