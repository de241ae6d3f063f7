import Crypto
import Foundation

/// The server secret that keys the stored code digests: HMAC-SHA256(secret, verification ID ‖ code).
///
/// The store keeps only that digest and the secret's public fingerprint (``keyID``). Changing the
/// secret invalidates every open verification cleanly: a check of one made under the old secret
/// reports `expired` and closes it, without counting against anyone, and a new start sends a new code.
///
/// ```swift
/// let secret = try VerificationSecret(Array(environmentSecret.utf8))   // at least 32 bytes
/// let fresh = VerificationSecret.random()                               // 32 random bytes
/// ```
// `@unchecked`: `SymmetricKey` is an immutable value (its bytes are never changed after creation)
// that swift-crypto 3 does not mark `Sendable` on every platform.
public struct VerificationSecret: @unchecked Sendable {
    /// The fewest bytes a secret may have.
    public static let minimumByteCount = 32

    let key: SymmetricKey
    let sealKey: SymmetricKey

    /// A public fingerprint of the secret (16 hex digits): tells which secret made a digest,
    /// reveals nothing about it.
    public let keyID: String

    /// A secret from its bytes.
    ///
    /// Besides its length, the secret must not be obviously guessable: see ``lowEntropyReason(_:)``.
    ///
    /// - Parameter bytes: At least 32 bytes, e.g. the UTF-8 of a long random string.
    /// - Throws: ``VerificationError`` `.invalidSecret` when it is shorter than 32 bytes, has fewer
    ///   than ``minimumDistinctByteCount`` distinct bytes, or repeats a pattern.
    public init(_ bytes: some Sequence<UInt8>) throws(VerificationError) {
        let data = Array(bytes)
        guard data.count >= Self.minimumByteCount else {
            throw VerificationError(.invalidSecret,
                "the server secret has \(data.count) bytes; give at least \(Self.minimumByteCount) (e.g. 64 random hex digits)")
        }
        if let reason = Self.lowEntropyReason(data) {
            throw VerificationError(.invalidSecret,
                "the server secret \(reason), so it can be guessed; use random bytes (e.g. 64 random hex digits: openssl rand -hex 32)")
        }
        key = SymmetricKey(data: data)
        let fingerprint = HMAC<SHA256>.authenticationCode(for: Array("smskit.verify.key-id".utf8), using: key)
        keyID = Self.hex(fingerprint.prefix(8))
        sealKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: key, info: Array("smskit.verify.code-seal".utf8),
                                         outputByteCount: 32)
    }

    /// A new secret of 32 random bytes from the system's secure generator.
    public static func random() -> VerificationSecret {
        // 32 bytes always pass the length check.
        try! VerificationSecret(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
    }

    /// 64 lowercase hex digits from the system's secure generator: a secret to put in a file or
    /// an environment variable.
    public static func generateText() -> String {
        SymmetricKey(size: .bits256).withUnsafeBytes { hex($0) }
    }

    /// HMAC-SHA256(secret, id ‖ code).
    func digest(id: String, code: String) -> [UInt8] {
        var hmac = HMAC<SHA256>(key: key)
        hmac.update(data: Array(id.utf8))
        hmac.update(data: Array(code.utf8))
        return Array(hmac.finalize())
    }

    /// The code sealed with AES-GCM under a key derived from the secret, the ID authenticated with it.
    func seal(code: String, id: String) -> [UInt8]? {
        guard let box = try? AES.GCM.seal(Array(code.utf8), using: sealKey, authenticating: Array(id.utf8)) else {
            return nil
        }
        return box.combined.map { Array($0) }
    }

    /// The code from ``seal(code:id:)``, or `nil` when it was sealed under another secret or ID.
    func open(sealed: [UInt8], id: String) -> String? {
        guard let box = try? AES.GCM.SealedBox(combined: sealed),
              let plain = try? AES.GCM.open(box, using: sealKey, authenticating: Array(id.utf8)) else { return nil }
        return String(decoding: plain, as: UTF8.self)
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
