@testable import PhoneNumbers
import SMSKitTestSupport
import Testing

/// `_buildNationalNumberForParsing` searches for `;phone-context=` and `;isub=` from the input's
/// first `;` on: it must give what searching from the start gives.
@Suite struct NationalNumberForParsingTests {
    let engine = PhoneNumberEngine()

    /// libphonenumber's `_build_national_number_for_parsing`, each search from the start.
    func reference(_ s: _Scalars, into out: UnsafeMutableBufferPointer<Unicode.Scalar>) -> [Unicode.Scalar] {
        var number: [Unicode.Scalar]
        if let contextIndex = engine._find(s, ";phone-context=") {
            let contextStart = contextIndex + 15
            let contextEnd = s[min(contextStart, s.count)...].firstIndex(of: ";") ?? s.count
            let context = _Scalars(rebasing: s[min(contextStart, s.count)..<contextEnd])
            guard engine._isPhoneContextValid(context) else { return [] }
            number = context.first == "+" ? Array(context) : []
            let telIndex = engine._find(s, "tel:").map { $0 + 4 } ?? 0
            if telIndex < contextIndex { number += s[telIndex..<contextIndex] }
        } else {
            guard let start = s.firstIndex(where: { _Chars.isPlus($0) || _UnicodeClasses.isDecimal($0) }) else { return [] }
            var end = s.count
            while end > start, s[end - 1] == "_" || (s[end - 1] != "#" && !_UnicodeClasses.isAlnum(s[end - 1])) { end -= 1 }
            var i = start
            while i < end {
                if s[i] == "\\" || s[i] == "/" {
                    var j = i + 1
                    while j < end, s[j] == " " { j += 1 }
                    if j < end, s[j] == "x" { end = i; break }
                }
                i += 1
            }
            number = Array(s[start..<end])
        }
        let isub = number.withUnsafeBufferPointer { engine._find($0, ";isub=") }
        if let isub, isub > 0 { number = Array(number[0..<isub]) }
        return number
    }

    @Test func searchesFromTheFirstSemicolonFindWhatSearchesFromTheStartFind() {
        var random = SplitMix64(seed: 0x5EED_B11D)
        let pieces = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "+", "-", " ", ";", ";", "tel:", "TEL:",
                      ";isub=", ";isub=", ";phone-context=", ";phone-context=+", ";phone-context=+44",
                      ";phone-context=example.com", ";ext=", "/ x", "\\x", "#", "a", "é", "_", "\u{0661}"]
        var differences: [String] = []
        var contexts = 0, subaddresses = 0
        withUnsafeTemporaryAllocation(of: Unicode.Scalar.self, capacity: 256) { out in
            withUnsafeTemporaryAllocation(of: Unicode.Scalar.self, capacity: 256) { scratch in
                for _ in 0..<100_000 {
                    var text = ""
                    for _ in 0..<random.below(14) { text += pieces[random.below(pieces.count)] }
                    let scalars = Array(text.unicodeScalars)
                    scalars.withUnsafeBufferPointer { s in
                        let expected = reference(s, into: scratch)
                        for flags in [_InputFlags.all, _InputFlags(rawValue: 0x1F)] {
                            let got = Array(engine._buildNationalNumberForParsing(s, into: out, flags: flags))
                            if got != expected { differences.append(text.debugDescription) }
                        }
                        if text.contains(";phone-context=") { contexts += 1 }
                        if text.contains(";isub=") { subaddresses += 1 }
                    }
                }
            }
        }
        #expect(differences.isEmpty, "first differences: \(differences.prefix(10))")
        #expect(contexts > 10_000)
        #expect(subaddresses > 10_000)
    }
}
