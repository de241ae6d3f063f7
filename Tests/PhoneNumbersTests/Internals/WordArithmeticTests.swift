@_spi(Tools) @testable import PhoneNumbers
import SMSKitTestSupport
import Testing

/// The branch-free word tricks on the E.164 path, each against the plain computation it replaces:
/// digits written eight at a time, digits read eight at a time, the one-load calling-code and type
/// tables, and Strings made in the small-string layout.
@Suite struct WordArithmeticTests {
    /// Every 8-digit group has the same few lane operations, so the edges of each lane's range
    /// (0, 99, 100, 9,999, 10,000 ...) and random values cover it.
    @Test func eightDigitsAreWrittenAsDecimalText() {
        var random = SplitMix64(seed: 0xD1_617)
        var values: [UInt32] = [0, 1, 9, 10, 99, 100, 999, 1_000, 9_999, 10_000, 99_999_999]
        for k in 0..<100_000 { values.append(UInt32(k)) }
        for _ in 0..<200_000 { values.append(UInt32(random.below(100_000_000))) }
        var wrong = 0
        for value in values {
            var word = _decimal8(value)
            let text = withUnsafeBytes(of: &word) { String(decoding: $0, as: UTF8.self) }
            let expected = String(String(value).reversed()).padding(toLength: 8, withPad: "0", startingAt: 0)
            if text != String(expected.reversed()) { wrong += 1 }
        }
        #expect(wrong == 0)
    }

    @Test func sixteenDigitsAndTheNationalNumberView() {
        var random = SplitMix64(seed: 0x16)
        for _ in 0..<50_000 {
            let value = random.next() % 10_000_000_000_000_000
            var words = _decimal16(value)
            let text = withUnsafeBytes(of: &words) { String(decoding: $0, as: UTF8.self) }
            let plain = String(value)
            #expect(text == String(repeating: "0", count: 16 - plain.count) + plain)
            // The national significant number of a number with leading zeros, through the
            // 16-digit block and through the general writer (more than 16 digits).
            let zeros = random.below(4)
            let number = PhoneNumber(countryCode: 39, nationalNumber: value, leadingZeros: zeros)
            #expect(number.nationalSignificantNumber == String(repeating: "0", count: zeros) + plain)
        }
    }

    @Test func eightDigitsAreReadFromWords() {
        var random = SplitMix64(seed: 0x8EAD)
        for _ in 0..<100_000 {
            var bytes = (0..<8).map { _ in UInt8(0x30 + random.below(10)) }
            let word = bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
            #expect(PhoneNumberEngine._nonDigitBytes(word) == 0)
            #expect(PhoneNumberEngine._eightDigits(word &- 0x3030_3030_3030_3030) == UInt64(String(decoding: bytes, as: UTF8.self)))
            // Any one byte that is not an ASCII digit is seen, wherever it is.
            let position = random.below(8)
            repeat { bytes[position] = UInt8(random.below(256)) } while bytes[position] &- 0x30 < 10
            let bad = bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
            #expect(PhoneNumberEngine._nonDigitBytes(bad) != 0)
        }
    }

    /// The word path and the byte-by-byte path give the same number or both decline, for strict
    /// E.164 of every length around the word path's limits, with and without junk.
    @Test func wordPathAgreesWithTheGeneralPath() {
        let engine = PhoneNumberEngine()
        var random = SplitMix64(seed: 0xE164)
        var taken = 0
        var zeros = 0
        var strippedOnly = 0
        for _ in 0..<60_000 {
            let length = 3 + random.below(20)
            var text = [UInt8(ascii: "+")] + (0..<length).map { _ in UInt8(0x30 + random.below(10)) }
            if random.below(20) == 0 { text[1 + random.below(length)] = UInt8(ascii: "x") }
            if random.below(4) == 0 {
                // A run of zeros where the national number may start (Italian-style numbers).
                let start = 2 + random.below(3)
                for k in start..<min(start + 1 + random.below(8), text.count) { text[k] = UInt8(ascii: "0") }
            }
            text.withUnsafeBufferPointer { bytes in
                // The general path takes ASCII digits only, as its callers check first; the word
                // path declines anything else.
                let word = engine._parseE164Word(bytes)
                // Called only for digits: the general path's callers check them first.
                let general = {
                    Result { () throws(PhoneNumberError) in
                        try engine._parseAfterPlus(UnsafeBufferPointer(rebasing: bytes[1...]), extension: nil)
                    }
                }
                if let word {
                    taken += 1
                    if word.leadingZeros > 0 { zeros += 1 }
                    #expect((try? general().get()) == word, "\(String(decoding: text, as: UTF8.self))")
                }
                // With national prefix stripping: the same number, and its digits, as the general path.
                if !text.contains(UInt8(ascii: "x")), let stripped = engine._parseE164WordParts(bytes, stripping: true).map({ PhoneNumber($0) }) {
                    if word == nil { strippedOnly += 1 }
                    let expected = try? general().get()
                    #expect(expected == stripped && expected?._digits == stripped._digits,
                            "\(String(decoding: text, as: UTF8.self))")
                }
            }
        }
        #expect(taken > 20_000)
        #expect(zeros > 2_000)
        #expect(strippedOnly > 1_000)
    }

    /// Numbers whose national number a national prefix or a transform rule starts, through the
    /// word path with stripping and through the general path.
    @Test func strippingWordPathAgreesOnNationalPrefixes() {
        let engine = PhoneNumberEngine()
        for text in ["+4402079460123", "+440", "+78123456789", "+7812345678901", "+11650253000", "+5491123456789",
                     "+54915123456789", "+549111512345678", "+552112345678", "+5501512345678", "+52112345678901",
                     "+3900612345678", "+6101234567", "+9118001234567", "+2340802123456", "+4920301234567"] {
            let parsed = Result { () throws(PhoneNumberError) in try engine.parse(e164: text) }
            let general = Array(text.utf8).withUnsafeBufferPointer { bytes in
                Result { () throws(PhoneNumberError) in
                    try engine._parseAfterPlus(UnsafeBufferPointer(rebasing: bytes[1...]), extension: nil)
                }
            }
            #expect(parseDifference(parsed, general, input: text) == nil)
            if case .success(let a) = parsed, case .success(let b) = general { #expect(a._digits == b._digits, "\(text)") }
        }
    }

    @Test func callingCodeTableMatchesTheCodeByCodeSearch() {
        let store = _Store.shared
        for p in 0..<1000 {
            let digits = Array(String(p + 1000).utf8.dropFirst())
            var expected = (0, 0, 0)
            if digits[0] != 0x30 {
                var value = 0
                for i in 0..<3 {
                    value = value * 10 + Int(digits[i] - 0x30)
                    if let region = store.tables.pointee.mainRegion(forCallingCode: value) { expected = (value, i + 1, region); break }
                }
            }
            let found = digits.withUnsafeBufferPointer { store.tables.pointee.callingCode(startOf: $0) }
            #expect(found.code == expected.0 && found.length == expected.1 && (found.code == 0 || found.region == expected.2), "\(p)")
        }
    }

    /// No calling code is a prefix of another: the code a number starts with is unique, which
    /// parsing relies on when it asks whether national input starts with its region's code.
    @Test func callingCodesArePrefixFree() {
        let store = _Store.shared
        let codes = (1..<1000).filter { store.tables.pointee.mainRegion(forCallingCode: $0) != nil }.map(String.init)
        #expect(codes.count > 200)
        for a in codes {
            for b in codes where a != b { #expect(!b.hasPrefix(a), "\(a) is a prefix of \(b)") }
        }
    }

    /// The ASCII class table of the simple-input path is `_simpleKind(ascii:)` with digits.
    @Test func asciiKindTableMatchesTheSwitch() {
        for byte in 0..<128 {
            let expected: _SimpleKind = byte >= 0x30 && byte <= 0x39 ? .digit : _simpleKind(ascii: UInt8(byte))
            #expect(_Store.shared.tables.pointee.asciiKinds[byte] == expected)
        }
    }

    /// The viability pattern's ASCII class table is the tests it replaces.
    @Test func viabilityClassTableMatchesTheTests() {
        #expect(_Viability.asciiClassBits.utf8CodeUnitCount == 128)
        for value in UInt32(0)..<0x3100 {
            guard let c = Unicode.Scalar(value) else { continue }
            var expected: UInt8 = 0
            if _UnicodeClasses.isDecimal(c) { expected |= 1 }
            if c == "*" { expected |= 2 }
            if _Chars.isPunctuation(c) { expected |= 4 }
            if _Chars.isAlphaIgnoringCase(c) { expected |= 8 }
            // Beyond ASCII '*' is not a candidate; the bit for it only exists in the table.
            #expect(_Viability.classBits(c) == expected, "U+\(String(value, radix: 16))")
        }
    }

    /// The extension search's ASCII start mask is its switch.
    @Test func extensionStartMaskMatchesTheSwitch() {
        for value in UInt32(0)..<0x80 {
            let c = Unicode.Scalar(value)!
            #expect(_Extension.canStart(c) == _Extension.canStartBySwitch(c), "U+\(String(value, radix: 16))")
        }
    }

    /// The vanity-number table is the digits and the ITU E.161 keypad.
    @Test func vanityTableMatchesTheKeypad() {
        let table = PhoneNumberEngine._vanityDigits
        #expect(table.utf8CodeUnitCount == 128)
        let keypad: [Character: UInt8] = Dictionary(uniqueKeysWithValues: zip(
            "abcdefghijklmnopqrstuvwxyz", Array("22233344455566677778889999".utf8)))
        for value in UInt32(0)..<0x80 {
            let c = Character(Unicode.Scalar(value)!)
            let keypadDigit = c.isASCII && c.isLetter ? keypad[Character(c.lowercased())] : nil
            let expected: UInt8 = value >= 0x30 && value <= 0x39 ? UInt8(value) : keypadDigit ?? UInt8(ascii: "@")
            #expect(table.utf8Start[Int(value)] == expected)
        }
    }

    /// The type table gives libphonenumber's chain of tests for every label and flag.
    @Test func typeTableMatchesTheChainOfTests() {
        let store = _Store.shared
        for label in 0..<(1 << 11) {
            for same in [false, true] {
                let bits = UInt16(label)
                #expect(store.tables.pointee.typeByLabel[_Store.typeKey(bits, sameMobileAndFixedLine: same)]
                        == PhoneNumberEngine._typeOfLabel(bits, sameMobileAndFixedLine: same))
            }
        }
    }

    /// The generator's state counts close each type DFA: no transition leaves it, every state is
    /// reached from the start, and each tail window ends in a 0 (`_TypeDFA` caps the digits
    /// left at 15). (What the walks find is checked against the oracle by the fixtures.)
    @Test func typeDFAsAreClosedAndTheirTailWindowsEndDead() {
        let store = _Store.shared
        var tailStates = 0
        for index in store.regions.indices {
            let core = store.tables.pointee.core[index], record = store.regions[index]
            let states = Int(record.typeStates), firstTail = Int(core.typeFirstTail)
            #expect(states < 256 && firstTail <= states && Int(record.typeFirstTail) == firstTail, "\(record.code)")
            #expect(Int(core.typeStart) == Int(store.tables.pointee.words[Int(core.typeDFA)]) && Int(core.typeStart) < firstTail)
            func target(_ s: Int, _ d: Int) -> Int { Int(store.tables.pointee.typeRows[Int(core.typeRows) + 10 * s + d]) }
            var reached: Set = [0, Int(core.typeStart)]
            var stack = [Int(core.typeStart)]
            while let s = stack.popLast() {
                for d in 0..<10 {
                    let t = target(s, d)
                    #expect(t < states, "\(record.code): state \(s) leaves the DFA")
                    if t < firstTail, reached.insert(t).inserted { stack.append(t) }
                    if t >= firstTail, t < states { reached.insert(t) }
                }
            }
            #expect(reached.count == states, "\(record.code): \(states - reached.count) states never reached")
            // The dead state stays dead and accepts nothing.
            for d in 0..<10 { #expect(target(0, d) == 0) }
            #expect(store.tables.pointee.words[Int(core.typeDFA) + 1] == 0)
            // The windows follow the labels, and each one's last word is 0.
            #expect(Int(core.typeTails) + _DFA.tailWindow * firstTail == Int(core.typeDFA) + 1 + firstTail)
            for s in firstTail..<states {
                #expect(store.tables.pointee.words[Int(core.typeTails) + _DFA.tailWindow * s + _DFA.tailWindow - 1] == 0, "\(record.code)")
            }
            tailStates += states - firstTail
        }
        #expect(tailStates > 3_000)
    }

    /// The type DFAs count digits (the generator's `leveled_type_dfa`): after any number of
    /// digits, a label has the general bit only where the region's possible lengths admit that
    /// number, in the rows' states and along the tail windows alike, and the general pattern's
    /// own bit comes with it. What `_type` leaves to the labels instead of a table of lengths.
    @Test func typeLabelsCarryThePossibleLengths() {
        let store = _Store.shared
        let words = store.tables.pointee.words
        var withGeneral = 0
        for index in store.regions.indices {
            let core = store.tables.pointee.core[index], code = store.regions[index].code
            let firstTail = Int(core.typeFirstTail)
            func check(_ label: UInt16, digits: Int) {
                guard label & _TypeBits.general != 0 else { return }
                withGeneral += 1
                #expect(core.possibleLengths &>> UInt32(digits) & 1 != 0, "\(code): general bit after \(digits) digits")
                #expect(label & _TypeBits.generalPattern != 0, "\(code)")
            }
            // Every (state, digits read) a walk can be in; a state merges numbers of digits
            // whose labels agree from there on.
            var seen: Set<[Int]> = [[Int(core.typeStart), 0]]
            var queue = [(Int(core.typeStart), 0)]
            while let (s, n) = queue.popLast() {
                guard s < firstTail else {
                    for left in 0..<_DFA.tailWindow {
                        check(words[Int(core.typeTails) + _DFA.tailWindow * s + left], digits: n + left)
                    }
                    continue
                }
                check(words[Int(core.typeDFA) + 1 + s], digits: n)
                for d in 0..<10 {
                    let t = Int(store.tables.pointee.typeRows[Int(core.typeRows) + 10 * s + d])
                    if t != 0, seen.insert([t, n + 1]).inserted { queue.append((t, n + 1)) }
                }
            }
        }
        #expect(withGeneral > 5_000)
    }

    /// The two walks of a type DFA, over ASCII digits (parsing) and over a number's packed digits
    /// (`classify`, `type(of:)`), give every region the same type at every length a packed
    /// value holds (1 to 16 digits), on random digits.
    @Test func typeWalksOverBytesAndPackedDigitsAgree() {
        let engine = PhoneNumberEngine()
        let store = _Store.shared
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var typed = 0
        for index in store.regions.indices {
            let record = store.tables.pointee.core[index]
            for length in 1...16 {
                for _ in 0..<24 {
                    var bytes = [UInt8]()
                    for _ in 0..<length {
                        state = state &* 6364136223846793005 &+ 1442695040888963407
                        bytes.append(0x30 + UInt8((state >> 33) % 10))
                    }
                    bytes.withUnsafeBufferPointer { digits in
                        let fromBytes = engine._type(digits, record)
                        #expect(engine._type(_NationalDigits(digits), record) == fromBytes, "\(store.regions[index].code)")
                        if fromBytes != .unknown { typed += 1 }
                    }
                }
            }
        }
        // Random digits rarely make valid numbers; the fixtures cover those. Some must here.
        #expect(typed > 100)
    }

    /// Numbers built by hand with odd fields (codes out of range, 17 digits and more, negative or
    /// many leading zeros) classify as the byte walk over their digits does, without trapping.
    @Test func handBuiltNumbersClassifyAsTheirDigits() {
        let engine = PhoneNumberEngine()
        for code in [-1, 0, 1, 7, 44, 39, 800, 999, 1000, Int.max] {
            for value: UInt64 in [0, 5, 2079460123, 12_345_678_901_234_567, UInt64.max] {
                for zeros in [-3, 0, 1, 2, 16, 40] {
                    let number = PhoneNumber(countryCode: code, nationalNumber: value, leadingZeros: zeros)
                    let bytes = number.withNationalSignificantNumber { engine._classify(code, $0) }
                    let found = engine._classify(number)
                    #expect(found?.index == bytes?.index && found?.type == bytes?.type, "\(code) \(zeros) \(value)")
                    #expect(engine.type(of: number) == (bytes?.type ?? .unknown))
                }
            }
        }
    }

    /// A store other than the shared one is built and freed whole (it frees the tables it made,
    /// and not the generated ones it reads in place: freeing those would abort the process); the
    /// number formats read again are the ones the shared store kept.
    @Test func storesBuildAndFreeTheirTables() {
        for _ in 0..<3 {
            #expect(PhoneNumberEngine.buildMetadataIndexForBenchmark() == _Store.shared.regions.count)
        }
        #expect(PhoneNumberEngine.buildNumberFormatsForBenchmark() == _Metadata.formatTableLines)
        #expect(_Store.shared.formats.count == _Metadata.formatTableLines)
        #expect(_Store.shared.regions.count == _Metadata.regionTableLines)
        #expect(_Store.shared.formats.map(\.format) == _Store.buildFormats().map(\.format))
    }

    /// The generated tables are read in place, and a type DFA walk over bytes that are not
    /// digits may read past their ends (up to 4,095 words after the words, 48 bytes before and
    /// 2,757 after the row bytes): that memory must be the tables' own zero padding.
    @Test func generatedTablesCarryTheirZeroPadding() {
        // Words are 12 bits.
        #expect((0..<_Metadata.wordCount).allSatisfy { _Metadata.words[$0] < 4096 })
        #expect(_Metadata.wordsPadding >= 4096)
        #expect(_Metadata.typeRowsPaddingBefore >= 48)
        #expect(_Metadata.typeRowsPaddingAfter >= 255 * 10 + 207)
        let words = _Metadata.words
        #expect((0..<_Metadata.wordsPadding).allSatisfy { words[_Metadata.wordCount + $0] == 0 })
        let rows = _Metadata.typeRows
        #expect((1..._Metadata.typeRowsPaddingBefore).allSatisfy { rows[-$0] == 0 })
        #expect((0..<_Metadata.typeRowsPaddingAfter).allSatisfy { rows[_Metadata.typeRowCount + $0] == 0 })
        // Every region's type DFA lies inside the tables.
        for region in _Store.shared.regions {
            #expect(Int(region.typeDFA) < _Metadata.wordCount)
            #expect(Int(region.typeRows) <= _Metadata.typeRowCount)
        }
    }

    /// What E.164 parsing and classification read of a region is in one cache line.
    @Test func regionRecordsKeepTheirHotFieldsInOneCacheLine() {
        #expect(MemoryLayout<_RegionCore>.stride == 128)
        #expect(MemoryLayout<_RegionCore>.offset(of: \_RegionCore.prefixStarts)! + MemoryLayout<_DigitPairs>.size <= 64)
        #expect(Int(bitPattern: _Store.shared.tables.pointee.core) % 64 == 0)
    }
}
