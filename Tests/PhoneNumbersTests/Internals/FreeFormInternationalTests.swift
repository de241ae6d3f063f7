@testable import PhoneNumbers
import SMSKitTestSupport
import Testing

/// After a `+`, step 3 of the parse pipeline reads strict E.164 digits
/// (`_parseInternationalDigitParts`), keeping the extension: it must give exactly what step 4
/// (`_parseCountryCodeAndNational`) gives, for input that only step 2's general form reads.
@Suite struct FreeFormInternationalTests {
    let engine = PhoneNumberEngine()

    /// Numbers after "+" (calling codes in use and not, national prefixes and leading zeros,
    /// 6 to 20 digits) written as only the free-form parse reads them: Unicode separators and
    /// digits, vanity letters, extensions, `tel:` URIs with `;isub=`, `;ext=` or
    /// `;phone-context=`, leading text.
    @Test func internationalShortcutAgreesWithTheGeneralSteps() {
        var random = SplitMix64(seed: 0x5EED_1E16)
        let regions: [RegionCode?] = [nil, "US", "GB", "DE", "IT", "AR", "BR", "RU", "IN", "JP", "SG", "001"]
        let codes = ["1", "7", "20", "33", "39", "44", "49", "54", "55", "61", "65", "81", "86", "91", "212", "262",
                     "351", "372", "378", "380", "599", "672", "800", "808", "870", "881", "882", "883", "888", "979",
                     "28", "42", "80", "0", "999"]
        let separators = [" ", " ", "-", ".", "\u{2010}", "\u{FF0D}", "\u{00A0}", "\u{3000}", "\u{30FC}", "/", "(", ")"]
        let vanity = ["FLOWERS", "ABC", "xyz", "CALLME", "Zz"]
        let extensions = [" ext. 12", " x 7", "#55", " #123#", " Ext: 661", ",,9", " ~ 42", " anexo 3", " \u{0434}\u{043E}\u{0431}. 8"]
        var differences: [String] = []
        var numbers = 0
        var shortcut = 0
        var extended = 0
        for round in 0..<40_000 {
            var digits = codes[random.below(codes.count)]
            let lead = random.below(4)
            if lead == 1 { digits += "0" } else if lead == 2 { digits += "00" }
            for _ in 0..<(4 + random.below(15)) { digits += String(random.below(10)) }
            // The number written with separators, other digits or letters between its digits.
            var written = ""
            for (k, c) in digits.enumerated() {
                if k > 0, random.below(4) == 0 { written += separators[random.below(separators.count)] }
                if random.below(12) == 0, let value = c.wholeNumberValue {
                    // Arabic-Indic or full-width digits.
                    let base: UInt32 = random.below(2) == 0 ? 0x0660 : 0xFF10
                    written.unicodeScalars.append(Unicode.Scalar(base + UInt32(value))!)
                } else {
                    written.append(c)
                }
            }
            if random.below(8) == 0 { written += vanity[random.below(vanity.count)] }
            if random.below(3) == 0 { written += extensions[random.below(extensions.count)] }
            let text: String
            switch round % 6 {
            case 0: text = "+" + written
            case 1: text = "Tel: +" + written
            case 2: text = "tel:+" + digits + (random.below(2) == 0 ? ";isub=" : ";ext=") + String(random.below(1000))
            case 3: text = "tel:" + String(digits.dropFirst(random.below(3))) + ";phone-context=+" + String(digits.prefix(random.below(4)))
            case 4: text = "++" + written + "!"
            default: text = "\u{FF0B}" + written
            }
            let region = regions[random.below(regions.count)]
            let bytes = Array(text.utf8)
            let (fast, full) = bytes.withUnsafeBufferPointer { engine._parseFreeFormBothWays(utf8: $0, defaultRegion: region) }
            if case .success(let number) = fast {
                numbers += 1
                if number.extension != nil { extended += 1 }
            }
            if digits.allSatisfy(\.isASCII),
               Array(digits.utf8).withUnsafeBufferPointer({ engine._parseInternationalDigits($0, stripping: true) }) != nil {
                shortcut += 1
            }
            let input = "\(text.debugDescription) \(region?.identifier ?? "-")"
            if let difference = parseDifference(fast, full, input: input) { differences.append(difference) }
        }
        #expect(differences.isEmpty, "first differences: \(differences.prefix(10))")
        #expect(numbers > 12_000)
        #expect(shortcut > 12_000)
        #expect(extended > 5_000)
    }

    /// The shortcut's claim itself, on the digits alone: wherever
    /// `_parseInternationalDigitParts` gives a number, `_parseCountryCodeAndNational` after a "+" gives the same
    /// one with the same extension, whatever the region.
    @Test func internationalDigitsAgreeWithTheGeneralSteps() {
        var random = SplitMix64(seed: 0x5EED_D161)
        let regions: [RegionCode?] = [nil, "US", "GB", "DE", "IT", "AR", "MX", "IN", "001"]
        var differences: [String] = []
        var taken = 0
        for _ in 0..<100_000 {
            var digits: [UInt8] = []
            for _ in 0..<(6 + random.below(16)) { digits.append(UInt8(0x30 + random.below(10))) }
            if random.below(3) == 0, digits.count > 3 { digits[1] = UInt8(ascii: "0") }
            let region = regions[random.below(regions.count)]
            let regionIndex = region.flatMap { engine.store.tables.pointee.regionIndex($0) }
            let ext: String? = random.below(2) == 0 ? nil : String(random.below(10_000))
            let (parts, full) = digits.withUnsafeBufferPointer { buffer in
                (engine._parseInternationalDigitParts(buffer, stripping: true),
                 Result { () throws(PhoneNumberError) in
                     var digitString = _DigitString(buffer)
                     return try engine._parseCountryCodeAndNational(&digitString, overlong: false, afterPlus: true,
                                                                    regionIndex: regionIndex, extension: ext)
                 })
            }
            guard let parts else { continue }
            let fast = PhoneNumber(parts, extension: ext)
            taken += 1
            if let difference = parseDifference(.success(fast), full, input: String(decoding: digits, as: UTF8.self)) {
                differences.append(difference)
            }
        }
        #expect(differences.isEmpty, "first differences: \(differences.prefix(10))")
        #expect(taken > 25_000)
    }
}

/// `_simpleDigits` refuses input that starts like a `tel:` URI (no space after the colon) at its
/// first byte; the whole algorithm then reads it, with the same results as without the refusal.
@Suite struct TelURIRefusalTests {
    let engine = PhoneNumberEngine()

    @Test func telURIsAreLeftToTheWholeAlgorithm() {
        var random = SplitMix64(seed: 0x5EED_7E1)
        let regions: [RegionCode?] = [nil, "US", "GB", "DE", "SG", "CA"]
        let prefixes = ["tel:", "TEL:", "Tel:", "tEl:", "tel: ", "Tel: ", "tel:+", "TEL:+", "Tel: +", "tel:;", "tel::"]
        let tails = ["", "", ";isub=12", ";phone-context=+44", ";ext=7", "-12", " ", "!"]
        var differences: [String] = []
        var refused = 0
        for _ in 0..<20_000 {
            var text = prefixes[random.below(prefixes.count)]
            for _ in 0..<(3 + random.below(14)) {
                text += random.below(6) == 0 ? ["-", " ", ".", "(", ")"][random.below(5)] : String(random.below(10))
            }
            text += tails[random.below(tails.count)]
            let region = regions[random.below(regions.count)]
            let bytes = Array(text.utf8)
            let (simple, whole) = bytes.withUnsafeBufferPointer { engine._parseBothWays(utf8: $0, defaultRegion: region) }
            let parsed = Result { () throws(PhoneNumberError) in try engine.parse(text, defaultRegion: region) }
            let input = "\(text.debugDescription) \(region?.identifier ?? "-")"
            let uri = bytes.withUnsafeBufferPointer { engine._startsLikeTelURI($0) }
            #expect(uri == (text.prefix(4).lowercased() == "tel:" && text.dropFirst(4).first != " "), "\(input)")
            if uri {
                refused += 1
                if case .success(.some) = simple { differences.append("\(input): taken by the simple path") }
                if case .failure = simple { differences.append("\(input): refused by the simple path with an error") }
            }
            if let difference = parseDifference(parsed, whole, input: input) { differences.append(difference) }
        }
        #expect(differences.isEmpty, "first differences: \(differences.prefix(10))")
        #expect(refused > 10_000)
    }
}
