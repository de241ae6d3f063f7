@testable import SMSEncoding
import SMSKitTestSupport
import Testing

/// The default-tables fast path (`_analyzeDefaultTables`) must give exactly the general path's
/// analysis, and the facts it relies on must hold.
@Suite("Default-tables fast path agrees with the general analysis")
struct DefaultTableFastPathTests {
    /// Every character of the default alphabet and its extension table (the escape excluded).
    static let defaultTableCharacters: [Unicode.Scalar] = {
        let values = (_gsmLockingTables[0] + _gsmSingleShiftTables[0]).filter { $0 != 0 }
        return Array(Set(values)).sorted().map { Unicode.Scalar($0)! }
    }()
    /// The non-ASCII and escaped ones, which the ASCII path does not take.
    static let otherDefaultCharacters: [Unicode.Scalar] = defaultTableCharacters.filter {
        $0.value >= 0x80 || _gsmIndex.singleSeptetBytes[Int($0.value)] == 0
    }

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
                // The fast path knows one character above U+07FF.
                #expect(value == 0x20AC && cost == 2)
            }
        }
        // And nothing else below U+0800 has a cost.
        let inTables = Set(Self.defaultTableCharacters.map(\.value))
        for value in 0..<0x800 where !inTables.contains(UInt32(value)) {
            #expect(_gsmIndex.defaultCosts[value] == 0)
        }
    }

    static func text(count: Int, otherShare: Int, generator: inout SplitMix64) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<count {
            if generator.below(100) < otherShare {
                scalars.append(generator.pick(otherDefaultCharacters))
            } else {
                scalars.append(generator.pick(defaultTableCharacters))
            }
        }
        return String(scalars)
    }

    @Test("default-table texts match the general path under every option set", arguments: 0..<FastPathAgreementTests.encoders.count)
    func defaultTableTexts(encoderIndex: Int) throws {
        let encoder = FastPathAgreementTests.encoders[encoderIndex]
        let defaultTablesOnly = encoder.lockingMask == 1 && encoder.shiftMask == 1
        var generator = SplitMix64(seed: 0xDEFA_0000 + UInt64(encoderIndex))
        var texts: [String] = []
        for length in FastPathAgreementTests.lengths {
            for share in [1, 10, 100] { texts.append(Self.text(count: length, otherShare: share, generator: &generator)) }
        }
        for _ in 0..<60 {
            texts.append(Self.text(count: generator.below(400), otherShare: generator.pick([0, 2, 30]), generator: &generator))
        }
        // One-septet letters only (no escape), across the part boundaries, with CR LF.
        let letters = Self.otherDefaultCharacters.filter { _gsmIndex.defaultCosts[Int(min($0.value, 0x7FF))] == 1 && $0.value < 0x800 }
        for count in [159, 160, 161, 306, 307, 1000] {
            texts.append(String(String.UnicodeScalarView((0..<count).map { _ in generator.pick(letters) })))
        }
        texts.append(String(repeating: "é\r\n", count: 70))
        texts.append("Café crème à 5€ {ok} Müller ")
        for reference in [UInt16(0), 0x2A, 0x1234] {
            for text in texts {
                let general = encoder._analyzeGeneral(text, concatenationReference: reference)
                let fast = encoder._analyzeDefaultTables(text, concatenationReference: reference)
                let hasEscape = text.unicodeScalars.contains { _gsmIndex.tableMasks($0.value).locking & 1 == 0 }
                let mustTake = general.segmentCount == 1 ? (!hasEscape || defaultTablesOnly)
                    : !hasEscape && !(encoder.options.splitsAtGraphemeClusterBoundaries && text.utf8.contains(0x0D))
                if mustTake {
                    let analysis = try #require(fast, "\(text.unicodeScalars.count) characters must take the fast path")
                    #expect(analysis == general, "\(text.unicodeScalars.count) characters, reference \(reference)")
                    #expect(analysis.parts == general.parts)
                } else if let fast {
                    #expect(fast == general)
                }
                #expect(encoder.analyze(text, concatenationReference: reference) == general)
                // The count's fast path, against the count without it.
                #expect(encoder.segmentCount(text) == encoder.measure(text).segments)
                #expect(encoder.segmentCount(text) == general.segmentCount)
            }
        }
    }

    @Test("texts with any other character leave the default-tables path")
    func otherTexts() {
        var generator = SplitMix64(seed: 0x0DD)
        for encoder in FastPathAgreementTests.encoders {
            for _ in 0..<40 {
                var scalars = Array(Self.text(count: generator.below(300), otherShare: 20, generator: &generator).unicodeScalars)
                let pieces = Array("中ğ\t`“\u{0301}😀ठ€".unicodeScalars).filter { _gsmIndex.tableMasks($0.value).locking & 1 == 0 && _gsmIndex.tableMasks($0.value).shift & 1 == 0 }
                scalars.insert(generator.pick(pieces), at: scalars.isEmpty ? 0 : generator.below(scalars.count))
                let text = String(String.UnicodeScalarView(scalars))
                #expect(encoder._analyzeDefaultTables(text, concatenationReference: 3) == nil)
                #expect(encoder.analyze(text, concatenationReference: 3) == encoder._analyzeGeneral(text, concatenationReference: 3))
            }
        }
    }
}
