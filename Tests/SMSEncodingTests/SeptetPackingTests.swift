@testable import SMSEncoding
import SMSKitTestSupport
import Testing

/// The byte checks and the mapped packing that the analysis's default-alphabet early exit uses
/// (`_SeptetPacking`), against the tables and `GSM7.pack`.
@Suite("Septet packing")
struct SeptetPackingTests {
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
