@testable import PhoneNumbers
import SMSKitTestSupport
import Testing

/// `PhoneNumberEngine._startsWith` compares a packed literal (an international or national
/// prefix of plain digits) with a word load when the digits have 8 or more: it must agree with
/// `_Store.startsWith`, the byte loop, for every region's literals.
@Suite struct LiteralPrefixTests {
    let engine = PhoneNumberEngine()

    @Test func wordCompareAgreesWithTheByteLoop() {
        var random = SplitMix64(seed: 0x11D_0011)
        var literals: [(UInt32, Int32)] = []
        for i in 0..<engine.store.regions.count {
            let core = engine.store.tables.pointee.core[i]
            if core.literalIDDLength > 0 { literals.append((core.literalIDD, core.literalIDDLength)) }
            if core.literalPrefixLength > 0 { literals.append((core.literalPrefix, core.literalPrefixLength)) }
        }
        #expect(literals.count > 100)
        var matches = 0
        for round in 0..<200_000 {
            let (literal, count) = literals[random.below(literals.count)]
            // Digits that start with the literal, or with a digit of it changed, or at random.
            var digits: [UInt8] = []
            let mode = random.below(3)
            for k in 0..<Int(count) where mode < 2 {
                var digit = UInt8(truncatingIfNeeded: literal >> (4 * UInt32(k)) & 0xF)
                if mode == 1, random.below(Int(count)) == k { digit = UInt8(random.below(10)) }
                digits.append(0x30 + digit)
            }
            for _ in 0..<random.below(14) { digits.append(0x30 + UInt8(random.below(10))) }
            let (word, loop) = digits.withUnsafeBufferPointer { buffer in
                (PhoneNumberEngine._startsWith(buffer, literal: literal, count: count),
                 _Store.startsWith(buffer, literal: literal, count: count))
            }
            if word != loop {
                Issue.record("round \(round): \(String(decoding: digits, as: UTF8.self)) literal \(String(literal, radix: 16)) count \(count): \(word) vs \(loop)")
                return
            }
            matches += word ? 1 : 0
        }
        #expect(matches > 50_000)
    }
}
