@testable import SMSEncoding
import SMSKitTestSupport
import Testing

/// The fast paths of `SMSEncoder.analyze` must give exactly the general path's analysis. These
/// tests generate many texts (deterministically) and compare the two, field by field through
/// `SMSAnalysis`'s `Hashable` conformance, under several option sets.
@Suite("Fast paths agree with the general analysis")
struct FastPathAgreementTests {
    /// Every ASCII character of one septet in the default alphabet.
    static let singleSeptetASCII: [Character] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 !\"#$%&'()*+,-./:;<=>?@_\n\r")
    /// Pieces that take other paths: escapes, tab and grave accent, Latin-1 and Greek letters of the
    /// default alphabet, lookalikes for smart encoding, decomposed letters, national-table letters,
    /// CJK and emoji (surrogate pairs, ZWJ sequences, flags, modifiers).
    static let otherPieces: [String] = [
        "[", "]", "{", "}", "~", "^", "\\", "|", "€", "\t", "`", "é", "ü", "Ñ", "£", "¥", "§", "¿", "Δ", "Φ",
        "“", "”", "’", "–", "—", "…", "\u{00A0}", "\u{00AD}", "\u{200B}", "e\u{0301}", "A\u{030A}", "ğ", "ş",
        "ı", "ç", "ã", "ê", "क", "ि", "।", "中", "文", "Ж", "😀", "👍🏽", "🇫🇷", "👨‍👩‍👧",
    ]

    /// Option sets: the defaults and every option that changes the analysis.
    static let encoders: [SMSEncoder] = [
        SMSEncoder(),
        SMSEncoder(options: .init(smartEncoding: true)),
        SMSEncoder(options: .init(normalizesToNFC: true)),
        SMSEncoder(options: .init(concatenationReference: .sixteenBit)),
        SMSEncoder(options: .init(splitsAtGraphemeClusterBoundaries: true)),
        SMSEncoder(options: .init(nationalLanguageTables: .all)),
        SMSEncoder(options: .init(nationalLanguageTables: .only([.turkish, .portuguese]), smartEncoding: true)),
        SMSEncoder(options: .init(
            nationalLanguageTables: .all, smartEncoding: true, normalizesToNFC: true,
            concatenationReference: .sixteenBit, splitsAtGraphemeClusterBoundaries: true)),
    ]

    /// Lengths on and around the part boundaries (160, 153/152, 306/304, 255 parts).
    static let lengths = [0, 1, 2, 7, 8, 9, 15, 16, 17, 70, 139, 152, 153, 154, 159, 160, 161, 162, 305, 306, 307, 459, 460, 1000]

    static func singleSeptetText(count: Int, generator: inout SplitMix64) -> String {
        var text = ""
        for _ in 0..<count { text.append(generator.pick(singleSeptetASCII)) }
        return text
    }

    @Test("single-septet ASCII texts take the fast path and match the general path", arguments: 0..<encoders.count)
    func singleSeptetTexts(encoderIndex: Int) throws {
        let encoder = Self.encoders[encoderIndex]
        var generator = SplitMix64(seed: 0x5EED_0000 + UInt64(encoderIndex))
        var texts = Self.lengths.map { Self.singleSeptetText(count: $0, generator: &generator) }
        for _ in 0..<60 { texts.append(Self.singleSeptetText(count: generator.below(480), generator: &generator)) }
        // Only letters and digits (the identity chunks), and only the remapped @ $ _ with LF.
        texts.append(String(repeating: "Your code is 123456. ", count: 20))
        texts.append(String(repeating: "@$_\n", count: 50))
        // CR LF pairs, which are one grapheme cluster, across the part boundaries.
        texts.append(String(repeating: "ab\r\n", count: 80))
        texts.append(String(repeating: "x", count: 152) + "\r\n" + String(repeating: "y", count: 160))
        for reference in [UInt16(0), 0x2A, 0x1234] {
            for text in texts {
                let general = encoder._analyzeGeneral(text, concatenationReference: reference)
                let fast = encoder._analyzeSingleSeptetASCII(text, concatenationReference: reference)
                let multipartWithCR = general.segmentCount > 1 && text.utf8.contains(0x0D)
                if encoder.options.splitsAtGraphemeClusterBoundaries && multipartWithCR {
                    #expect(fast == nil, "CR LF is one grapheme cluster: the general path decides")
                } else {
                    let analysis = try #require(fast, "single-septet text must take the fast path")
                    #expect(analysis == general, "\(text.utf8.count) bytes, reference \(reference)")
                }
                #expect(encoder.analyze(text, concatenationReference: reference) == general)
            }
        }
    }

    @Test("texts with any other character leave the fast path and analyze as before", arguments: 0..<encoders.count)
    func otherTexts(encoderIndex: Int) {
        let encoder = Self.encoders[encoderIndex]
        var generator = SplitMix64(seed: 0xF00D_0000 + UInt64(encoderIndex))
        for _ in 0..<80 {
            // A single-septet text with one or a few other pieces anywhere, often deep in a later part.
            var text = Self.singleSeptetText(count: generator.pick(Self.lengths), generator: &generator)
            for _ in 0...generator.below(3) {
                let piece = generator.pick(Self.otherPieces)
                let utf8 = Array(text.utf8)
                let cut = utf8.isEmpty ? 0 : generator.below(utf8.count)
                text = String(decoding: utf8[..<cut], as: UTF8.self) + piece + String(decoding: utf8[cut...], as: UTF8.self)
            }
            #expect(encoder._analyzeSingleSeptetASCII(text, concatenationReference: 7) == nil)
            #expect(encoder.analyze(text, concatenationReference: 7) == encoder._analyzeGeneral(text, concatenationReference: 7))
        }
    }

    @Test("the identity test accepts exactly the characters that are their own septet")
    func identityBytes() {
        let map = _gsmIndex.singleSeptetValues
        for byte in 0...255 {
            let accepted = [UInt8(byte)].withUnsafeBufferPointer { _SeptetPacking.isIdentityText($0) }
            let isOwnSeptet = byte >= 0x20 && byte <= 0x7A && map[byte] == UInt8(byte)
            #expect(accepted == isOwnSeptet, "byte 0x\(String(byte, radix: 16))")
        }
        // The same inside long texts, where the test runs on vectors rather than byte by byte.
        let filler = Array("Your code is 123456. ".utf8)
        for byte in 0...255 {
            let isOwnSeptet = byte >= 0x20 && byte <= 0x7A && map[byte] == UInt8(byte)
            for position in [0, 15, 16, 31, 32, 63, 70] {
                var text = (0..<71).map { filler[$0 % filler.count] }
                text[position] = UInt8(byte)
                let accepted = text.withUnsafeBufferPointer { _SeptetPacking.isIdentityText($0) }
                #expect(accepted == isOwnSeptet, "byte 0x\(String(byte, radix: 16)) at \(position)")
            }
        }
        // Exceptions inside the range: $ @ and [ \ ] ^ _ `.
        for byte in [0x24, 0x40, 0x5B, 0x5C, 0x5D, 0x5E, 0x5F, 0x60] {
            #expect(map[byte] != UInt8(byte))
        }
    }

    @Test("the single-septet check accepts exactly the one-septet ASCII characters")
    func singleSeptetBytes() {
        let filler = Array("Your code is 123456. ".utf8)
        for byte in 0...255 {
            let expected = _gsmIndex.singleSeptetBytes[byte] == 1
            #expect([UInt8(byte)].withUnsafeBufferPointer { _SeptetPacking.isSingleSeptetText($0) } == expected)
            // Inside longer texts too, where the check runs on vectors.
            for position in [0, 15, 16, 31, 32, 63, 100, 159] {
                var text = (0..<160).map { filler[$0 % filler.count] }
                text[position] = UInt8(byte)
                #expect(text.withUnsafeBufferPointer { _SeptetPacking.isSingleSeptetText($0) } == expected)
            }
        }
    }

    @Test("packing through the byte table equals GSM7.pack of the mapped septets", arguments: 0...6)
    func packing(fillBits: Int) throws {
        let map = _gsmIndex.singleSeptetValues
        let valid = (0...255).filter { map[$0] < 0x80 }.map(UInt8.init)
        let identity = valid.filter { map[Int($0)] == $0 && $0 >= 0x20 }
        var generator = SplitMix64(seed: 0xBAC0 + UInt64(fillBits))
        for count in 0..<70 {
            for alphabet in [valid, identity] {
                let bytes = (0..<count).map { _ in generator.pick(alphabet) }
                let expected = try GSM7.pack(bytes.map { map[Int($0)] }, fillBits: fillBits)
                let isIdentity = bytes.withUnsafeBufferPointer { _SeptetPacking.isIdentityText($0) }
                #expect(isIdentity == bytes.allSatisfy(identity.contains))
                // The table path for every text, the identity path where it applies.
                for useIdentity in isIdentity ? [false, true] : [false] {
                    var output = [UInt8](repeating: 0xEE, count: _SeptetPacking.octetCount(septets: count, fillBits: fillBits))
                    let ok = bytes.withUnsafeBufferPointer { input in
                        map.withUnsafeBufferPointer { table in
                            output.withUnsafeMutableBufferPointer {
                                _SeptetPacking.packMapped(input, map: table, fillBits: fillBits, identity: useIdentity, into: $0)
                            }
                        }
                    }
                    #expect(ok)
                    #expect(output == expected, "\(count) septets, fill \(fillBits), identity \(useIdentity)")
                }
            }
            // One byte without a single septet anywhere makes the packing fail.
            if count > 0 {
                var bytes = (0..<count).map { _ in generator.pick(identity) }
                bytes[generator.below(count)] = generator.pick([0x09, 0x5B, 0x60, 0x7B, 0x7F, 0x80, 0xC3, 0xFF])
                var output = [UInt8](repeating: 0, count: _SeptetPacking.octetCount(septets: count, fillBits: fillBits))
                let ok = bytes.withUnsafeBufferPointer { input in
                    map.withUnsafeBufferPointer { table in
                        output.withUnsafeMutableBufferPointer {
                            _SeptetPacking.packMapped(input, map: table, fillBits: fillBits, identity: false, into: $0)
                        }
                    }
                }
                #expect(!ok)
            }
        }
    }
}
