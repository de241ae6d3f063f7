import SMSEncoding
import SMSKitTestSupport
import Testing

/// ``SMSEncoder/measure(_:)`` against ``SMSEncoder/analyze(_:concatenationReference:)``: for every
/// combination of the options (smart encoding, NFC normalization, grapheme splitting, the
/// concatenation reference, no / some / all national tables), on the golden and national texts
/// and on random texts mixing GSM, escaped, national, CJK, Cyrillic, emoji, combining marks,
/// control characters and smart-replaceable punctuation, every field of the measurement equals
/// the analysis's field of the same name, and ``SMSEncoder/segmentCount(_:)`` its segment count.
@Suite("SMSEncoder.measure equals analyze")
struct MeasurementTests {
    /// Every option combination: 2 × 2 × 2 × 2 × 3 = 48 encoders.
    static let optionSets: [SMSEncoder.Options] = {
        var sets: [SMSEncoder.Options] = []
        let tables: [SMSEncoder.Options.NationalLanguageTables] = [.none, .only([.turkish, .hindi, .spanish]), .all]
        for table in tables {
            for smart in [false, true] {
                for normalizes in [false, true] {
                    for grapheme in [false, true] {
                        for reference in [SMSEncoder.Options.ConcatenationReference.eightBit, .sixteenBit] {
                            sets.append(.init(
                                nationalLanguageTables: table, smartEncoding: smart, normalizesToNFC: normalizes,
                                concatenationReference: reference, splitsAtGraphemeClusterBoundaries: grapheme))
                        }
                    }
                }
            }
        }
        return sets
    }()

    /// Pieces of text, some of several scalars (decomposed letters, ZWJ sequences, flags, CR LF),
    /// that reach the early exit, the default-tables loop, the national counter, the pipeline's
    /// rewrites and the grapheme source.
    static let pieces: [[String]] = [
        ["a", "Z", " ", "0", ".", ",", "\n", "\r\n", "@", "$", "_"],
        ["€", "{", "}", "[", "]", "~", "\\", "^", "|", "\u{0C}", "é", "Ä", "Ω", "ß"],
        ["ı", "ş", "Ş", "ç", "ğ", "İ", "á", "ã", "õ", "S\u{327}", "Á"],
        ["क", "ा", "।", "र", "्", "१", "ব", "া"],
        ["“", "”", "‘", "’", "—", "–", "…", "\u{A0}", "\u{2009}", "\u{AD}", "\u{FEFF}", "\u{200B}"],
        ["e\u{301}", "a\u{300}", "\u{301}", "\u{212B}", "A\u{30A}", "o\u{308}", "n\u{303}"],
        ["中", "文", "验", "证", "码", "한", "국", "日", "本", "П", "р", "и", "в", "е", "т", "ب", "ی"],
        ["😀", "👍🏽", "🇩🇪", "🇫🇷", "👨‍👩‍👧", "\u{FE0F}", "𝄞", "\u{200D}"],
        ["\t", "\u{0}", "\u{7}", "\u{1B}", "\u{7F}", "\u{FFFD}"],
    ]

    /// A random text: mostly from one group of pieces, some from a second, from empty to several
    /// segments (and past 160 characters of plain ASCII, the early exit's multipart case).
    static func randomText(_ random: inout SplitMix64) -> String {
        let main = random.below(pieces.count)
        let other = random.below(pieces.count)
        let share = [0, 1, 5, 30][random.below(4)]
        let length = [0, 3, 20, 70, 150, 170, 320, 700][random.below(8)]
        var text = ""
        for _ in 0..<length {
            let group = random.below(100) < share ? other : main
            text += random.pick(pieces[group])
        }
        return text
    }

    /// Fixed texts: the golden and national cases, and boundaries of each counting path.
    static let fixedTexts: [String] = GoldenSegmentTests.cases.map(\.text) + [
        NationalLanguageTests.hindi, NationalLanguageTests.bengali, NationalLanguageTests.turkish, NationalLanguageTests.arabic,
        String(repeating: "a", count: 152) + "\r\n" + String(repeating: "b", count: 152),
        String(repeating: "é", count: 161), String(repeating: "€", count: 81), String(repeating: "ı", count: 156),
        "Don’t miss it — 50% off…", "Cafe\u{301} \u{212B}ngstr\u{F6}m", String(repeating: "👍🏽", count: 40),
        String(repeating: "中文", count: 200) + "漢字かなカナ" + String(repeating: "a", count: 10),
        // 100 distinct CJK characters twice, then astral ones: the distinct list past 64 entries.
        String(String.UnicodeScalarView((0x4E00..<0x4E64).map { Unicode.Scalar($0)! })) + "e\u{301}"
            + String(String.UnicodeScalarView((0x4E00..<0x4E64).map { Unicode.Scalar($0)! })) + "😀👍🏽🇩🇪—",
    ]

    /// The analysis's unencodable characters, each once, in text order.
    static func distinct(_ analysis: SMSAnalysis) -> [Unicode.Scalar] {
        var seen: [Unicode.Scalar] = []
        for character in analysis.unencodableCharacters {
            let scalar = Unicode.Scalar(character.codePoint)!
            if !seen.contains(scalar) { seen.append(scalar) }
        }
        return seen
    }

    /// The differences between `measure` and `analyze` on `text`, or an empty list.
    static func differences(_ encoder: SMSEncoder, _ text: String) -> [String] {
        let measurement = encoder.measure(text)
        let analysis = encoder.analyze(text)
        var found: [String] = []
        if measurement.encoding != analysis.encoding { found.append("encoding \(measurement.encoding) != \(analysis.encoding)") }
        if measurement.nationalLanguage != analysis.nationalLanguage { found.append("national tables differ") }
        if measurement.length != analysis.length { found.append("length \(measurement.length) != \(analysis.length)") }
        if measurement.segmentCount != analysis.segmentCount { found.append("segments \(measurement.segmentCount) != \(analysis.segmentCount)") }
        if measurement.remainingInLastSegment != analysis.remainingInLastSegment {
            found.append("remaining \(measurement.remainingInLastSegment) != \(analysis.remainingInLastSegment)")
        }
        if measurement.exceedsConcatenationLimit != analysis.exceedsConcatenationLimit { found.append("limit flag differs") }
        let expected = distinct(analysis)
        if measurement.unencodableCharacters != expected {
            found.append("unencodable \(measurement.unencodableCharacters.map { String($0.value, radix: 16) }) != \(expected.map { String($0.value, radix: 16) })")
        }
        if encoder.segmentCount(text) != analysis.segmentCount { found.append("segmentCount(_:) \(encoder.segmentCount(text))") }
        return found
    }

    @Test("every field equals the analysis's, for every option combination", arguments: 0..<MeasurementTests.optionSets.count)
    func equalsAnalysis(optionIndex: Int) {
        let encoder = SMSEncoder(options: Self.optionSets[optionIndex])
        var random = SplitMix64(seed: 0x5E6_28 &+ UInt64(optionIndex))
        var texts = Self.fixedTexts
        for _ in 0..<150 { texts.append(Self.randomText(&random)) }
        // The property tests' generator too (pools of single scalars).
        for round in 0..<60 { texts.append(SMSEncodingPropertyTests.text(&random, maxLength: round % 10 == 0 ? 1_200 : 400)) }
        var failures: [String] = []
        var kinds: Set<String> = []
        for text in texts {
            let found = Self.differences(encoder, text)
            if !found.isEmpty && failures.count < 10 {
                failures.append("\(found.joined(separator: "; ")) for \(text.unicodeScalars.map { String($0.value, radix: 16) })")
            }
            let measurement = encoder.measure(text)
            kinds.insert("\(measurement.encoding)-\(measurement.segmentCount > 1 ? "multi" : "single")"
                + (measurement.unencodableCharacters.count > 64 ? "-many" : ""))
        }
        #expect(failures.isEmpty, "\(Self.optionSets[optionIndex]): \(failures.joined(separator: "\n"))")
        // The texts reach GSM and UCS-2, one part and several, and more than 64 distinct
        // unencodable characters (where the distinct list switches to a set).
        #expect(kinds.isSuperset(of: ["gsm7-single", "gsm7-multi", "ucs2-single", "ucs2-multi", "ucs2-multi-many"]), "\(kinds)")
    }

    @Test("smart encoding that cannot avoid UCS-2 lists the unreplaced characters")
    func smartFallback() {
        let encoder = SMSEncoder(options: .init(smartEncoding: true))
        // "—" and "’" have replacements, "中" has none: the message stays UCS-2 and, as in the
        // analysis, the characters are those of the text without replacements.
        let measurement = encoder.measure("Don’t — 中")
        #expect(measurement.encoding == .ucs2)
        #expect(measurement.unencodableCharacters == ["’", "—", "中"])
        #expect(encoder.measure("Don’t — ok").unencodableCharacters.isEmpty)
        // With normalization, a decomposed letter that composes to a GSM letter does not force UCS-2.
        let normalizing = SMSEncoder(options: .init(normalizesToNFC: true))
        #expect(normalizing.measure("Cafe\u{301} 中").unencodableCharacters == ["中"])
        #expect(SMSEncoder().measure("Cafe\u{301} 中").unencodableCharacters == ["\u{301}", "中"])
    }
}
