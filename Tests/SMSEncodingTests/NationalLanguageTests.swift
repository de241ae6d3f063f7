import SMSEncoding
import Testing

@Suite("National language tables and seed texts")
struct NationalLanguageTests {
    static let allTables = SMSEncoder(options: .init(nationalLanguageTables: .all))

    /// Sentences from ../shared/seeds (Firebase phone sign-in guides), with the expected results
    /// worked out by hand from the TS 23.038 tables.
    struct SeedCase: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var options: SMSEncoder.Options
        var encoding: SMSCharacterEncoding
        var tables: SMSNationalLanguageTables?
        var length: Int
        var segments: Int
        var testDescription: String { name }
    }

    // Hindi (000): 76 scalars, all in the BMP. Default tables: no Devanagari, so UCS-2; 76 units > 70
    // -> 2 parts of at most 67. Hindi tables: every letter, sign and the space are in the Hindi
    // locking table; "-" (in वन-टाइम) and the danda "।" are only in the Hindi single-shift table, so
    // 74 + 2 × 2 = 78 septets; two national IEs leave 152 septets in a single SMS -> 1 segment.
    static let hindi = "उपयोगकर्ता एसएमएस संदेश में निहित वन-टाइम कोड का उपयोग करके साइन इन करता है।"
    // Bengali (001): 74 scalars; UCS-2 by default -> 2 segments. The Bengali locking table has every
    // letter and sign (য় is য + nukta U+09BC, both in the table), but the danda "।" (U+0964) is in no
    // Bengali table: the Bengali single-shift table (A.2.4) lacks it, while the Gujarati, Hindi, Kannada,
    // Malayalam, Oriya, Punjabi and Tamil single-shift tables have it. So with only the Bengali tables the
    // text stays UCS-2; with all tables it is Bengali locking + a single shift that has the danda:
    // 73 + 2 = 75 septets, two IEs, 1 segment. All those pairs tie; the lowest NLI (Gujarati, 5) wins.
    static let bengali = "ব্যবহারকারী এসএমএস বার্তায় থাকা একটি এককালীন কোড ব্যবহার করে সাইন ইন করে।"
    // Turkish (004): 73 scalars; ı (U+0131) and ç are not in the default alphabet -> UCS-2, 73 units
    // -> 2 segments. The Turkish locking table has ı (0x07) and ç (0x60), so 73 septets with one IE
    // (155 free): 1 segment, 82 left. Turkish single shift instead would cost 73 + 4 (three ı, one ç)
    // = 77 septets, so Android's rule (most septets left) picks the locking table.
    static let turkish = "Kullanıcı, SMS mesajında bulunan bir kerelik kodu kullanarak oturum açar."
    // Arabic (002): 99 scalars. Arabic has no national table; the Urdu tables share many letters but
    // lack ي (U+064A), ك (U+0643), ة, أ, إ, ى and ه (Urdu uses ی, ک and ہ): UCS-2 even with all tables,
    // 99 units -> 2 segments (67 + 32).
    static let arabic = "يمكنك استخدام مصادقة Firebase لتسجيل دخول أحد المستخدمين عن طريق إرسال رسالة SMS إلى هاتف المستخدم."

    static let seedCases: [SeedCase] = [
        SeedCase(name: "Hindi, default tables", text: hindi, options: .init(), encoding: .ucs2, tables: nil, length: 76, segments: 2),
        SeedCase(name: "Hindi, Hindi tables", text: hindi, options: .init(nationalLanguageTables: .only([.hindi])),
                 encoding: .gsm7, tables: .init(lockingShift: .hindi, singleShift: .hindi), length: 78, segments: 1),
        SeedCase(name: "Hindi, all tables", text: hindi, options: .init(nationalLanguageTables: .all),
                 encoding: .gsm7, tables: .init(lockingShift: .hindi, singleShift: .hindi), length: 78, segments: 1),
        SeedCase(name: "Hindi, only Bengali tables", text: hindi, options: .init(nationalLanguageTables: .only([.bengali])),
                 encoding: .ucs2, tables: nil, length: 76, segments: 2),
        SeedCase(name: "Bengali, default tables", text: bengali, options: .init(), encoding: .ucs2, tables: nil, length: 74, segments: 2),
        SeedCase(name: "Bengali, Bengali tables", text: bengali, options: .init(nationalLanguageTables: .only([.bengali])),
                 encoding: .ucs2, tables: nil, length: 74, segments: 2),
        SeedCase(name: "Bengali, Bengali and Hindi tables", text: bengali, options: .init(nationalLanguageTables: .only([.bengali, .hindi])),
                 encoding: .gsm7, tables: .init(lockingShift: .bengali, singleShift: .hindi), length: 75, segments: 1),
        SeedCase(name: "Bengali, all tables", text: bengali, options: .init(nationalLanguageTables: .all),
                 encoding: .gsm7, tables: .init(lockingShift: .bengali, singleShift: .gujarati), length: 75, segments: 1),
        SeedCase(name: "Turkish, default tables", text: turkish, options: .init(), encoding: .ucs2, tables: nil, length: 73, segments: 2),
        SeedCase(name: "Turkish, Turkish tables", text: turkish, options: .init(nationalLanguageTables: .only([.turkish])),
                 encoding: .gsm7, tables: .init(lockingShift: .turkish), length: 73, segments: 1),
        SeedCase(name: "Arabic, default tables", text: arabic, options: .init(), encoding: .ucs2, tables: nil, length: 99, segments: 2),
        SeedCase(name: "Arabic, all tables", text: arabic, options: .init(nationalLanguageTables: .all),
                 encoding: .ucs2, tables: nil, length: 99, segments: 2),
    ]

    @Test(arguments: seedCases)
    func seed(_ testCase: SeedCase) throws {
        let encoder = SMSEncoder(options: testCase.options)
        let analysis = encoder.analyze(testCase.text)
        #expect(analysis.encoding == testCase.encoding)
        #expect(analysis.nationalLanguage == testCase.tables)
        #expect(analysis.length == testCase.length)
        #expect(analysis.segmentCount == testCase.segments)
        #expect(encoder.segmentCount(testCase.text) == testCase.segments)
        #expect(analysis.parts.map(\.text).joined() == testCase.text)
        if let tables = testCase.tables {
            // The header names the tables: single shift IEI 0x24, locking shift IEI 0x25.
            var expectedHeader: [UInt8] = []
            if let shift = tables.singleShift { expectedHeader += [0x24, 0x01, shift.rawValue] }
            if let locking = tables.lockingShift { expectedHeader += [0x25, 0x01, locking.rawValue] }
            #expect(analysis.parts[0].userDataHeader == [UInt8(expectedHeader.count)] + expectedHeader)
            // And the septets decode back with those tables.
            let part = analysis.parts[0]
            let headerBits = part.userDataHeader.count * 8 + part.fillBits
            let septets = try GSM7.unpack(part.userData.dropFirst(part.userDataHeader.count), septetCount: part.length, fillBits: part.fillBits)
            #expect(headerBits % 7 == 0)
            #expect(try GSM7.decode(septets, tables: tables) == testCase.text)
        }
    }

    @Test("Bengali with only Bengali tables: the danda forces UCS-2")
    func bengaliDanda() {
        let analysis = SMSEncoder(options: .init(nationalLanguageTables: .only([.bengali]))).analyze(Self.bengali)
        #expect(analysis.unencodableCharacters.map(\.character) == ["।"])
        #expect(analysis.unencodableCharacters[0].scalarOffset == 73)
        // Removing it saves a segment; allowing all tables too.
        #expect(analysis.suggestions.contains { $0.fix == .removeCharacter("।") && $0.segmentsSaved == 1 && $0.encoding == .gsm7 })
        #expect(analysis.suggestions.contains { $0.fix == .enableNationalLanguageTables && $0.segmentsSaved == 1 })
    }

    @Test("Arabic lists the letters that no table has, with positions")
    func arabicUnencodable() {
        let analysis = Self.allTables.analyze(Self.arabic)
        let letters = Set(analysis.unencodableCharacters.map(\.character))
        #expect(letters == ["ي", "ك", "ة", "أ", "إ", "ى", "ه"])
        #expect(analysis.unencodableCharacters.count == 13)
        let first = analysis.unencodableCharacters[0]
        #expect(first.character == "ي" && first.utf16Offset == 0 && first.scalarOffset == 0)
        for character in analysis.unencodableCharacters {
            let index = Self.arabic.utf16.index(Self.arabic.utf16.startIndex, offsetBy: character.utf16Offset)
            #expect(Self.arabic.unicodeScalars[index].value == character.codePoint)
        }
    }

    struct ChoiceCase: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var languages: SMSEncoder.Options.NationalLanguageTables
        var tables: SMSNationalLanguageTables?
        var length: Int
        var testDescription: String { name }
    }

    static let choiceCases: [ChoiceCase] = [
        // Spanish has only a single-shift table: á and ó cost 2 each -> 32 + 3 = 35 septets, 120 left of 155.
        ChoiceCase(name: "Spanish single shift", text: "¿Cómo está? Su código es 123456.", languages: .only([.spanish]),
                   tables: .init(singleShift: .spanish), length: 35),
        // With all tables, Portuguese locking + another single shift costs 33 septets but two IEs (152 - 33
        // = 119 left), so Spanish single shift (120 left) wins: most septets left, as Android does.
        ChoiceCase(name: "Spanish beats Portuguese pair", text: "¿Cómo está? Su código es 123456.", languages: .all,
                   tables: .init(singleShift: .spanish), length: 35),
        // Portuguese locking has ã, ç, ó: 46 septets, one IE.
        ChoiceCase(name: "Portuguese locking", text: "Atenção: o seu código de verificação é 123456.", languages: .all,
                   tables: .init(lockingShift: .portuguese), length: 46),
        // Plain GSM text never takes a national table, even when all are allowed.
        // 13 + ("{123456}": 6 + 2 × 2) + 1 + ("€5": 2 + 1) = 27 septets.
        ChoiceCase(name: "default wins for GSM text", text: "Your code is {123456} €5", languages: .all, tables: nil, length: 27),
        // Turkish single shift only, via the set: Portuguese is not enabled.
        ChoiceCase(name: "Turkish shift with default alphabet", text: "Şifre: 1234", languages: .only([.turkish]),
                   tables: .init(lockingShift: .turkish), length: 11),
    ]

    @Test(arguments: choiceCases)
    func tableChoice(_ testCase: ChoiceCase) {
        let encoder = SMSEncoder(options: .init(nationalLanguageTables: testCase.languages))
        let analysis = encoder.analyze(testCase.text)
        #expect(analysis.encoding == .gsm7)
        #expect(analysis.nationalLanguage == testCase.tables)
        #expect(analysis.length == testCase.length)
    }

    @Test("national header costs: 155, 152, 149, 146 septets")
    func headerCosts() {
        // ı is 1 septet in the Turkish locking table: one IE -> 155 in one SMS, 149 per part.
        let turkish = SMSEncoder(options: .init(nationalLanguageTables: .only([.turkish])))
        #expect(turkish.segmentCount("ı" + String(repeating: "a", count: 154)) == 1)
        #expect(turkish.segmentCount("ı" + String(repeating: "a", count: 155)) == 2)
        #expect(turkish.segmentCount("ı" + String(repeating: "a", count: 297)) == 2)  // 298 = 2 × 149
        #expect(turkish.segmentCount("ı" + String(repeating: "a", count: 298)) == 3)
        // Hindi text with a single-shift character needs two IEs: 152 in one SMS, 146 per part.
        let hindi = SMSEncoder(options: .init(nationalLanguageTables: .only([.hindi])))
        let letter = "क"  // locking
        let danda = "।"   // single shift: 2 septets
        #expect(hindi.segmentCount(danda + String(repeating: letter, count: 150)) == 1)
        #expect(hindi.segmentCount(danda + String(repeating: letter, count: 151)) == 2)
        #expect(hindi.analyze(danda + String(repeating: letter, count: 290)).segmentCount == 2)  // 292 = 2 × 146
        #expect(hindi.analyze(danda + String(repeating: letter, count: 291)).segmentCount == 3)
    }
}
