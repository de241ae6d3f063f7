import Foundation
import Testing

/// `smskit match A B`: the built binary's stdout, stderr and exit code. Expected
/// matches are the oracle's (phonenumbers 9.0.43 is_number_match) for the same inputs.
@Suite("smskit match")
struct MatchCLITests {
    struct Case: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var match: String
        var status: Int32
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(arguments: ["+16502530000", "+1 650-253-0000"], match: "exact_match", status: 0),
        Case(arguments: ["+1 650 253 0000", "650-253-0000"], match: "nsn_match", status: 0),
        Case(arguments: ["+1 650 253 0000", "253 0000"], match: "short_nsn_match", status: 0),
        Case(arguments: ["650 253 0000", "253 0000"], match: "short_nsn_match", status: 0),
        Case(arguments: ["+1 650 253 0000", "+44 650 253 0000"], match: "no_match", status: 1),
        Case(arguments: ["+1 650 253 0000 ext 12", "+1 650 253 0000 ext 13"], match: "no_match", status: 1),
        Case(arguments: ["abc", "123"], match: "not_a_number", status: 1),
        // With --region the first input is read in it: 020 ... in GB is +44 20 ..., an exact match.
        Case(arguments: ["020 7031 3000", "+44 20 7031 3000", "--region", "GB"], match: "exact_match", status: 0),
        Case(arguments: ["020 7031 3000", "020 7031 3000", "--region", "gb"], match: "nsn_match", status: 0),
        Case(arguments: ["hello", "+44 20 7031 3000", "--region", "GB"], match: "not_a_number", status: 1),
    ]

    @Test(arguments: cases)
    func textOutputAndExitCode(_ c: Case) throws {
        let result = try CLI.run(["match"] + c.arguments)
        #expect(result.stdout == c.match + "\n")
        #expect(result.status == c.status)
        #expect(result.stderr == (c.status == 0 ? "" : "smskit: no match: \(c.match)\n"))
    }

    @Test func jsonFieldsInOrder() throws {
        let result = try CLI.run(["match", "020 7031 3000 ext. 5", "+44 20 7031 3000", "--region", "GB", "--format", "json"])
        #expect(result.status == 0)
        #expect(result.stdout == """
            {
              "first": "020 7031 3000 ext. 5",
              "second": "+44 20 7031 3000",
              "region": "GB",
              "match": "short_nsn_match",
              "is_match": true,
              "first_key": "+442070313000;ext=5",
              "second_key": "+442070313000"
            }

            """)
        let none = try CLI.run(["match", "x", "y", "--format", "json"])
        #expect(none.status == 1)
        let object = try #require(try none.json() as? [String: Any])
        #expect(object["match"] as? String == "not_a_number")
        #expect(object["is_match"] as? Bool == false)
        #expect(object["region"] is NSNull && object["first_key"] is NSNull)
    }

    @Test func usageErrors() throws {
        let missing = try CLI.run(["match", "+16502530000"])
        #expect(missing.status == 64)
        #expect(missing.stdout.isEmpty)
        let region = try CLI.run(["match", "1", "2", "--region", "Germany"])
        #expect(region.status == 64)
        let format = try CLI.run(["match", "1", "2", "--format", "csv"])
        #expect(format.status == 64)
    }
}
