import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `smskit verify`: the code kept off the command line, private files, refused secrets.
@Suite("smskit verify: codes on stdin, private files, secrets")
struct CLIVerifySecretsTests {
    typealias Files = CLIVerifyTests.Files
    let env = ["SMSKIT_VERIFY_SECRET": "cli-test-secret-0123456789abcdef0123456789abcdef", "SMSKIT_VERIFY_SECRET_FILE": ""]

    func permissions(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_mode & 0o777)
    }

    /// Starts a verification of a real number; its ID and the code from the outbox.
    func started(_ files: Files) throws -> (id: String, code: String) {
        let start = try CLI.run(["verify", "start", "+16502530000", "--outbox", files.outbox, "--format", "json"]
                                + files.common, environment: env)
        #expect(start.status == 0, "\(start.stderr)")
        let id = try #require((try start.json() as? [String: Any])?["id"] as? String)
        return (id, try files.lastCode())
    }

    @Test("check without CODE reads it from stdin: a wrong one counts, the right one approves, none is an error")
    func codeOnStdin() throws {
        let files = try Files()
        let (id, code) = try started(files)
        let wrong = code == "000000" ? "000001" : "000000"
        let bad = try CLI.run(["verify", "check", "--format", "json"] + files.common + ["--", id], stdin: Data((wrong + "\n").utf8),
                              environment: env)
        #expect(bad.status == 1)
        #expect((try bad.json() as? [String: Any])?["attempts_left"] as? Int == 4)
        let empty = try CLI.run(["verify", "check"] + files.common + ["--", id], stdin: Data(), environment: env)
        #expect(empty.status == 1 && empty.stderr.contains("no code on stdin"), "\(empty.stderr)")
        let long = try CLI.run(["verify", "check"] + files.common + ["--", id], stdin: Data(String(repeating: "1", count: 100_000).utf8),
                               environment: env)
        #expect(long.status == 1 && long.stderr.contains("longer than 64 bytes"))
        // Only the first line is the code; a CRLF line end is dropped.
        let good = try CLI.run(["verify", "check"] + files.common + ["--", id], stdin: Data((code + "\r\nignored\n").utf8),
                               environment: env)
        #expect(good.status == 0 && good.stdout == "approved\n", "\(good.stderr)")
        #expect(!good.stderr.contains("Code:"))
    }

    @Test("on a terminal, check prompts for the code and does not echo it")
    func codeOnTerminal() throws {
        let files = try Files()
        let (id, code) = try started(files)
        let binary = try #require(CLI.executable).path
        // A pseudo-terminal from Python's standard library: what the user would see on screen.
        let script = """
            import os, pty, sys, time
            pid, fd = pty.fork()
            if pid == 0:
                os.execv(sys.argv[1], sys.argv[1:-1])
            seen = b""
            deadline = time.time() + 60
            while b"Code: " not in seen and time.time() < deadline:
                seen += os.read(fd, 1024)
            time.sleep(0.2)
            os.write(fd, sys.argv[-1].encode() + b"\\n")
            while True:
                try:
                    chunk = os.read(fd, 1024)
                except OSError:
                    break
                if not chunk:
                    break
                seen += chunk
            _, status = os.waitpid(pid, 0)
            sys.stdout.write(seen.decode(errors="replace"))
            sys.exit(os.waitstatus_to_exitcode(status))
            """
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scriptPath = directory.appendingPathComponent("terminal-session.py").path
        try Data(script.utf8).write(to: URL(fileURLWithPath: scriptPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // The last argument is the code the script types; smskit gets the arguments before it.
        process.arguments = ["python3", scriptPath, binary, "verify", "check"] + files.common + ["--", id, code]
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in env { environment[key] = value.isEmpty ? nil : value }
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let screen = String(decoding: data, as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(screen)")
        #expect(screen.contains("Code: "))
        #expect(screen.contains("approved"))
        #expect(!screen.contains(code), "the code was echoed: \(screen)")
    }

    @Test("the store, its -wal and -shm, the outbox and the test-number file are created 0600")
    func privateFiles() throws {
        let files = try Files()
        let add = try CLI.run(["verify", "test-numbers", "add", "+1 650-555-0100", "123456", "--test-numbers", files.tests])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(permissions(files.tests) == 0o600)
        _ = try started(files)
        #expect(permissions(files.store) == 0o600)
        #expect(permissions(files.outbox) == 0o600)
        for file in [files.store + "-wal", files.store + "-shm"] where FileManager.default.fileExists(atPath: file) {
            #expect(permissions(file) == 0o600, "\(file)")
        }
        // Wider modes on existing files are kept, with a warning for each.
        for file in [files.store, files.outbox, files.tests] { #expect(chmod(file, 0o644) == 0) }
        let again = try CLI.run(["verify", "start", "+16502530001", "--outbox", files.outbox] + files.common, environment: env)
        #expect(again.status == 0, "\(again.stderr)")
        for file in [files.store, files.outbox, files.tests] {
            #expect(again.stderr.contains("warning: \(file) has mode 644"), "\(again.stderr)")
            #expect(permissions(file) == 0o644)
        }
    }

    @Test("a guessable secret and a secret file of another user are refused")
    func refusedSecrets() throws {
        let files = try Files()
        for weak in [String(repeating: "a", count: 32), String(repeating: "ab", count: 24), String(repeating: "0123456789", count: 4)] {
            let result = try CLI.run(["verify", "start", "+16502530000", "--outbox", files.outbox] + files.common,
                                     environment: ["SMSKIT_VERIFY_SECRET": weak])
            #expect(result.status == 1 && result.stderr.contains("guessed"), "\(result.stderr)")
        }
        let secretFile = files.directory.appendingPathComponent("weak.secret").path
        FileManager.default.createFile(atPath: secretFile, contents: Data(String(repeating: "k", count: 40).utf8),
                                       attributes: [.posixPermissions: 0o600])
        let weakFile = try CLI.run(["verify", "start", "+16502530000", "--outbox", files.outbox] + files.common,
                                   environment: ["SMSKIT_VERIFY_SECRET": "", "SMSKIT_VERIFY_SECRET_FILE": secretFile])
        #expect(weakFile.status == 1 && weakFile.stderr.contains("guessed"), "\(weakFile.stderr)")
        guard geteuid() == 0 else { return }  // only root can give a file to another user
        let foreign = files.directory.appendingPathComponent("foreign.secret").path
        FileManager.default.createFile(atPath: foreign, contents: Data("f00dfeed0123456789abcdef8899aabbccddeeff0011223344".utf8),
                                       attributes: [.posixPermissions: 0o600])
        #expect(chown(foreign, 65_534, 65_534) == 0)
        let result = try CLI.run(["verify", "start", "+16502530000", "--outbox", files.outbox] + files.common,
                                 environment: ["SMSKIT_VERIFY_SECRET": "", "SMSKIT_VERIFY_SECRET_FILE": foreign])
        #expect(result.status == 1 && result.stderr.contains("belongs to user 65534"), "\(result.stderr)")
    }
}
