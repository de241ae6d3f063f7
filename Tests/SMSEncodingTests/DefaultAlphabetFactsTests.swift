@testable import SMSEncoding
import SMSKitTestSupport
import Testing

/// The facts the analysis's default-alphabet early exit (`SMSEncoder.defaultAlphabetText`) relies
/// on: smart encoding and NFC change no default-table character, and its cost tables agree with
/// the GSM tables.
@Suite("Default alphabet facts")
struct DefaultAlphabetFactsTests {
    /// Every character of the default alphabet and its extension table (the escape excluded).
    static let defaultTableCharacters: [Unicode.Scalar] = {
        let values = (_gsmLockingTables[0] + _gsmSingleShiftTables[0]).filter { $0 != 0 }
        return Array(Set(values)).sorted().map { Unicode.Scalar($0)! }
    }()
    @Test("no default-table character is changed by smart encoding or NFC, or costs differently")
    func tableFacts() {
        let marks = Set(_nfcCompositions.map { UInt32($0.1) })
        for scalar in Self.defaultTableCharacters {
            let value = scalar.value
            #expect(_smartReplacement(value).count < 0, "U+\(String(value, radix: 16))")
            #expect(_nfcSingleton(value) == nil)
            #expect(!marks.contains(value), "a default-table character composes as a mark")
            let (locking, shift) = _gsmIndex.tableMasks(value)
            let cost = locking & 1 != 0 ? 1 : (shift & 1 != 0 ? 2 : 0)
            #expect(cost > 0)
            if value < 0x800 {
                #expect(Int(_gsmIndex.defaultCosts[Int(value)]) == cost)
                if cost == 1 {
                    #expect(_GSMCharacterIndex.septet(value, in: _gsmIndex.lockingReverse[0]) == _gsmIndex.defaultSeptets[Int(value)])
                }
            } else {
                // The early exit knows one character above U+07FF.
                #expect(value == 0x20AC && cost == 2)
            }
        }
        // And nothing else below U+0800 has a cost.
        let inTables = Set(Self.defaultTableCharacters.map(\.value))
        for value in 0..<0x800 where !inTables.contains(UInt32(value)) {
            #expect(_gsmIndex.defaultCosts[value] == 0)
        }
    }
}
