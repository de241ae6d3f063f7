import Foundation
@testable import SMSEncoding
import SMSKitTestSupport
import Testing

/// `SMSAnalysis` stores the part of a one-part message as its text (`_SMSParts.single`) and builds
/// it when read. These tests show that nothing a user can see changed: equality, hashing and coding are those of a struct that stores
/// `parts` as an array (the synthesized conformances it had before).
@Suite("SMSAnalysis: single parts built on read")
struct AnalysisRepresentationTests {
    /// The synthesized conformances of the former stored layout, same properties in the same order.
    struct StoredLayout: Hashable, Codable {
        var text: String
        var encoding: SMSCharacterEncoding
        var nationalLanguage: SMSNationalLanguageTables?
        var length: Int
        var segmentCount: Int
        var remainingInLastSegment: Int
        var exceedsConcatenationLimit: Bool
        var parts: [SMSPart]
        var unencodableCharacters: [SMSUnencodableCharacter]
        var changes: [SMSTextChange]
        var suggestions: [SMSSuggestion]

        init(_ a: SMSAnalysis) {
            (text, encoding, nationalLanguage, length, segmentCount) = (a.text, a.encoding, a.nationalLanguage, a.length, a.segmentCount)
            (remainingInLastSegment, exceedsConcatenationLimit, parts) = (a.remainingInLastSegment, a.exceedsConcatenationLimit, a.parts)
            (unencodableCharacters, changes, suggestions) = (a.unencodableCharacters, a.changes, a.suggestions)
        }
    }

    static func isSingle(_ analysis: SMSAnalysis) -> Bool {
        if case .single = analysis._parts { return true }
        return false
    }

    @Test("an analysis equals itself with built parts, field by field, and codes the same", arguments: 0..<SMSEncodingPropertyTests.encoders.count)
    func randomTexts(encoderIndex: Int) throws {
        let encoder = SMSEncodingPropertyTests.encoders[encoderIndex]
        var random = SplitMix64(seed: 0x5A5A_0000 + UInt64(encoderIndex))
        // Sorted keys: this JSONEncoder does not keep the order in which keys are encoded (the
        // conformance encodes them in the declaration order, as the synthesized one did).
        let json = JSONEncoder()
        json.outputFormatting = [.sortedKeys]
        var singles = 0
        for round in 0..<150 {
            let text = SMSEncodingPropertyTests.text(&random, maxLength: round % 3 == 0 ? 400 : 80)
            let analysis = encoder.analyze(text, concatenationReference: 0x42)
            // The same analysis with its parts stored as an array.
            var reference = analysis
            reference.parts = analysis.parts
            #expect(!Self.isSingle(reference))
            if Self.isSingle(analysis) { singles += 1 }
            #expect(analysis == reference)
            #expect(analysis.parts == reference.parts)
            #expect(StoredLayout(analysis) == StoredLayout(reference))
            #expect(analysis.hashValue == reference.hashValue)
            // The same JSON as the former synthesized Codable, and it decodes to an equal analysis.
            let data = try json.encode(analysis)
            #expect(data == (try json.encode(StoredLayout(reference))))
            let decoded = try JSONDecoder().decode(SMSAnalysis.self, from: data)
            #expect(decoded == analysis)
            #expect(!Self.isSingle(decoded))
        }
        #expect(singles > 20, "the random texts reach the single-part storage")
    }

    @Test("a single part is kept from the analysis's own fields, and set parts replace it")
    func valueSemantics() throws {
        var analysis = SMSEncoder().analyze("Hello {world}")
        #expect(Self.isSingle(analysis))
        let part = analysis.parts[0]
        #expect(part.text == "Hello {world}" && part.length == 15 && part.userDataHeader.isEmpty)
        #expect(part.userData == (try GSM7.pack(try GSM7.encode("Hello {world}"))))
        // Changing the text does not change the part that was analyzed.
        analysis.text = "Bye"
        analysis.length = 3
        #expect(analysis.parts == [part])
        analysis.parts = []
        #expect(analysis.parts.isEmpty && !Self.isSingle(analysis))
        // Different single parts are unequal; the same single part from the public initializer is equal.
        let a = SMSEncoder().analyze("abc")
        let b = SMSEncoder().analyze("abd")
        #expect(a != b)
        let rebuilt = SMSAnalysis(
            text: a.text, encoding: a.encoding, nationalLanguage: a.nationalLanguage, length: a.length,
            segmentCount: a.segmentCount, remainingInLastSegment: a.remainingInLastSegment,
            exceedsConcatenationLimit: a.exceedsConcatenationLimit, parts: a.parts,
            unencodableCharacters: a.unencodableCharacters, changes: a.changes, suggestions: a.suggestions)
        #expect(rebuilt == a && rebuilt.hashValue == a.hashValue)
        // UCS-2: UTF-16 big-endian, surrogate pairs included.
        let ucs2 = SMSEncoder().analyze("中😀")
        #expect(Self.isSingle(ucs2))
        #expect(ucs2.parts[0].userData == [0x4E, 0x2D, 0xD8, 0x3D, 0xDE, 0x00])
        #expect(ucs2.parts[0].userDataLength == 6 && ucs2.parts[0].length == 3)
    }
}
