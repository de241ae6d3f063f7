import SMSEncoding
import SMSKitTestSupport
import Testing

@Suite("Analysis: parts, headers, changes, suggestions")
struct AnalysisTests {
    @Test("an emoji on a part boundary is not split")
    func emojiOnBoundary() {
        // 66 units, then a surrogate pair at units 67-68: it would straddle the 67-unit part.
        let text = String(repeating: "中", count: 66) + "😀" + String(repeating: "中", count: 10)
        let analysis = SMSEncoder().analyze(text)
        #expect(analysis.encoding == .ucs2)
        #expect(analysis.length == 78)
        #expect(analysis.segmentCount == 2)
        #expect(analysis.parts[0].text == String(repeating: "中", count: 66))
        #expect(analysis.parts[0].length == 66)
        #expect(analysis.parts[1].text.hasPrefix("😀"))
        #expect(analysis.parts[1].length == 12)
    }

    @Test("grapheme-cluster option keeps a ZWJ sequence together")
    func graphemeClusters() {
        let family = "👨‍👩‍👧"  // 3 emoji (2 units each) + 2 ZWJ = 8 units
        let text = String(repeating: "中", count: 63) + family + String(repeating: "中", count: 10)
        // Scalar splitting: 63 + 👨 (2) + ZWJ (1) = 66, 👩 would make 68 > 67: split inside the family.
        let plain = SMSEncoder().analyze(text)
        #expect(plain.segmentCount == 2)
        #expect(plain.parts[0].text.unicodeScalars.count == 65)
        let clusters = SMSEncoder(options: .init(splitsAtGraphemeClusterBoundaries: true))
        let analysis = clusters.analyze(text)
        #expect(analysis.segmentCount == 2)
        #expect(analysis.parts[0].text == String(repeating: "中", count: 63))
        #expect(analysis.parts[1].text.hasPrefix(family))
        #expect(clusters.segmentCount(text) == 2)
        // CRLF is one cluster: 152 "a" + CRLF + "a"s put CRLF whole into part 2.
        let crlf = String(repeating: "a", count: 152) + "\r\n" + String(repeating: "a", count: 10)
        let split = clusters.analyze(crlf)
        #expect(split.parts[0].text == String(repeating: "a", count: 152))
        #expect(split.parts[1].text.hasPrefix("\r\n"))
        #expect(SMSEncoder().analyze(crlf).parts[0].text.hasSuffix("\r"))
    }

    @Test("user data headers: 8-bit and 16-bit references, fill bits, TP-UDL")
    func headers() throws {
        let text = String(repeating: "a", count: 200)
        let eight = SMSEncoder().analyze(text, concatenationReference: 0x1A2B)
        #expect(eight.parts.count == 2)
        #expect(eight.parts[0].userDataHeader == [0x05, 0x00, 0x03, 0x2B, 0x02, 0x01])
        #expect(eight.parts[1].userDataHeader == [0x05, 0x00, 0x03, 0x2B, 0x02, 0x02])
        #expect(eight.parts[0].fillBits == 1)
        #expect(eight.parts[0].length == 153)
        #expect(eight.parts[0].userDataLength == 160)
        #expect(eight.parts[0].userData.count == 140)
        let sixteenEncoder = SMSEncoder(options: .init(concatenationReference: .sixteenBit))
        let sixteen = sixteenEncoder.analyze(text, concatenationReference: 0x1A2B)
        #expect(sixteen.parts[0].userDataHeader == [0x06, 0x08, 0x04, 0x1A, 0x2B, 0x02, 0x01])
        #expect(sixteen.parts[0].length == 152)
        #expect(sixteen.parts[0].fillBits == 0)
        #expect(sixteen.parts[0].userDataLength == 160)
        #expect(sixteenEncoder.segmentCount(String(repeating: "a", count: 304)) == 2)
        #expect(sixteenEncoder.segmentCount(String(repeating: "a", count: 305)) == 3)
        #expect(sixteenEncoder.segmentCount(String(repeating: "中", count: 132)) == 2)
        #expect(sixteenEncoder.segmentCount(String(repeating: "中", count: 133)) == 3)
        // UCS-2 parts: header + UTF-16BE.
        let ucs2 = SMSEncoder().analyze(String(repeating: "中", count: 71), concatenationReference: 7)
        #expect(ucs2.parts[0].userDataHeader == [0x05, 0x00, 0x03, 0x07, 0x02, 0x01])
        #expect(Array(ucs2.parts[0].userData.prefix(8)) == [0x05, 0x00, 0x03, 0x07, 0x02, 0x01, 0x4E, 0x2D])
        #expect(ucs2.parts[0].userDataLength == 6 + 134)
        // Every GSM part's user data decodes back to its text.
        for part in eight.parts {
            let septets = try GSM7.unpack(part.userData.dropFirst(part.userDataHeader.count), septetCount: part.length, fillBits: part.fillBits)
            #expect(try GSM7.decode(septets) == part.text)
        }
    }

    @Test("a single part has no header")
    func singlePart() {
        let analysis = SMSEncoder().analyze("Your code is 123456")
        #expect(analysis.parts.count == 1)
        #expect(analysis.parts[0].userDataHeader.isEmpty)
        #expect(analysis.parts[0].userDataLength == 19)
        #expect(analysis.parts[0].userData.count == (19 * 7 + 7) / 8)
        #expect(analysis.remainingInLastSegment == 141)
        #expect(analysis.unencodableCharacters.isEmpty)
        #expect(analysis.suggestions.isEmpty)
    }

    @Test("smart encoding replaces lookalikes and reports them")
    func smartEncoding() {
        let text = "“Hello” — it’s 10:00…\u{00A0}ok"
        let plain = SMSEncoder().analyze(text)
        #expect(plain.encoding == .ucs2)
        #expect(plain.unencodableCharacters.map(\.character) == ["“", "”", "—", "’", "…", "\u{00A0}"])
        #expect(plain.suggestions.contains { $0.fix == .enableSmartEncoding && $0.encoding == .gsm7 })
        #expect(plain.suggestions.contains { $0.fix == .replaceCharacter("…", with: "...") })
        let smart = SMSEncoder(options: .init(smartEncoding: true)).analyze(text)
        #expect(smart.encoding == .gsm7)
        #expect(smart.text == "\"Hello\" - it's 10:00... ok")
        #expect(smart.length == smart.text.count)
        #expect(smart.changes.count == 6)
        #expect(smart.changes.allSatisfy { $0.kind == .smartEncoding })
        #expect(smart.changes[0] == SMSTextChange(kind: .smartEncoding, original: "“", replacement: "\"", utf16Offset: 0))
        #expect(smart.changes.contains { $0.original == "…" && $0.replacement == "..." })
        #expect(smart.parts.map(\.text).joined() == smart.text)
        // Invisible characters are removed.
        let zeroWidth = SMSEncoder(options: .init(smartEncoding: true)).analyze("a\u{200B}b")
        #expect(zeroWidth.text == "ab")
        #expect(zeroWidth.changes == [SMSTextChange(kind: .smartEncoding, original: "\u{200B}", replacement: "", utf16Offset: 1)])
    }

    @Test("smart encoding is not applied when the message stays UCS-2")
    func smartEncodingOnlyWhenItHelps() {
        let text = "中文 — “引号”"
        let encoder = SMSEncoder(options: .init(smartEncoding: true))
        let analysis = encoder.analyze(text)
        #expect(analysis.encoding == .ucs2)
        #expect(analysis.text == text)
        #expect(analysis.changes.isEmpty)
        #expect(encoder.segmentCount(text) == 1)
    }

    @Test("NFC normalization composes decomposed letters and reports it")
    func normalization() {
        let decomposed = "Cafe\u{301} cre\u{300}me A\u{30A} \u{212B}"
        #expect(SMSEncoder().analyze(decomposed).encoding == .ucs2)
        let encoder = SMSEncoder(options: .init(normalizesToNFC: true))
        let analysis = encoder.analyze(decomposed)
        #expect(analysis.encoding == .gsm7)
        #expect(analysis.text == "Café crème Å Å")
        #expect(analysis.text.unicodeScalars.count == 14)
        #expect(analysis.changes.map(\.kind) == [.normalization, .normalization, .normalization, .normalization])
        #expect(analysis.changes[0] == SMSTextChange(kind: .normalization, original: "e\u{301}", replacement: "é", utf16Offset: 3))
        #expect(analysis.changes[3].original == "\u{212B}")
        #expect(encoder.segmentCount(decomposed) == 1)
        // Without the option, the suggestion says what normalization would do.
        #expect(SMSEncoder().analyze(decomposed).suggestions.contains { $0.fix == .enableNormalization && $0.encoding == .gsm7 })
        // Chained composition (Turkish Ş from S + cedilla) with national tables.
        let turkish = SMSEncoder(options: .init(nationalLanguageTables: .only([.turkish]), normalizesToNFC: true))
        #expect(turkish.analyze("S\u{327}ifre").nationalLanguage != nil)
        #expect(turkish.analyze("S\u{327}ifre").encoding == .gsm7)
        // A mark that composes with nothing in the tables stays (and forces UCS-2).
        #expect(encoder.analyze("x\u{301}").encoding == .ucs2)
        #expect(encoder.analyze("x\u{301}").text == "x\u{301}")
    }

    @Test("suggestions count the segments each fix saves")
    func suggestions() {
        // 150 GSM characters plus one em dash: UCS-2, 151 units -> 3 parts; without it, GSM 7-bit, 1 part.
        let text = String(repeating: "a", count: 150) + "—"
        let analysis = SMSEncoder().analyze(text)
        #expect(analysis.segmentCount == 3)
        let first = analysis.suggestions[0]
        #expect(first.segmentsSaved == 2)
        #expect(first.segmentCount == 1)
        #expect(analysis.suggestions.contains { $0.fix == .replaceCharacter("—", with: "-") && $0.occurrences == 1 && $0.segmentsSaved == 2 })
        #expect(analysis.suggestions.contains { $0.fix == .enableSmartEncoding && $0.segmentsSaved == 2 })
        // Two different characters: each alone saves nothing, removing both saves 2.
        let two = SMSEncoder().analyze(String(repeating: "a", count: 150) + "中😀")
        #expect(two.suggestions.first?.fix == .removeUnencodableCharacters)
        #expect(two.suggestions.first?.segmentsSaved == 2)
        #expect(two.suggestions.contains { $0.fix == .removeCharacter("中") && $0.segmentsSaved == 0 })
        #expect(two.suggestions.map(\.segmentsSaved) == two.suggestions.map(\.segmentsSaved).sorted(by: >))
    }

    @Test("very long and odd texts do not crash")
    func robustness() {
        let encoder = SMSEncoder(options: .init(nationalLanguageTables: .all, smartEncoding: true, normalizesToNFC: true))
        let long = String(repeating: "a€", count: 30_000)
        let analysis = encoder.analyze(long)
        #expect(analysis.exceedsConcatenationLimit)
        #expect(analysis.segmentCount == encoder.segmentCount(long))
        #expect(analysis.parts.map(\.text).joined() == long)
        #expect(analysis.parts.allSatisfy { $0.userData.count <= 140 })
        let odd = "\u{0}\u{1B}\u{7F}\u{FFFD}\u{10FFFF}\u{301}\u{301}" + String(repeating: "\u{301}", count: 200)
        for options in [SMSEncoder.Options(), SMSEncoder.Options(splitsAtGraphemeClusterBoundaries: true)] {
            let encoder = SMSEncoder(options: options)
            let result = encoder.analyze(odd)
            #expect(result.encoding == .ucs2)
            #expect(result.segmentCount == encoder.segmentCount(odd))
            #expect(result.parts.map(\.text).joined() == odd)
            #expect(result.parts.allSatisfy { $0.userData.count <= 140 })
        }
    }

    static let optionSets: [SMSEncoder.Options] = [
        .init(),
        .init(nationalLanguageTables: .all),
        .init(nationalLanguageTables: .only([.turkish, .hindi, .spanish]), smartEncoding: true),
        .init(smartEncoding: true, normalizesToNFC: true, concatenationReference: .sixteenBit),
        .init(nationalLanguageTables: .all, normalizesToNFC: true, splitsAtGraphemeClusterBoundaries: true),
        .init(smartEncoding: true, splitsAtGraphemeClusterBoundaries: true),
    ]

    /// Random texts over an alphabet of ASCII, escapes, Latin, Turkish, Devanagari, CJK, emoji,
    /// combining marks and lookalikes: segmentCount, analyze and the parts must agree.
    @Test("segmentCount, analyze and parts agree on random texts", arguments: 0..<optionSets.count)
    func consistency(_ optionIndex: Int) throws {
        let encoder = SMSEncoder(options: Self.optionSets[optionIndex])
        // Pools: GSM only, Turkish, Hindi (with its single-shift danda), and everything mixed.
        let pools: [[String]] = [
            ["a", "Z", " ", "\n", "\r\n", "€", "]", "{", "é", "0"],
            ["a", " ", "ı", "ş", "Ş", "ç", "ğ", "İ", "€", "S\u{327}"],
            ["क", "ा", "।", "र", " ", "्", "-", "1"],
            ["a", "Z", " ", "\n", "\r\n", "€", "]", "{", "é", "e\u{301}", "ı", "ş", "Ş", "ç", "á", "ã",
             "क", "ा", "।", "ব", "中", "😀", "👨‍👩‍👧", "🇫🇷", "—", "“", "…", "\u{A0}", "\u{200B}", "ب", "ی"],
        ]
        var generator = SplitMix64(seed: UInt64(optionIndex) &* 7919 &+ 1)
        var seen: Set<String> = []
        for round in 0..<160 {
            let pool = pools[round % pools.count]
            let length = Int(generator.next() % 400)
            var text = ""
            for _ in 0..<length { text += pool[Int(generator.next() % UInt64(pool.count))] }
            let analysis = encoder.analyze(text, concatenationReference: UInt16(truncatingIfNeeded: length))
            #expect(analysis.segmentCount == encoder.segmentCount(text), "\(text.debugDescription)")
            #expect(analysis.parts.count == analysis.segmentCount)
            #expect(analysis.parts.map(\.text).joined() == analysis.text)
            #expect(analysis.parts.map(\.length).reduce(0, +) == analysis.length)
            let headerOctets = analysis.parts[0].userDataHeader.count
            let kind = analysis.encoding == .ucs2 ? "ucs2" : (analysis.nationalLanguage == nil ? "gsm" : "national")
            seen.insert(kind + (analysis.segmentCount > 1 ? "-multi" : "-single"))
            for part in analysis.parts {
                #expect(part.userData.count <= 140)
                #expect(part.userDataHeader.count == headerOctets)
                if analysis.encoding == .gsm7 {
                    #expect((headerOctets * 8 + part.fillBits) / 7 + part.length <= 160)
                    let septets = try GSM7.unpack(part.userData.dropFirst(headerOctets), septetCount: part.length, fillBits: part.fillBits)
                    #expect(try GSM7.decode(septets, tables: analysis.nationalLanguage ?? .default) == part.text)
                } else {
                    #expect(headerOctets + 2 * part.length <= 140)
                }
            }
        }
        // The random texts reach every path the options allow.
        // (With national tables, long GSM texts with € often take the Turkish locking table, where
        // € is one septet, so "gsm-multi" is not required there.)
        #expect(seen.isSuperset(of: ["gsm-single", "ucs2-single", "ucs2-multi"]), "\(seen)")
        if Self.optionSets[optionIndex].nationalLanguageTables != .none {
            #expect(seen.isSuperset(of: ["national-single", "national-multi"]), "\(seen)")
        } else {
            #expect(seen.contains("gsm-multi"), "\(seen)")
        }
    }
}
