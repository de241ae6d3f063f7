import Foundation
import PhoneNumbers
@testable import SMSKitServer
import Testing

/// The OpenAPI document states the constraints the service enforces: for each value here, the
/// document's pattern matches exactly when the service's own check accepts it (schemathesis, in
/// `.ci/serve-contract.sh`, checks the same from outside, on generated values).
@Suite("OpenAPI constraints agree with the service's checks")
struct OpenAPIConstraintTests {
    /// The `pattern` given under `property:` (the first after it) in openapi.yaml, unescaped.
    static func pattern(after property: String) throws -> NSRegularExpression {
        let document = OpenAPIDocument.text
        let start = try #require(document.range(of: "\n" + property))
        let line = try #require(document.range(of: "pattern: \"", range: start.upperBound..<document.endIndex))
        let end = try #require(document.range(of: "\"", range: line.upperBound..<document.endIndex))
        let escaped = String(document[line.upperBound..<end.lowerBound])
        return try NSRegularExpression(pattern: escaped.replacingOccurrences(of: "\\\\", with: "\\"))
    }

    static func matches(_ regex: NSRegularExpression, _ text: String) -> Bool {
        regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    @Test("national_tables", arguments: [
        "", "none", "NONE", "all", "All", "turkish", "Turkish,ES, 6", "tr,,es,", ",,", "+1", "013", "13", "14", "0",
        " ", "none,tr", "klingon", "tr;es", "\u{212A}n", "hi , ur", "portuguese,pt,3",
    ])
    func nationalTables(_ value: String) throws {
        let regex = try Self.pattern(after: "        national_tables:")
        let accepted = (try? SegmentsQuery.tables(value)) != nil
        #expect(Self.matches(regex, value) == accepted, "'\(value)': the service \(accepted ? "accepts" : "refuses") it")
    }

    @Test("region of a verification", arguments: ["GB", "gb", "001", "Gb", "", "G", "GBR", "01", "1", "Z9", "ÉT"])
    func region(_ value: String) throws {
        let regex = try Self.pattern(after: "        region: { type: [string, \"null\"], ")
        #expect(Self.matches(regex, value) == (RegionCode(value) != nil), "'\(value)'")
    }

    @Test("region of find and match", arguments: ["GB", "gb", "001", "ZZ", "zz", "Gb", "", "G", "GBR", "01", "1", "Z9", "ÉT"])
    func findRegion(_ value: String) throws {
        let regex = try Self.pattern(after: "    Region:")
        let accepted: Bool
        do { _ = try RegionParameter.parse(value); accepted = true } catch { accepted = false }
        #expect(Self.matches(regex, value) == accepted, "'\(value)': the service \(accepted ? "accepts" : "refuses") it")
    }

    /// The number after `key` in the text that follows `anchor` in openapi.yaml.
    static func number(_ key: String, after anchor: String) throws -> Int {
        let document = OpenAPIDocument.text
        let start = try #require(document.range(of: anchor))
        let found = try #require(document.range(of: key, range: start.upperBound..<document.endIndex))
        let digits = document[found.upperBound...].prefix { $0.isNumber }
        return try #require(Int(digits))
    }

    @Test("the find and match limits the document states are the service's defaults")
    func findAndMatchLimits() throws {
        let defaults = SMSKitServerConfiguration()
        #expect(try Self.number("maxLength: ", after: "    FindQuery:") == defaults.maxFindTextLength)
        #expect(try Self.number("maxItems: ", after: "  /v1/numbers/find:") == defaults.maxFindNumbers)
        #expect(try Self.number("maxLength: ", after: "    MatchQuery:") == NumberMatchEndpoint.maxInputLength)
        let description = try #require(OpenAPIDocument.text.range(of: "  /v1/numbers/find:"))
        let text = OpenAPIDocument.text[description.upperBound...].prefix(2_000)
        #expect(text.contains("more than 16,384 characters") && defaults.maxFindTextLength == 16_384)
        #expect(text.contains("more than 1,000 numbers") && defaults.maxFindNumbers == 1_000)
    }
}
