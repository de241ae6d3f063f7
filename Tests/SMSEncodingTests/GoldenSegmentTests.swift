import SMSEncoding
import Testing

@Suite("Golden segment counts")
struct GoldenSegmentTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var encoding: SMSCharacterEncoding
        var length: Int
        var segments: Int
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "empty", text: "", encoding: .gsm7, length: 0, segments: 1),
        Case(name: "160 a", text: String(repeating: "a", count: 160), encoding: .gsm7, length: 160, segments: 1),
        Case(name: "161 a", text: String(repeating: "a", count: 161), encoding: .gsm7, length: 161, segments: 2),
        Case(name: "306 a", text: String(repeating: "a", count: 306), encoding: .gsm7, length: 306, segments: 2),
        Case(name: "307 a", text: String(repeating: "a", count: 307), encoding: .gsm7, length: 307, segments: 3),
        Case(name: "70 中", text: String(repeating: "中", count: 70), encoding: .ucs2, length: 70, segments: 1),
        Case(name: "71 中", text: String(repeating: "中", count: 71), encoding: .ucs2, length: 71, segments: 2),
        Case(name: "134 中", text: String(repeating: "中", count: 134), encoding: .ucs2, length: 134, segments: 2),
        Case(name: "135 中", text: String(repeating: "中", count: 135), encoding: .ucs2, length: 135, segments: 3),
        // CRLF counts two septets: 80 + 2 + 79 = 161 > 160; with LF alone 160.
        Case(name: "CRLF counts 2", text: String(repeating: "a", count: 80) + "\r\n" + String(repeating: "a", count: 79),
             encoding: .gsm7, length: 161, segments: 2),
        Case(name: "LF counts 1", text: String(repeating: "a", count: 80) + "\n" + String(repeating: "a", count: 79),
             encoding: .gsm7, length: 160, segments: 1),
        Case(name: "precomposed é is GSM", text: "Caf\u{E9}", encoding: .gsm7, length: 4, segments: 1),
        Case(name: "decomposed é forces UCS-2", text: "Cafe\u{301}", encoding: .ucs2, length: 5, segments: 1),
        // 153 × "]" = 306 septets, but escape pairs are never split: 76 per part (152 septets) -> 76 + 76 + 1.
        Case(name: "153 ] is 3 segments", text: String(repeating: "]", count: 153), encoding: .gsm7, length: 306, segments: 3),
        Case(name: "80 € fits", text: String(repeating: "€", count: 80), encoding: .gsm7, length: 160, segments: 1),
        Case(name: "emoji is 2 units", text: String(repeating: "a", count: 68) + "😀", encoding: .ucs2, length: 70, segments: 1),
        Case(name: "extension char counts 1 in UCS-2", text: "中€", encoding: .ucs2, length: 2, segments: 1),
    ]

    @Test(arguments: cases)
    func golden(_ testCase: Case) {
        let encoder = SMSEncoder()
        let analysis = encoder.analyze(testCase.text)
        #expect(analysis.encoding == testCase.encoding)
        #expect(analysis.length == testCase.length)
        #expect(analysis.segmentCount == testCase.segments)
        #expect(analysis.parts.count == testCase.segments)
        #expect(encoder.segmentCount(testCase.text) == testCase.segments)
        #expect(analysis.parts.map(\.text).joined() == testCase.text)
    }
}
