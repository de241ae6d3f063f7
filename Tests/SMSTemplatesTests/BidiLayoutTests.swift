import Foundation
import Testing
@testable import SMSTemplates

/// Every bundled message laid out by ICU's Unicode Bidirectional Algorithm (`ubidi`), as a handset
/// shows it, with Latin, Hebrew, Arabic, mixed and digit-only app names: the paragraph keeps the
/// message's direction, the code stays whole and on the reading side of the name, and a handset
/// that ignores isolates (direction from the first strong letter) still gets the direction right.
///
/// Set `SMSKIT_PRINT_BIDI=1` to print the counts per locale.
@Suite struct BidiLayoutTests {
    static let code = "042917"
    static let names: [(kind: String, name: String)] = [
        ("Latin", "Acme Bank"), ("Hebrew", "בנק אקמה"), ("Arabic", "متجر أكمي"),
        ("mixed", "Acme בנק"), ("digits", "2024"),
    ]

    /// UTF-16 offsets of `part` in `text`.
    static func utf16Range(of part: String, in text: String) -> Range<Int>? {
        guard let range = text.range(of: part) else { return nil }
        let start = text.utf16.distance(from: text.startIndex, to: range.lowerBound)
        return start..<(start + part.utf16.count)
    }

    /// Whether `first` is read before `second` in the laid-out line. In a left-to-right paragraph
    /// that is left of it. In a right-to-left one it is right of it, or both sit in one
    /// left-to-right phrase, `first` on the left and what lies between them in between (a Latin
    /// name and the code: "Acme Bank: 042917"), which a reader of a right-to-left script reads
    /// left to right.
    static func isReadBefore(_ first: Range<Int>, _ second: Range<Int>, visual: [Int], rightToLeft: Bool) -> Bool {
        let a = first.map { visual[$0] }, b = second.map { visual[$0] }
        if !rightToLeft { return a.max()! < b.min()! }
        if a.min()! > b.max()! { return true }
        guard a.max()! < b.min()! else { return false }
        return (first.upperBound..<second.lowerBound).allSatisfy { visual[$0] > a.max()! && visual[$0] < b.min()! }
    }

    @Test(arguments: SMSTemplateRenderer.bundledLocales)
    func codeStaysOnTheReadingSideOfTheName(locale: String) throws {
        let renderer = try SMSTemplateRenderer()
        let rightToLeft = _ICU.isRightToLeft(try #require(_ICU.canonicalize(locale)))
        var laidOut = 0, isolated = 0, marked = 0
        for id in MessageID.bundled {
            for (kind, name) in Self.names {
                let sms = try renderer.render(id, locale: locale, code: Self.code, appName: name, minutes: 5)
                let text = sms.text
                let layout = try #require(_ICU.bidiLayout(text))
                laidOut += 1
                if text.unicodeScalars.contains("\u{2068}") { isolated += 1 }
                if text.unicodeScalars.first == "\u{200E}" || text.unicodeScalars.first == "\u{200F}" { marked += 1 }
                let what = "\(locale) \(id) \(kind): \(text.debugDescription)"

                #expect(layout.isRightToLeft == rightToLeft, "paragraph direction: \(what)")
                // A handset without isolate support takes the direction from the first strong letter.
                #expect(_ICU.firstStrongDirection(text) == (rightToLeft ? .rightToLeft : .leftToRight), "first strong letter: \(what)")

                let codeRange = try #require(Self.utf16Range(of: Self.code, in: text), "\(what)")
                let nameRange = try #require(Self.utf16Range(of: name, in: text), "\(what)")
                // The code's digits stay together, left to right.
                let digits = codeRange.map { layout.visual[$0] }
                #expect(zip(digits, digits.dropFirst()).allSatisfy { $1 == $0 + 1 }, "the code is broken up: \(what)")
                // And the code is read on the same side of the name as the message puts it.
                if codeRange.lowerBound >= nameRange.upperBound {
                    #expect(Self.isReadBefore(nameRange, codeRange, visual: layout.visual, rightToLeft: rightToLeft),
                            "the code moved before the name: \(what)")
                } else {
                    #expect(Self.isReadBefore(codeRange, nameRange, visual: layout.visual, rightToLeft: rightToLeft),
                            "the code moved after the name: \(what)")
                }
            }
        }
        #expect(laidOut == MessageID.bundled.count * Self.names.count)
        if ProcessInfo.processInfo.environment["SMSKIT_PRINT_BIDI"] != nil {
            print("BIDI \(locale) \(rightToLeft ? "rtl" : "ltr") laid out \(laidOut), isolated \(isolated), marked \(marked)")
        }
    }

    /// The layout helper itself: a Hebrew word in a left-to-right line is reversed in place, and
    /// the paragraph direction follows the first strong letter.
    @Test func layoutHelperFollowsTheBidiAlgorithm() throws {
        let mixed = try #require(_ICU.bidiLayout("ab אב"))
        #expect(!mixed.isRightToLeft)
        #expect(mixed.visual == [0, 1, 2, 4, 3])
        let hebrew = try #require(_ICU.bidiLayout("אב 12"))
        #expect(hebrew.isRightToLeft)
        #expect(hebrew.visual == [4, 3, 2, 0, 1])
        // Without the isolate the code after a Hebrew name moves to its left (the bug isolates fix).
        let bare = try #require(_ICU.bidiLayout("Код אב: 12"))
        let isolated = try #require(_ICU.bidiLayout("Код \u{2068}אב\u{2069}: 12"))
        #expect(bare.visual[8] < bare.visual[4])
        #expect(isolated.visual[10] > isolated.visual[6])
        #expect(_ICU.bidiLayout("") == nil)
    }
}
