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

/// `smskit verify events`: the built binary reads the events that `start` and `check` wrote, in
/// cursor order, and goes on from a cursor.
@Suite("smskit verify events")
struct CLIVerifyEventsTests {
    let environment = ["SMSKIT_VERIFY_SECRET": "", "SMSKIT_VERIFY_SECRET_FILE": "", "SMSKIT_VERIFY_STORE": ""]

    @Test("events as JSON lines and text, paged by cursor; no number or code in them; bad options exit 64")
    func events() throws {
        let files = try CLIVerifyTests.Files()
        let start = try CLI.run(["verify", "start", "+44 7400 123456", "--outbox", files.outbox, "--format", "json"] + files.common,
                                environment: environment)
        #expect(start.status == 0, "\(start.stderr)")
        let id = try #require((try start.json() as? [String: Any])?["id"] as? String)
        let code = try files.lastCode()
        let wrong = code == "000000" ? "111111" : "000000"
        for typed in [wrong, code] {
            _ = try CLI.run(["verify", "check"] + files.common + ["--", id, typed], environment: environment)
        }

        let json = try CLI.run(["verify", "events", "--format", "json"] + files.common, environment: environment)
        #expect(json.status == 0, "\(json.stderr)")
        let lines = json.stdout.split(separator: "\n").map(String.init)
        let events = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(events.compactMap { $0["kind"] as? String } == ["started", "sent", "incorrect_code", "approved"])
        #expect(events.allSatisfy { $0["verification_id"] as? String == id })
        #expect(events.compactMap { $0["sequence"] as? Int } == [1, 2, 3, 4])
        let cursors = events.compactMap { ($0["cursor"] as? NSNumber)?.int64Value }
        #expect(cursors.count == 4 && cursors == cursors.sorted() && Set(cursors).count == 4)
        let withoutIDs = json.stdout.replacingOccurrences(of: id, with: "")
        #expect(!withoutIDs.contains("7400123456") && !withoutIDs.contains(code))

        let page = try CLI.run(["verify", "events", "--after", String(cursors[1]), "--limit", "1"] + files.common,
                               environment: environment)
        #expect(page.status == 0, "\(page.stderr)")
        let fields = page.stdout.split(separator: "\t").map(String.init)
        #expect(page.stdout.hasSuffix("\n") && page.stdout.split(separator: "\n").count == 1)
        #expect(fields.count == 4 && fields[0] == String(cursors[2]) && fields[1] == "\(id).3" && fields[2] == "incorrect_code")

        let past = try CLI.run(["verify", "events", "--after", String(cursors[3])] + files.common, environment: environment)
        #expect(past.status == 0 && past.stdout.isEmpty, "\(past.stderr)")

        for bad in [["--after", "-1"], ["--limit", "0"], ["--limit", "1001"], ["--after", "x"]] {
            let refused = try CLI.run(["verify", "events"] + bad + files.common, environment: environment)
            #expect(refused.status == 64, "\(bad): \(refused.stderr)")
        }
    }
}
