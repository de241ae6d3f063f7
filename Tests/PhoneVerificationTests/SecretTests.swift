import Foundation
import PhoneVerification
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("VerificationSecret: guessable secrets and secret files")
struct SecretTests {
    struct Weak: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var testDescription: String { name }
    }

    static let weak: [Weak] = [
        Weak(name: "32 x a", bytes: Array(String(repeating: "a", count: 32).utf8)),
        Weak(name: "64 x 0", bytes: Array(String(repeating: "0", count: 64).utf8)),
        Weak(name: "abab...", bytes: Array(String(repeating: "ab", count: 16).utf8)),
        Weak(name: "seven distinct hex digits", bytes: Array(String(repeating: "0123456", count: 6).utf8)),
        Weak(name: "a 10-byte block repeated", bytes: Array(String(repeating: "k3y!Q9#zP0", count: 4).utf8)),
        Weak(name: "password x 4 and a cut copy", bytes: Array((String(repeating: "password", count: 4) + "pass").utf8)),
        Weak(name: "a 16-byte block twice", bytes: Array(String(repeating: "0123456789abcdef", count: 2).utf8)),
        Weak(name: "bytes 0 to 31", bytes: (0..<32).map { UInt8($0) }),
        Weak(name: "every third byte", bytes: (0..<40).map { UInt8(truncatingIfNeeded: 33 + 3 * $0) }),
        Weak(name: "a staircase abcbcdcde...", bytes: (0..<36).map { UInt8(ascii: "a") + UInt8($0 / 3 + $0 % 3) }),
    ]

    @Test("secrets that are easy to guess are refused, saying why", arguments: weak)
    func weakSecrets(_ weak: Weak) {
        #expect(weak.bytes.count >= VerificationSecret.minimumByteCount)
        #expect(VerificationSecret.lowEntropyReason(weak.bytes) != nil)
        #expect { try VerificationSecret(weak.bytes) } throws: { error in
            let error = error as? VerificationError
            return error?.code == .invalidSecret && error?.message.contains("guessed") == true
        }
    }

    @Test("generated and random secrets are accepted: hex text of 64 and of 32 digits, raw bytes")
    func goodSecrets() throws {
        for _ in 0..<2_000 {
            _ = try VerificationSecret(Array(VerificationSecret.generateText().utf8))
            // 32 hex digits: the shortest hex secret, the one most likely to look repetitive by chance.
            _ = try VerificationSecret(Array(VerificationSecret.generateText().prefix(32).utf8))
            let raw = (0..<32).map { _ in UInt8.random(in: 0...255) }
            _ = try VerificationSecret(raw)
        }
        _ = VerificationSecret.random()
        _ = try VerificationSecret(Array("correct horse battery staple 2026 ok".utf8))
    }

    /// A fresh directory removed after `body`.
    func withDirectory(_ body: (String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("smskit-secret-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body(directory)
    }

    func write(_ text: String, to path: String, mode: Int) throws {
        FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }

    func refusal(_ path: String) -> VerificationError? {
        do {
            _ = try VerificationSecret(contentsOfFile: path)
            return nil
        } catch {
            return error
        }
    }

    @Test("a private file of the running user is read; white space around the secret is dropped; a link is followed")
    func goodFile() throws {
        try withDirectory { directory in
            let text = VerificationSecret.generateText()
            let path = directory + "/secret"
            try write("  " + text + "\r\n", to: path, mode: 0o600)
            let secret = try VerificationSecret(contentsOfFile: path)
            #expect(secret.keyID == (try VerificationSecret(Array(text.utf8))).keyID)
            try write(text, to: path, mode: 0o400)
            #expect(try VerificationSecret(contentsOfFile: path).keyID == secret.keyID)
            try FileManager.default.createSymbolicLink(atPath: directory + "/link", withDestinationPath: path)
            #expect(try VerificationSecret(contentsOfFile: directory + "/link").keyID == secret.keyID)
        }
    }

    @Test("a file its group or others can read or write is refused", arguments: [0o640, 0o604, 0o644, 0o620, 0o602, 0o660])
    func openFile(mode: Int) throws {
        try withDirectory { directory in
            let path = directory + "/secret"
            try write(VerificationSecret.generateText(), to: path, mode: mode)
            let error = refusal(path)
            #expect(error?.code == .invalidSecret)
            #expect(error?.message.contains("chmod 600") == true)
        }
    }

    @Test("a file owned by another user is refused, even when private")
    func otherOwner() throws {
        try withDirectory { directory in
            let path = directory + "/secret"
            try write(VerificationSecret.generateText(), to: path, mode: 0o600)
            if geteuid() == 0 {
                #expect(chown(path, 65_534, 65_534) == 0)
            } else {
                // Not root: a file this user cannot own, and cannot read either.
                #expect(refusal("/etc/shadow")?.code == .invalidSecret)
                return
            }
            let error = refusal(path)
            #expect(error?.code == .invalidSecret)
            #expect(error?.message.contains("belongs to user 65534") == true)
        }
    }

    @Test("missing, a directory, too large, too short or guessable: refused with invalid_secret")
    func badFiles() throws {
        try withDirectory { directory in
            #expect(refusal(directory + "/missing")?.code == .invalidSecret)
            try FileManager.default.createDirectory(atPath: directory + "/dir", withIntermediateDirectories: false,
                                                    attributes: [.posixPermissions: 0o700])
            #expect(refusal(directory + "/dir")?.message.contains("not a regular file") == true)
            let big = directory + "/big"
            try write(String(repeating: VerificationSecret.generateText(), count: 65), to: big, mode: 0o600)
            #expect(refusal(big)?.message.contains("larger than") == true)
            let short = directory + "/short"
            try write("abc", to: short, mode: 0o600)
            #expect(refusal(short)?.message.contains("32") == true)
            let weak = directory + "/weak"
            try write(String(repeating: "a", count: 40) + "\n", to: weak, mode: 0o600)
            #expect(refusal(weak)?.message.contains("guessed") == true)
        }
    }
}
