import Foundation
import Testing

/// `smskit verify`: the built binary end to end, on a SQLite store and a JSON-lines outbox in a
/// temporary folder.
@Suite("smskit verify")
struct CLIVerifyTests {
    struct Files {
        let directory: URL
        var store: String { directory.appendingPathComponent("v.sqlite").path }
        var outbox: String { directory.appendingPathComponent("outbox.jsonl").path }
        var tests: String { directory.appendingPathComponent("tests.json").path }
        var common: [String] { ["--store", store, "--test-numbers", tests] }

        init() throws { directory = try CLI.temporaryDirectory() }

        /// The code in the outbox's last line.
        func lastCode() throws -> String {
            let text = try String(contentsOfFile: outbox, encoding: .utf8)
            let line = try #require(text.split(separator: "\n").last)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let sms = try #require(object["text"] as? String)
            #expect(object["to"] is String && object["encoding"] is String && object["parts"] is [Any])
            return String(sms.unicodeScalars.filter { $0.isASCII && ("0"..."9").contains($0) }.map(Character.init))
        }
    }

    let noSecret = ["SMSKIT_VERIFY_SECRET": "", "SMSKIT_VERIFY_SECRET_FILE": "", "SMSKIT_VERIFY_STORE": ""]

    @Test("start, then check across two processes; the secret file is generated with mode 0600")
    func startAndCheck() throws {
        let files = try Files()
        let start = try CLI.run(["verify", "start", "+55 11 96123-4567", "--outbox", files.outbox, "--format", "json"]
                                + files.common, environment: noSecret)
        #expect(start.status == 0, "\(start.stderr)")
        let json = try #require(try start.json() as? [String: Any])
        let id = try #require(json["id"] as? String)
        #expect(id.utf8.count == 22)
        #expect(json["e164"] as? String == "+5511961234567")
        #expect(json["locale"] as? String == "pt-BR")
        #expect(json["segments"] as? Int == 1)
        #expect(json["test"] as? Bool == false)
        #expect(json["expires_at"] is String)
        #expect(start.stderr.contains("generated a new server secret"))
        let attributes = try FileManager.default.attributesOfItem(atPath: files.store + ".secret")
        #expect((attributes[.posixPermissions] as? Int) == 0o600)

        let code = try files.lastCode()
        let wrong = code == "000000" ? "000001" : "000000"
        let bad = try CLI.run(["verify", "check", "--format", "json"] + files.common + ["--", id, wrong], environment: noSecret)
        #expect(bad.status == 1)
        let badJSON = try #require(try bad.json() as? [String: Any])
        #expect(badJSON["status"] as? String == "incorrect_code")
        #expect(badJSON["attempts_left"] as? Int == 4)
        let good = try CLI.run(["verify", "check"] + files.common + ["--", id, code], environment: noSecret)
        #expect(good.status == 0)
        #expect(good.stdout == "approved\n")
        let again = try CLI.run(["verify", "check", "--format", "json"] + files.common + ["--", id, code], environment: noSecret)
        #expect(again.status == 1)
        #expect((try again.json() as? [String: Any])?["status"] as? String == "already_used")
    }

    @Test("status shows the verification and its SMS; cancel makes its code approve nothing")
    func statusAndCancel() throws {
        let files = try Files()
        let env = ["SMSKIT_VERIFY_SECRET": "cli-test-secret-0123456789abcdef0123456789abcdef"]
        let start = try CLI.run(["verify", "start", "+55 11 96123-4567", "--outbox", files.outbox, "--format", "json"]
                                + files.common, environment: env)
        let id = try #require((try start.json() as? [String: Any])?["id"] as? String)
        let code = try files.lastCode()
        let status = try CLI.run(["verify", "status", "--format", "json"] + files.common + ["--", id], environment: env)
        #expect(status.status == 0, "\(status.stderr)")
        let json = try #require(try status.json() as? [String: Any])
        #expect(json["e164"] as? String == "+5511961234567" && json["status"] as? String == "pending")
        #expect(json["locale"] as? String == "pt-BR" && json["attempts_left"] as? Int == 5)
        let messages = try #require(json["messages"] as? [[String: Any]])
        #expect(messages.count == 1 && messages[0]["state"] as? String == "queued")
        let masked = try CLI.run(["verify", "status", "--mask"] + files.common + ["--", id], environment: env)
        #expect(masked.stdout.hasPrefix("pending +***********67 attempts_left=5"), "\(masked.stdout)")
        #expect(masked.stdout.contains("sms 1: queued parts=queued"))

        let cancel = try CLI.run(["verify", "cancel", "--format", "json"] + files.common + ["--", id], environment: env)
        let cancelled = try cancel.json() as? [String: Any]
        #expect(cancel.status == 0 && cancelled?["status"] as? String == "cancelled")
        let again = try CLI.run(["verify", "cancel"] + files.common + ["--", id], environment: env)
        #expect(again.status == 0 && again.stdout == "already_cancelled\n")
        let check = try CLI.run(["verify", "check"] + files.common + ["--", id, code], environment: env)
        #expect(check.status == 1 && check.stdout == "expired\n")
        let after = try CLI.run(["verify", "status"] + files.common + ["--", id], environment: env)
        #expect(after.stdout.hasPrefix("cancelled "))
        let missing = try CLI.run(["verify", "cancel"] + files.common + ["--", "AAAAAAAAAAAAAAAAAAAAAA"], environment: env)
        #expect(missing.status == 1 && missing.stdout == "not_found\n")
        let none = try CLI.run(["verify", "status"] + files.common + ["--", "AAAAAAAAAAAAAAAAAAAAAA"], environment: env)
        #expect(none.status == 1)
    }

    @Test("test numbers: add, list, start without SMS, check the fixed code, remove")
    func testNumbers() throws {
        let files = try Files()
        let env = ["SMSKIT_VERIFY_SECRET": "cli-test-secret-0123456789abcdef0123456789abcdef"]
        let add = try CLI.run(["verify", "test-numbers", "add", "+1 650-555-0100", "123456", "--test-numbers", files.tests])
        #expect(add.status == 0 && add.stdout == "+16505550100\n", "\(add.stderr)")
        let real = try CLI.run(["verify", "test-numbers", "add", "+1 650-253-0000", "123456", "--test-numbers", files.tests])
        #expect(real.status == 1 && real.stderr.contains("notFictional"))
        let list = try CLI.run(["verify", "test-numbers", "list", "--format", "json", "--test-numbers", files.tests])
        #expect((try list.json() as? [[String: Any]])?.first?["code"] as? String == "123456")
        let start = try CLI.run(["verify", "start", "6505550100", "--region", "US", "--outbox", files.outbox,
                                 "--format", "json"] + files.common, environment: env)
        #expect(start.status == 0, "\(start.stderr)")
        let json = try #require(try start.json() as? [String: Any])
        #expect(json["test"] as? Bool == true)
        #expect(!FileManager.default.fileExists(atPath: files.outbox))
        let check = try CLI.run(["verify", "check"] + files.common + ["--", try #require(json["id"] as? String), "123456"],
                                environment: env)
        #expect(check.status == 0 && check.stdout == "approved\n")
        let remove = try CLI.run(["verify", "test-numbers", "remove", "+16505550100", "--test-numbers", files.tests])
        #expect(remove.status == 0)
        let fictional = try CLI.run(["verify", "start", "+16505550100", "--outbox", files.outbox, "--format", "json"]
                                    + files.common, environment: env)
        #expect(fictional.status == 1)
        #expect(((try fictional.json() as? [String: Any])?["error"] as? [String: Any])?["code"] as? String == "fictional_number")
    }

    @Test("refusals exit 1 with a typed reason; usage errors exit 64")
    func refusalsAndUsage() throws {
        let files = try Files()
        let env = ["SMSKIT_VERIFY_SECRET": "cli-test-secret-0123456789abcdef0123456789abcdef"]
        let premium = try CLI.run(["verify", "start", "+1 900 234 5678", "--outbox", files.outbox, "--format", "json"]
                                  + files.common, environment: env)
        #expect(premium.status == 1)
        // The service's error document, byte for byte as the service's test expects it (compact
        // there, pretty-printed here).
        #expect(compactJSON(premium.stdout) == refusedPremiumDocument)
        let garbage = try CLI.run(["verify", "start", "not a number", "--outbox", files.outbox] + files.common,
                                  environment: env)
        #expect(garbage.status == 1 && garbage.stderr.contains("invalid_number"))
        _ = try CLI.run(["verify", "start", "+16502530000", "--outbox", files.outbox] + files.common, environment: env)
        let cooldown = try CLI.run(["verify", "start", "+16502530000", "--outbox", files.outbox, "--format", "json"]
                                   + files.common, environment: env)
        #expect(cooldown.status == 1)
        let refusal = try #require(try cooldown.json() as? [String: Any])
        #expect(Set(refusal.keys) == ["error"])
        let error = try #require(refusal["error"] as? [String: Any])
        #expect(Set(error.keys) == ["code", "message"] && error["code"] as? String == "resend_cooldown")
        #expect((error["message"] as? String)?.contains("Retry after 20") == true)
        let letters = try CLI.run(["verify", "check", String(repeating: "A", count: 22), "12a456"] + files.common,
                                  environment: env)
        #expect(letters.status == 1 && letters.stderr.contains("malformed_code"))
        let notFound = try CLI.run(["verify", "check", String(repeating: "A", count: 22), "123456"] + files.common,
                                   environment: env)
        #expect(notFound.status == 1 && notFound.stdout == "not_found\n")
        let usage = try CLI.run(["verify", "start"], environment: env)
        #expect(usage.status == 64)
        let format = try CLI.run(["verify", "check", "x", "123456", "--format", "xml"] + files.common, environment: env)
        #expect(format.status == 64)
        let region = try CLI.run(["verify", "start", "6502530000", "--region", "U$"] + files.common, environment: env)
        #expect(region.status == 64)
    }

    @Test("a corrupted store file and a world-readable or short secret are refused")
    func faults() throws {
        let files = try Files()
        FileManager.default.createFile(atPath: files.store, contents: Data("not a database".utf8))
        let env = ["SMSKIT_VERIFY_SECRET": "cli-test-secret-0123456789abcdef0123456789abcdef"]
        let corrupted = try CLI.run(["verify", "check", String(repeating: "A", count: 22), "123456"] + files.common,
                                    environment: env)
        #expect(corrupted.status == 1)
        #expect(corrupted.stderr.contains("damaged") || corrupted.stderr.contains("store_corrupted"))
        let short = try CLI.run(["verify", "start", "+16502530000"] + files.common,
                                environment: ["SMSKIT_VERIFY_SECRET": "short"])
        #expect(short.status == 1 && short.stderr.contains("32"))
        let secretFile = files.directory.appendingPathComponent("open.secret").path
        FileManager.default.createFile(atPath: secretFile, contents: Data(String(repeating: "k", count: 40).utf8),
                                       attributes: [.posixPermissions: 0o644])
        let open = try CLI.run(["verify", "start", "+16502530000"] + files.common,
                               environment: ["SMSKIT_VERIFY_SECRET": "", "SMSKIT_VERIFY_SECRET_FILE": secretFile])
        #expect(open.status == 1 && open.stderr.contains("chmod 600"))
    }
}

/// The error document of a refused premium-rate number; `VerificationEndpointTests` expects the
/// same bytes from the service.
private let refusedPremiumDocument =
    #"{"error":{"code":"refused_number_type","message":"+19002345678 is a premium rate number, which is refused."}}"#

/// A JSON text without the whitespace outside its strings.
private func compactJSON(_ text: String) -> String {
    var out = ""
    var inString = false
    var escaped = false
    for character in text {
        if inString {
            out.append(character)
            if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
        } else if character == "\"" {
            inString = true
            out.append(character)
        } else if !character.isWhitespace {
            out.append(character)
        }
    }
    return out
}
