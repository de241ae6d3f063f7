import SMSEncoding
import SMSKitTestSupport
import Testing

/// Properties over generated texts and septets, with a fixed seed (``SplitMix64``) so that every
/// run checks the same inputs and a failure reproduces:
///
/// - the parts of a message, joined, give the analyzed text (the input itself when nothing was
///   replaced), their count is the segment count, and each part's user data decodes back to the
///   part's text with the tables its header names;
/// - packing septets and unpacking them is the identity for every length and fill-bit count;
/// - encoding text with a table pair and decoding the septets gives the text back.
@Suite struct SMSEncodingPropertyTests {
    /// Character pools that reach every path: printable ASCII, the rest of the default alphabet,
    /// its extension table (escaped, two septets), national letters (Turkish, Portuguese, Hindi),
    /// text that smart encoding or NFC rewrites, control characters, CJK, astral scalars
    /// (surrogate pairs in UCS-2), and the pieces of grapheme clusters (combining marks, ZWJ,
    /// regional indicators, variation selectors).
    static let pools: [[Unicode.Scalar]] = [
        (0x20...0x7E).map { Unicode.Scalar($0)! },
        Array("£¥èéùìòÇØøÅåΔΦΓΛΩΠΨΣΘΞÆæßÉ¤¡ÄÖÑÜ§¿äöñüà@$_".unicodeScalars),
        Array("€{}[]~\\^|\u{0C}".unicodeScalars),
        Array("ğĞşŞıİçÇâêôÁÍÓÚáíóúãõ".unicodeScalars),
        Array("नमस्ते कोड आपका है १२३".unicodeScalars),
        Array("“”‘’—–…\u{00A0}\u{2009}\u{00AD}\u{FEFF}e\u{0301}a\u{0300}".unicodeScalars),
        Array("\n\r\t\u{0}\u{7}".unicodeScalars),
        Array("验证码您的是中文한국어日本語".unicodeScalars),
        Array("😀👍🏽🇩🇪🇫🇷\u{200D}👨\u{1F469}\u{FE0F}\u{1D7D8}𝄞".unicodeScalars),
    ]

    /// A random text: mostly runs from one or two pools, so that both GSM 7-bit and UCS-2
    /// messages of one to many segments come out.
    static func text(_ random: inout SplitMix64, maxLength: Int) -> String {
        var scalars = String.UnicodeScalarView()
        let length = Int.random(in: 0...maxLength, using: &random)
        let main = Int.random(in: 0..<pools.count, using: &random)
        let other = Int.random(in: 0..<pools.count, using: &random)
        let otherShare = [0, 1, 20, 100][Int.random(in: 0..<4, using: &random)]
        for _ in 0..<length {
            let pool = Int.random(in: 0..<100, using: &random) < otherShare ? other : main
            scalars.append(pools[pool].randomElement(using: &random)!)
        }
        return String(scalars)
    }

    /// Encoders with every option that changes how a message is split.
    static let encoders: [SMSEncoder] = [
        SMSEncoder(),
        SMSEncoder(options: .init(nationalLanguageTables: .all)),
        SMSEncoder(options: .init(nationalLanguageTables: .only([.turkish, .portuguese]), smartEncoding: true,
                                  concatenationReference: .sixteenBit)),
        SMSEncoder(options: .init(nationalLanguageTables: .only([.hindi]), normalizesToNFC: true,
                                  splitsAtGraphemeClusterBoundaries: true)),
        SMSEncoder(options: .init(smartEncoding: true, normalizesToNFC: true, splitsAtGraphemeClusterBoundaries: true)),
    ]

    @Test("parts joined give the text; each part's user data decodes to its text", arguments: 0..<SMSEncodingPropertyTests.encoders.count)
    func partsJoinedGiveTheText(encoderIndex: Int) throws {
        let encoder = Self.encoders[encoderIndex]
        let rewrites = encoder.options.smartEncoding || encoder.options.normalizesToNFC
        var random = SplitMix64(seed: 0xA11CE + UInt64(encoderIndex))
        var failures: [String] = []
        var multipart = 0
        for round in 0..<1_000 {
            let input = Self.text(&random, maxLength: round % 10 == 0 ? 1_200 : 400)
            let reference = UInt16.random(in: 0...UInt16.max, using: &random)
            let analysis = encoder.analyze(input, concatenationReference: reference)
            func fail(_ what: String) {
                if failures.count < 20 { failures.append("round \(round) \(what): \(input.unicodeScalars.map { String($0.value, radix: 16) })") }
            }
            if analysis.parts.map(\.text).joined() != analysis.text { fail("parts joined differ from the text") }
            if !rewrites && analysis.text != input { fail("text changed without smart encoding or NFC") }
            if analysis.changes.isEmpty && analysis.text != input { fail("text changed with no change reported") }
            if analysis.parts.count != analysis.segmentCount { fail("\(analysis.parts.count) parts for \(analysis.segmentCount) segments") }
            if encoder.segmentCount(input) != analysis.segmentCount { fail("segmentCount(_:) disagrees with analyze(_:)") }
            if analysis.parts.map(\.length).reduce(0, +) != analysis.length { fail("part lengths do not add up") }
            if analysis.segmentCount > 1 { multipart += 1 }
            for (number, part) in analysis.parts.enumerated() {
                if part.userData.count > 140 { fail("part \(number) has \(part.userData.count) octets") }
                if part.userData.prefix(part.userDataHeader.count) != part.userDataHeader[...] { fail("part \(number) data does not start with its header") }
                if analysis.segmentCount > 1 && analysis.parts.count <= 255 {
                    let expected = concatenationElement(number: number + 1, of: analysis.parts.count, reference: reference,
                                                        sixteenBit: encoder.options.concatenationReference == .sixteenBit)
                    if !elements(part.userDataHeader).contains(where: { $0 == expected }) { fail("part \(number) lacks its concatenation element") }
                }
                do {
                    if try decode(part, encoding: analysis.encoding) != part.text { fail("part \(number) user data does not decode to its text") }
                } catch {
                    fail("part \(number) user data does not decode: \(error)")
                }
            }
        }
        #expect(multipart > 150, "too few multi-part messages generated (\(multipart))")
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    /// The information elements of a user data header (without its length octet) as (IEI, data).
    func elements(_ header: [UInt8]) -> [[UInt8]] {
        guard let length = header.first, Int(length) == header.count - 1 else { return [] }
        var result: [[UInt8]] = []
        var index = 1
        while index + 1 < header.count {
            let size = Int(header[index + 1])
            guard index + 2 + size <= header.count else { return [] }
            result.append(Array(header[index..<(index + 2 + size)]))
            index += 2 + size
        }
        return result
    }

    func concatenationElement(number: Int, of total: Int, reference: UInt16, sixteenBit: Bool) -> [UInt8] {
        sixteenBit
            ? [0x08, 0x04, UInt8(reference >> 8), UInt8(reference & 0xFF), UInt8(total), UInt8(number)]
            : [0x00, 0x03, UInt8(reference & 0xFF), UInt8(total), UInt8(number)]
    }

    /// Decodes a part's TP-User-Data as a receiving handset would: GSM 7-bit with the tables the
    /// header's national language elements (IEI 0x24 single shift, 0x25 locking shift) name, or
    /// UTF-16 big-endian.
    func decode(_ part: SMSPart, encoding: SMSCharacterEncoding) throws -> String {
        let body = part.userData.dropFirst(part.userDataHeader.count)
        switch encoding {
        case .gsm7:
            var tables = SMSNationalLanguageTables.default
            for element in elements(part.userDataHeader) where element.count == 3 {
                if element[0] == 0x24 { tables.singleShift = NationalLanguage(rawValue: element[2]) }
                if element[0] == 0x25 { tables.lockingShift = NationalLanguage(rawValue: element[2]) }
            }
            let headerBits = part.userDataHeader.count * 8
            #expect(part.fillBits == (7 - headerBits % 7) % 7 || part.userDataHeader.isEmpty && part.fillBits == 0)
            #expect(part.userDataLength == (headerBits + part.fillBits) / 7 + part.length)
            let septets = try GSM7.unpack(body, septetCount: part.length, fillBits: part.fillBits)
            return try GSM7.decode(septets, tables: tables)
        case .ucs2:
            #expect(body.count == 2 * part.length && part.userDataLength == part.userData.count)
            let bytes = Array(body)
            let units = stride(from: 0, to: bytes.count - 1, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
            return String(decoding: units, as: UTF16.self)
        }
    }

    @Test("pack then unpack is the identity for every length and fill", arguments: 0..<4)
    func packingIsTheIdentity(seed: Int) throws {
        var random = SplitMix64(seed: 0x5E97E7 &+ UInt64(seed))
        for round in 0..<1_000 {
            let length = round < 300 ? round : Int.random(in: 0...2_000, using: &random)
            let septets = (0..<length).map { _ in UInt8(random.next() & 0x7F) }
            let fill = Int.random(in: 0...6, using: &random)
            let packed = try GSM7.pack(septets, fillBits: fill)
            #expect(packed.count == (fill + 7 * length + 7) / 8)
            // The fill bits are zero, and so are the bits after the last septet.
            if let first = packed.first { #expect(first & UInt8((1 << fill) - 1) == 0) }
            let used = (fill + 7 * length) % 8
            if used != 0, let last = packed.last { #expect(last >> used == 0) }
            let unpacked = try GSM7.unpack(packed, septetCount: length, fillBits: fill)
            #expect(unpacked == septets, "length \(length) fill \(fill)")
            if unpacked != septets { return }
        }
    }

    @Test("encode then decode is the identity for text of each table pair", arguments: 0..<NationalLanguage.allCases.count + 1)
    func encodingIsTheIdentity(tableIndex: Int) throws {
        let language = tableIndex == 0 ? nil : NationalLanguage.allCases[tableIndex - 1]
        let tables = SMSNationalLanguageTables(lockingShift: language?.hasLockingShiftTable == true ? language : nil,
                                               singleShift: language)
        let locking = _gsmLockingTables[Int(tables.lockingShift?.rawValue ?? 0)]
        let shift = _gsmSingleShiftTables[Int(tables.singleShift?.rawValue ?? 0)]
        let alphabet = (locking + shift).filter { $0 != 0 }.map { Unicode.Scalar($0)! }
        var random = SplitMix64(seed: 0xE4C0DE &+ UInt64(tableIndex))
        for _ in 0..<500 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...200, using: &random) { scalars.append(alphabet.randomElement(using: &random)!) }
            let text = String(scalars)
            let septets = try GSM7.encode(text, tables: tables)
            #expect(septets.allSatisfy { $0 < 0x80 })
            #expect(septets.last != GSM7.escape, "a text must not end in a lone escape")
            let decoded = try GSM7.decode(septets, tables: tables)
            #expect(decoded == text)
            if decoded != text { return }
        }
    }
}
