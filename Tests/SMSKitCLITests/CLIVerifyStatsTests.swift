import Foundation
import Testing

/// `smskit verify stats`: the built binary on a SQLite store that `smskit verify start` and
/// `check` filled.
@Suite("smskit verify stats")
struct CLIVerifyStatsTests {
    let environment = ["SMSKIT_VERIFY_SECRET": "", "SMSKIT_VERIFY_SECRET_FILE": "", "SMSKIT_VERIFY_STORE": ""]

    @Test("sent and approved per region and range, as text and as the JSON of GET /v1/stats; bad options exit 64")
    func stats() throws {
        let files = try CLIVerifyTests.Files()
        for number in ["+44 7400 123456", "+44 7400 123457", "+49 151 23456789"] {
            let start = try CLI.run(["verify", "start", number, "--outbox", files.outbox, "--format", "json"] + files.common,
                                    environment: environment)
            #expect(start.status == 0, "\(start.stderr)")
            if number.hasSuffix("456") {
                let id = try #require((try start.json() as? [String: Any])?["id"] as? String)
                let check = try CLI.run(["verify", "check"] + files.common + ["--", id, try files.lastCode()],
                                        environment: environment)
                #expect(check.status == 0, "\(check.stderr)")
            }
        }
        let text = try CLI.run(["verify", "stats"] + files.common, environment: environment)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout == "region\tsent\tdelivered\tfailed\tapproved\nGB\t2\t0\t0\t1\nDE\t1\t0\t0\t0\n")

        let json = try CLI.run(["verify", "stats", "--by", "range", "--limit", "1", "--format", "json"] + files.common,
                               environment: environment)
        #expect(json.status == 0, "\(json.stderr)")
        let document = try #require(try json.json() as? [String: Any])
        #expect(document["by"] as? String == "range")
        #expect(document["window_seconds"] as? Int == 86_400)
        let rows = try #require(document["stats"] as? [[String: Any]])
        #expect(rows.count == 1)
        #expect(rows.first?["value"] as? String == "44:740012")
        #expect(rows.first?["sent"] as? Int == 2)
        #expect(rows.first?["approved"] as? Int == 1)

        for bad in [["--by", "country"], ["--limit", "0"], ["--limit", "1001"]] {
            let refused = try CLI.run(["verify", "stats"] + bad + files.common, environment: environment)
            #expect(refused.status == 64, "\(bad): \(refused.stderr)")
        }
    }
}
