import Foundation

/// A committed oracle fixture of Tests/PhoneNumberExtrasTests/Fixtures (see its README):
/// tab-separated rows with a header line; fields escape backslash, tab, newline and return.
struct ExtrasFixture {
    let header: [String]
    let rows: [[String]]

    init(_ name: String) throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures").appendingPathComponent(name)
        let text = try String(contentsOf: url, encoding: .utf8)
        var lines = text.split(separator: "\n")
        header = lines.removeFirst().split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        rows = lines.map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(ExtrasFixture.unescape) }
    }

    /// The value of column `name` in `row`.
    func field(_ row: [String], _ name: String) -> String {
        guard let index = header.firstIndex(of: name), index < row.count else { return "<missing \(name)>" }
        return row[index]
    }

    static func unescape(_ field: Substring) -> String {
        guard field.contains("\\") else { return String(field) }
        var out = ""
        var escaping = false
        for character in field {
            if escaping {
                out.append(["t": "\t", "n": "\n", "r": "\r"][character] ?? character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                out.append(character)
            }
        }
        return out
    }
}
