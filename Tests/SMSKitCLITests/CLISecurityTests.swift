import Foundation
import Testing

/// What command-line values cannot do: a `--lang` value is a language tag, never a path; an
/// `--app` value is text, never template syntax or bidi controls; a `--catalog` of absurd size
/// is refused without reading it.
@Suite("smskit: hostile arguments")
struct CLISecurityTests {
    /// A catalog directory next to files a path traversal would reach.
    static func catalogs() throws -> (directory: URL, catalogs: String) {
        let directory = try CLI.temporaryDirectory()
        let catalogs = directory.appendingPathComponent("catalogs")
        try FileManager.default.createDirectory(at: catalogs, withIntermediateDirectories: true)
        try "verification_code = {code} is your {appName} code (custom).\n"
            .write(to: catalogs.appendingPathComponent("en-GB.txt"), atomically: true, encoding: .utf8)
        for name in ["secret.txt", "passwd.txt", "..txt"] {
            try "verification_code = LEAKED {code} {appName}\n".write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return (directory, catalogs.path)
    }

    @Test("--lang values shaped like paths select a loaded catalog or fail as usage errors",
          arguments: ["../secret", "../../etc/passwd", "/etc/passwd", "..", "en-GB/../../secret", "catalogs/../secret",
                      "%2e%2e/secret", "file:///etc/passwd", "secret"])
    func languageIsNotAPath(lang: String) throws {
        let (directory, catalogs) = try Self.catalogs()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CLI.run(["render", "--lang", lang, "--code", "1234", "--app", "Acme", "--catalog", catalogs, "--format", "json"])
        #expect(!result.stdout.contains("LEAKED") && !result.stderr.contains("LEAKED"))
        #expect(!result.stdout.contains("root:") && !result.stderr.contains("root:"))
        if result.status == 0 {
            let object = try #require(try result.json() as? [String: Any])
            #expect(["en", "en-GB"].contains(object["locale"] as? String ?? ""), "locale \(object["locale"] ?? "nil")")
        } else {
            #expect(result.status == 64, "stderr: \(result.stderr)")
            #expect(result.stderr.contains("invalid_locale"))
        }
    }

    @Test("--app values are text: template syntax shows as written, controls are removed")
    func appNameIsText() throws {
        let name = "{code}\u{202E}'{'#\u{2066}\u{7}{minutes, plural, other {#}}"
        let result = try CLI.run(["render", "--lang", "en", "--code", "1234", "--app", name, "--format", "json"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let object = try #require(try result.json() as? [String: Any])
        #expect(object["text"] as? String == "1234 is your {code}'{'#{minutes, plural, other {#}} verification code.")
    }

    @Test("a --catalog of absurd size is refused at once with status 1")
    func hugeCatalog() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("en.txt").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        #expect(truncate(path, off_t(1) << 36) == 0)  // sparse, 64 GiB
        for catalog in [path, "/dev/zero"] {
            let result = try CLI.run(["render", "--lang", "en", "--code", "1234", "--app", "Acme", "--catalog", catalog])
            #expect(result.status == 1)
            #expect(result.stderr.contains("larger than 1 MiB"), "stderr: \(result.stderr)")
        }
    }
}
