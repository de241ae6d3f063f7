import SMSEncoding
import SMSKitTestSupport
import Testing

@Suite("GSM 7-bit septets: encode, decode, pack, unpack")
struct SeptetRoundTripTests {
    struct Pair: Sendable, CustomTestStringConvertible {
        var tables: SMSNationalLanguageTables
        var testDescription: String {
            "\(tables.lockingShift.map(String.init(describing:)) ?? "default")/\(tables.singleShift.map(String.init(describing:)) ?? "default")"
        }
    }

    /// Every locking table with its own single-shift table, and Spanish single shift with the default alphabet.
    static let pairs: [Pair] = [Pair(tables: .default)]
        + NationalLanguage.allCases.map { language in
            Pair(tables: SMSNationalLanguageTables(lockingShift: language.hasLockingShiftTable ? language : nil, singleShift: language))
        }

    @Test("each table's characters round-trip", arguments: pairs)
    func tableCharactersRoundTrip(_ pair: Pair) throws {
        let locking = _gsmLockingTables[Int(pair.tables.lockingShift?.rawValue ?? 0)]
        let shift = _gsmSingleShiftTables[Int(pair.tables.singleShift?.rawValue ?? 0)]
        var lockingCount = 0
        for (septet, value) in locking.enumerated() where value != 0 {
            let text = String(Unicode.Scalar(value)!)
            let septets = try GSM7.encode(text, tables: pair.tables)
            #expect(septets == [UInt8(septet)], "U+\(String(value, radix: 16)) -> \(septets)")
            #expect(try GSM7.decode([UInt8(septet)], tables: pair.tables) == text)
            lockingCount += 1
        }
        #expect(lockingCount >= 100)  // Indic tables leave some cells undefined (Tamil has 102)
        for (septet, value) in shift.enumerated() where value != 0 {
            let text = String(Unicode.Scalar(value)!)
            let septets = try GSM7.encode(text, tables: pair.tables)
            // A character in both tables is sent with the locking table (one septet); the single-shift
            // tables list some characters twice (¡ at 0x13 and 0x15, * at 0x0B and 0x18): the first wins.
            if locking.contains(value) {
                #expect(septets.count == 1)
            } else {
                #expect(septets.count == 2 && septets[0] == GSM7.escape)
                #expect(shift[Int(septets[1])] == value)
            }
            #expect(try GSM7.decode([GSM7.escape, UInt8(septet)], tables: pair.tables) == text)
        }
        // The whole table as one text, packed and unpacked with every fill-bit count.
        let all = String(String.UnicodeScalarView((locking + shift).filter { $0 != 0 }.map { Unicode.Scalar($0)! }))
        let septets = try GSM7.encode(all, tables: pair.tables)
        #expect(try GSM7.decode(septets, tables: pair.tables) == all)
        for fill in 0...6 {
            let packed = try GSM7.pack(septets, fillBits: fill)
            #expect(packed.count == (fill + 7 * septets.count + 7) / 8)
            #expect(try GSM7.unpack(packed, septetCount: septets.count, fillBits: fill) == septets)
        }
    }

    @Test("known packing vectors")
    func knownVectors() throws {
        // TS 23.038 6.1.2.1.1 style example: "hellohello" -> E8 32 9B FD 46 97 D9 EC 37.
        let septets = try GSM7.encode("hellohello")
        #expect(try GSM7.pack(septets) == [0xE8, 0x32, 0x9B, 0xFD, 0x46, 0x97, 0xD9, 0xEC, 0x37])
        // 8 septets fill 7 octets exactly.
        #expect(try GSM7.pack([UInt8](repeating: 0x7F, count: 8)) == [UInt8](repeating: 0xFF, count: 7))
        // One fill bit after a 6-octet header: "A" (0x41) shifted left by one.
        #expect(try GSM7.pack([0x41], fillBits: 1) == [0x82])
        #expect(try GSM7.encode("Hi €") == [0x48, 0x69, 0x20, 0x1B, 0x65])
        #expect(try GSM7.encode("@£$¥") == [0x00, 0x01, 0x02, 0x03])
    }

    @Test("decoding follows TS 23.038 for escapes")
    func escapeRules() throws {
        // ESC + a septet the extension table lacks shows the default-alphabet character.
        #expect(try GSM7.decode([0x1B, 0x41]) == "A")
        // ESC ESC (reserved) and a trailing ESC show a space.
        #expect(try GSM7.decode([0x41, 0x1B, 0x1B, 0x42]) == "A B")
        #expect(try GSM7.decode([0x41, 0x1B]) == "A ")
        // An undefined locking-table cell decodes to U+FFFD.
        let hindi = SMSNationalLanguageTables(lockingShift: .hindi, singleShift: .hindi)
        if let undefined = _gsmLockingTables[6].indices.first(where: { _gsmLockingTables[6][$0] == 0 && $0 != 0x1B }) {
            #expect(try GSM7.decode([UInt8(undefined)], tables: hindi) == "\u{FFFD}")
        }
    }

    @Test("bad input gives typed errors")
    func errors() {
        #expect(throws: SMSEncodingError.self) { try GSM7.pack([0x80]) }
        do {
            _ = try GSM7.pack([0x41], fillBits: 7)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .invalidFillBits)
        }
        do {
            _ = try GSM7.unpack([0x41], septetCount: 2)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .truncatedData)
        }
        do {
            _ = try GSM7.unpack([0x41], septetCount: -1)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .invalidLength)
        }
        do {
            _ = try GSM7.encode("ab中")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .unencodableCharacter)
            #expect(error.message.contains("offset 2"))
        }
        do {
            _ = try GSM7.encode("a", tables: .init(lockingShift: .spanish))
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .unavailableTable)
        }
        do {
            _ = try GSM7.decode([0x41, 0xFF])
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .invalidSeptet)
        }
    }

    @Test("random septets round-trip through packing", arguments: 0..<8)
    func randomPacking(_ seed: Int) throws {
        var generator = SplitMix64(seed: UInt64(seed))
        for length in [0, 1, 7, 8, 9, 153, 160] {
            let septets = (0..<length).map { _ in UInt8(generator.next() & 0x7F) }
            let fill = Int(generator.next() % 7)
            let packed = try GSM7.pack(septets, fillBits: fill)
            #expect(try GSM7.unpack(packed, septetCount: length, fillBits: fill) == septets)
        }
    }
}
