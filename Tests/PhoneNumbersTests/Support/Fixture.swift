import Foundation

/// Reads a committed oracle fixture (Tests/PhoneNumbersTests/Fixtures, see its README): rows of
/// tab-separated fields, header first, with `\\`, `\t`, `\n`, `\r` escapes.
struct Fixture {
    let header: [String]
    let rows: [[String]]

    init(_ name: String) throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()  // Support, then PhoneNumbersTests
            .appendingPathComponent("Fixtures").appendingPathComponent(name)
        let text = try String(contentsOf: url, encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        header = lines.removeFirst().split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        rows = lines.map { line in
            line.split(separator: "\t", omittingEmptySubsequences: false).map { Fixture.unescape($0) }
        }
    }

    func column(_ name: String) -> Int { header.firstIndex(of: name)! }

    static func unescape(_ field: Substring) -> String {
        guard field.contains("\\") else { return String(field) }
        var out = ""
        var escaping = false
        for ch in field {
            if escaping {
                switch ch {
                case "t": out.append("\t")
                case "n": out.append("\n")
                case "r": out.append("\r")
                default: out.append(ch)
                }
                escaping = false
            } else if ch == "\\" {
                escaping = true
            } else {
                out.append(ch)
            }
        }
        return out
    }
}
