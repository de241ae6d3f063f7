import Foundation
import SMSEncoding
import Testing

/// Cross-checks every cell of the project's GSM tables (`Sources/SMSEncoding/Generated/_GSMTables.swift`,
/// made by `tools/gsm/generate_tables.py`) against the 3GPP TS 23.038 v18 CSV set in
/// `../shared/data/gsm0338` (next to the repository), when that folder exists.
///
/// Known errata of the CSV set, applied in our tables and expected here (checked against Android's
/// GsmAlphabet.java and warthog618/sms; see the folder's README):
/// - Locking-shift tables of the ten Indic-script languages (Bengali, Gujarati, Hindi, Kannada,
///   Malayalam, Oriya, Punjabi, Tamil, Telugu, Urdu), septet 0x2C: the CSV has `'` (U+0027); the
///   standard's character is `,` (U+002C).
/// - Kannada locking-shift table, 0x24: the CSV has U+0CAA, a duplicate of 0x3D; it is U+0CA1.
/// - Telugu single-shift table, 0x65: the CSV lacks `€` (U+20AC); it is there.
/// - Not an erratum: Hindi locking 0x00...0x02 is U+0901...U+0903 (some libraries use Bengali U+0981...).
/// Septet 0x1B, shown as `SP` in the CSV, is the escape to the single-shift table and is 0 (undefined)
/// in our tables.
@Suite("GSM tables against the TS 23.038 CSV set")
struct TableCrossCheckTests {
    static let dataFolder: URL = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()  // repository root
        .appendingPathComponent("../shared/data/gsm0338").standardizedFileURL
    static let dataAvailable = FileManager.default.fileExists(atPath: dataFolder.appendingPathComponent("default_lock.csv").path)

    static let files: [(nli: Int, locking: String?, shift: String)] = [
        (0, "default_lock.csv", "default_shift.csv"), (1, "turkish_lock.csv", "turkish_shift.csv"),
        (2, nil, "spanish_shift.csv"), (3, "portugese_lock.csv", "portugese_shift.csv"),
        (4, "bengali_lock.csv", "bengali_shift.csv"), (5, "gujarati_lock.csv", "gujarati_shift.csv"),
        (6, "hindi_lock.csv", "hindi_shift.csv"), (7, "kannada_lock.csv", "kannada_shift.csv"),
        (8, "malayalam_lock.csv", "malayalam_shift.csv"), (9, "oriya_lock.csv", "oriya_shift.csv"),
        (10, "punjabi_lock.csv", "punjabi_shift.csv"), (11, "tamil_lock.csv", "tamil_shift.csv"),
        (12, "telugu_lock.csv", "telugu_shift.csv"), (13, "urdu_lock.csv", "urdu_shift.csv"),
    ]

    /// (locking?, NLI, septet) -> (CSV value, our value)
    static let errata: [String: (csv: UInt16, ours: UInt16)] = {
        var errata: [String: (UInt16, UInt16)] = [:]
        for nli in 4...13 { errata["L\(nli)@44"] = (0x0027, 0x002C) }
        errata["L7@36"] = (0x0CAA, 0x0CA1)
        errata["S12@101"] = (0x0000, 0x20AC)
        return errata
    }()

    /// Parses one CSV table into 128 cells (0 = empty; 0x1B forced to 0).
    static func parse(_ file: String) throws -> [UInt16] {
        let text = try String(contentsOf: dataFolder.appendingPathComponent(file), encoding: .utf8)
        var cells = [UInt16](repeating: 0, count: 128)
        let lines = text.split(whereSeparator: \.isNewline).dropFirst()
        #expect(lines.count == 16, "\(file): 16 rows")
        for line in lines {
            let fields = splitCSV(String(line))
            try #require(fields.count == 9, "\(file): 9 fields in \(line)")
            let low = try #require(Int(fields[0], radix: 16))
            for high in 0..<8 {
                let septet = high * 16 + low
                let field = fields[high + 1]
                let value: UInt16
                switch field {
                case "": value = 0
                case "SP": value = 0x20
                case "QM": value = 0x22
                case "LF": value = 0x0A
                case "CR": value = 0x0D
                default:
                    if field.unicodeScalars.count == 1 {
                        value = UInt16(field.unicodeScalars.first!.value)
                    } else {
                        value = try #require(UInt16(field, radix: 16), "\(file): cell \(field)")
                    }
                }
                cells[septet] = septet == 0x1B ? 0 : value
            }
        }
        return cells
    }

    static func splitCSV(_ line: String) -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false
        for character in line {
            if character == "\"" {
                quoted.toggle()
            } else if character == "," && !quoted {
                fields.append(field)
                field = ""
            } else {
                field.append(character)
            }
        }
        fields.append(field)
        return fields
    }

    @Test("every cell matches, apart from the documented errata", .enabled(if: dataAvailable, "../shared/data/gsm0338 is absent"))
    func everyCell() throws {
        var compared = 0
        var mismatches: [String] = []
        var errataSeen = 0
        for (nli, lockingFile, shiftFile) in Self.files {
            var pairs: [(key: String, csv: [UInt16], ours: [UInt16])] = []
            if let lockingFile { pairs.append(("L\(nli)", try Self.parse(lockingFile), _gsmLockingTables[nli])) }
            pairs.append(("S\(nli)", try Self.parse(shiftFile), _gsmSingleShiftTables[nli]))
            for (key, csv, ours) in pairs {
                try #require(ours.count == 128)
                for septet in 0..<128 {
                    compared += 1
                    if let erratum = Self.errata["\(key)@\(septet)"] {
                        errataSeen += 1
                        #expect(csv[septet] == erratum.csv, "\(key) 0x\(String(septet, radix: 16)): the CSV no longer has the erratum")
                        #expect(ours[septet] == erratum.ours, "\(key) 0x\(String(septet, radix: 16)): erratum not applied")
                    } else if csv[septet] != ours[septet] {
                        mismatches.append("\(key) 0x\(String(septet, radix: 16)): CSV \(csv[septet]) ours \(ours[septet])")
                    }
                }
            }
        }
        #expect(compared == 27 * 128)  // 13 locking + 14 single-shift tables
        #expect(errataSeen == 12)
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    @Test("spot facts of the standard, independent of the CSV")
    func spotFacts() {
        let defaultAlphabet = _gsmLockingTables[0]
        #expect(defaultAlphabet[0x00] == 0x40)  // @
        #expect(defaultAlphabet[0x02] == 0x24)  // $
        #expect(defaultAlphabet[0x11] == 0x5F)  // _
        #expect(defaultAlphabet[0x1B] == 0)     // escape
        #expect(defaultAlphabet[0x24] == 0xA4)  // ¤ (not $)
        #expect(defaultAlphabet[0x40] == 0xA1)  // ¡
        #expect(defaultAlphabet[0x60] == 0xBF)  // ¿
        #expect(defaultAlphabet[0x7F] == 0xE0)  // à
        let extensionTable = _gsmSingleShiftTables[0]
        let expected: [Int: UInt16] = [0x0A: 0x0C, 0x14: 0x5E, 0x28: 0x7B, 0x29: 0x7D, 0x2F: 0x5C, 0x3C: 0x5B, 0x3D: 0x7E, 0x3E: 0x5D, 0x40: 0x7C, 0x65: 0x20AC]
        for septet in 0..<128 { #expect(extensionTable[septet] == (expected[septet] ?? 0), "extension 0x\(String(septet, radix: 16))") }
        // Turkish single shift: Ş 0x53, ş 0x73, Ğ 0x47, ğ 0x67, İ 0x49, ı 0x69, ç 0x63.
        let turkish = _gsmSingleShiftTables[1]
        #expect([turkish[0x53], turkish[0x73], turkish[0x47], turkish[0x67], turkish[0x49], turkish[0x69], turkish[0x63]]
            == [0x15E, 0x15F, 0x11E, 0x11F, 0x130, 0x131, 0xE7])
        #expect(_gsmLockingTables[6][0x00] == 0x0901)  // Hindi, not Bengali U+0981
        #expect(_gsmLockingTables[7][0x24] == 0x0CA1)  // Kannada erratum
        #expect(_gsmSingleShiftTables[11][0x24] == 0x0BEE)  // Tamil single shift (AOSP's correction)
        #expect(_gsmSingleShiftTables[12][0x22] == 0x0C6C && _gsmSingleShiftTables[12][0x23] == 0x0C6D)
        #expect(_gsmLockingTables[2] == _gsmLockingTables[0])  // Spanish has no locking table
    }

    @Test("locking tables are invertible: no character twice")
    func lockingTablesInvertible() {
        for nli in 0..<14 where nli != 2 {
            let values = _gsmLockingTables[nli].filter { $0 != 0 }
            #expect(Set(values).count == values.count, "locking table \(nli) has duplicates")
        }
    }

    @Test("NFC composition data agrees with Swift's canonical equivalence")
    func compositionData() {
        for (starter, mark, composed) in _nfcCompositions {
            let decomposed = String(Unicode.Scalar(starter)!) + String(Unicode.Scalar(mark)!)
            #expect(decomposed == String(Unicode.Scalar(composed)!), "U+\(String(composed, radix: 16))")
        }
        for (source, target) in _nfcSingletons {
            #expect(String(Unicode.Scalar(source)!) == String(Unicode.Scalar(target)!))
        }
        // Every composed table letter reachable from its decomposition is covered (spot list).
        for letter in ["é", "è", "à", "ù", "ì", "ò", "Ç", "Ä", "Ö", "Ñ", "Ü", "ä", "ö", "ñ", "ü", "Å", "å", "É", "ğ", "ş", "İ", "á", "ó", "ú", "í", "ã", "õ", "ê", "ô", "â", "ç"] {
            let scalar = letter.unicodeScalars.first!.value
            #expect(_nfcCompositions.contains { UInt32($0.2) == scalar }, "\(letter)")
        }
    }
}
