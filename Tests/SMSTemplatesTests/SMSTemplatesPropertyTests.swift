import SMSTemplates
import SMSKitTestSupport
import Testing

/// Rendering never leaves an argument unfilled, checked against a model over generated patterns.
///
/// Each round builds a random ICU MessageFormat pattern from pieces whose output is known:
/// literal text, quoted literals (`''`, `'{'`, `'{code}'`), simple arguments, `{n, number}`,
/// `{n, plural, ...}` with `#` and `=0`, and `{sel, select, ...}` with nested arguments. It
/// renders the pattern in an `en` catalog with random values and compares the text with what
/// the model says ICU must produce. A fixed seed makes every run check the same patterns.
@Suite struct SMSTemplatesPropertyTests {
    /// The random values of one round.
    struct Values {
        var code: String
        var appName: String
        var user: String
        var n: Int
        var sel: String
    }

    /// A pattern and the text it must render to.
    struct Piece {
        var pattern: String
        var expected: String
    }

    /// `n` as en formats an integer: grouping with commas.
    static func grouped(_ n: Int) -> String {
        let digits = String(n)
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return out
    }

    static let literalCharacters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,:;!?-_()/@%*+=éü€中😀")

    static func literal(_ random: inout SplitMix64) -> Piece {
        let text = String((0..<Int.random(in: 1...8, using: &random)).map { _ in literalCharacters.randomElement(using: &random)! })
        return Piece(pattern: text, expected: text)
    }

    /// A piece that may appear anywhere; `depth` limits nesting, `inPlural` allows `#`.
    static func piece(_ random: inout SplitMix64, values: Values, depth: Int, inPlural: Bool) -> Piece {
        let choice = Int.random(in: 0..<(depth > 0 ? 12 : 9), using: &random)
        switch choice {
        case 0, 1: return literal(&random)
        case 2: return Piece(pattern: "''", expected: "'")
        case 3:
            // A quote starts quoted text only before syntax: # is syntax only inside a plural.
            let quoted = (["{", "}", "{code}", "{appName}", "{n, plural, other {#}}"] + (inPlural ? ["#"] : []))
                .randomElement(using: &random)!
            return Piece(pattern: "'\(quoted)'", expected: quoted)
        case 4: return Piece(pattern: "{code}", expected: values.code)
        case 5: return Piece(pattern: "{appName}", expected: values.appName)
        case 6: return Piece(pattern: "{user}", expected: values.user)
        case 7: return Piece(pattern: "{n, number}", expected: grouped(values.n))
        case 8:
            return inPlural ? Piece(pattern: "#", expected: grouped(values.n)) : Piece(pattern: "{n}", expected: grouped(values.n))
        case 9, 10:
            let zero = sequence(&random, values: values, depth: depth - 1, inPlural: true)
            let one = sequence(&random, values: values, depth: depth - 1, inPlural: true)
            let other = sequence(&random, values: values, depth: depth - 1, inPlural: true)
            let withZero = Bool.random(using: &random)
            let pattern = "{n, plural, " + (withZero ? "=0 {\(zero.pattern)} " : "") + "one {\(one.pattern)} other {\(other.pattern)}}"
            let expected = withZero && values.n == 0 ? zero.expected : values.n == 1 ? one.expected : other.expected
            return Piece(pattern: pattern, expected: expected)
        default:
            // `#` means the plural number only directly in a plural's sub-messages, not in a
            // select nested there (ICU MessagePattern).
            let a = sequence(&random, values: values, depth: depth - 1, inPlural: false)
            let b = sequence(&random, values: values, depth: depth - 1, inPlural: false)
            let other = sequence(&random, values: values, depth: depth - 1, inPlural: false)
            let expected = values.sel == "a" ? a.expected : values.sel == "b" ? b.expected : other.expected
            return Piece(pattern: "{sel, select, a {\(a.pattern)} b {\(b.pattern)} other {\(other.pattern)}}", expected: expected)
        }
    }

    /// Pieces joined by one space, so that a quoted literal never runs into the next piece.
    static func sequence(_ random: inout SplitMix64, values: Values, depth: Int, inPlural: Bool) -> Piece {
        let pieces = (0..<Int.random(in: 1...4, using: &random)).map { _ in
            piece(&random, values: values, depth: depth, inPlural: inPlural)
        }
        return Piece(pattern: pieces.map(\.pattern).joined(separator: " "), expected: pieces.map(\.expected).joined(separator: " "))
    }

    /// Values that contain template syntax themselves: they must come out as written.
    static func values(_ random: inout SplitMix64) -> Values {
        let codeAlphabet = Array("0123456789ABCDEFabcdef-")
        let textAlphabet = Array("Acme Shop {}'#|,=0123 {code} {n, plural, other {#}} éü中😀")
        func text(_ range: ClosedRange<Int>) -> String {
            String((0..<Int.random(in: range, using: &random)).map { _ in textAlphabet.randomElement(using: &random)! })
        }
        return Values(
            code: String((0..<Int.random(in: 1...16, using: &random)).map { _ in codeAlphabet.randomElement(using: &random)! }),
            appName: "A" + text(0...40),
            user: text(0...60),
            n: [0, 1, 2, 5, 21, 999, 1_000, 1_234, Int.random(in: 0...2_000_000, using: &random)].randomElement(using: &random)!,
            sel: ["a", "b", "zz", "other", "A"].randomElement(using: &random)!)
    }

    @Test("rendering a generated pattern gives the model's text: no argument left unfilled", arguments: 0..<4)
    func renderingMatchesTheModel(seed: Int) throws {
        let id = try #require(MessageID(rawValue: "generated"))
        var random = SplitMix64(seed: 0x7E3A_0000 &+ UInt64(seed))
        var failures: [String] = []
        for round in 0..<400 {
            let values = Self.values(&random)
            let piece = Self.sequence(&random, values: values, depth: 2, inPlural: false)
            // Brackets around the pattern: the catalog format trims spaces at the ends of a line.
            let arguments: [String: TemplateValue] = [
                "code": .text(values.code), "appName": .text(values.appName), "user": .text(values.user),
                "n": .integer(values.n), "sel": .text(values.sel),
            ]
            do {
                let catalog = try TemplateCatalog(parsing: "generated = [\(piece.pattern)]\n", locale: "en")
                let renderer = try SMSTemplateRenderer(catalogs: [catalog], includeBundled: false)
                let sms = try renderer.render(id, locale: "en", arguments: arguments)
                if sms.text != "[\(piece.expected)]", failures.count < 10 {
                    failures.append("round \(round): pattern [\(piece.pattern)]\n  got      \(sms.text)\n  expected [\(piece.expected)]")
                }
            } catch {
                if failures.count < 10 { failures.append("round \(round): pattern [\(piece.pattern)]: \(error)") }
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}

