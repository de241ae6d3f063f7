import Crypto

/// The API keys the service accepts, held only as SHA-256 digests.
///
/// Keys come from a file (one per line; `#` starts a comment; a line `sha256:HEX` gives a key by
/// its digest, so the file need not hold any key in clear) or from the `SMSKIT_API_KEYS`
/// environment variable (comma-separated). An entry followed by the word `trusted` (e.g.
/// `sha256:HEX trusted`) marks a key whose callers may name the verification client key
/// themselves (a gateway calling on behalf of its users); other callers are limited by their IP.
/// A presented key is hashed and compared with every
/// stored digest in constant time: the time taken does not depend on which bytes matched nor on
/// which key (if any) it was.
///
/// ```swift
/// let keys = try APIKeys(keys: ["k3y-for-the-billing-service-0001"])
/// keys.identify("k3y-for-the-billing-service-0001")  // a KeyID (the digest's first 12 hex digits)
/// keys.identify("guess")                             // nil
/// ```
public struct APIKeys: Sendable {
    /// A key's public name: the first 12 hex digits of its SHA-256 digest (in logs, metrics and
    /// rate limits; it reveals nothing useful about a random key).
    public struct KeyID: Hashable, Sendable, CustomStringConvertible {
        public let description: String
        /// Whether the key was marked `trusted`.
        public let isTrusted: Bool

        init(description: String, isTrusted: Bool = false) {
            self.description = description
            self.isTrusted = isTrusted
        }
    }

    /// The shortest key accepted in clear: shorter keys are guessable.
    public static let minimumKeyLength = 16

    private let digests: [[UInt8]]
    private let trusted: [Bool]

    /// No keys: every protected request is refused (see ``SMSKitServerConfiguration/requiresAPIKey``).
    public static let none = APIKeys(digests: [], trusted: [])

    private init(digests: [[UInt8]], trusted: [Bool]) {
        self.digests = digests
        self.trusted = trusted
    }

    /// The keys given in clear, hashed at once.
    ///
    /// - Throws: ``ServiceConfigurationError`` for a key shorter than ``minimumKeyLength``.
    public init(keys: [String], trusted: Bool = false) throws(ServiceConfigurationError) {
        var digests: [[UInt8]] = []
        for key in keys {
            guard key.utf8.count >= Self.minimumKeyLength else {
                throw ServiceConfigurationError("An API key is shorter than \(Self.minimumKeyLength) characters.")
            }
            digests.append(Array(SHA256.hash(data: Array(key.utf8))))
        }
        self.digests = digests
        self.trusted = Array(repeating: trusted, count: digests.count)
    }

    /// The keys of a keys file's text, or of the comma-separated `SMSKIT_API_KEYS` value
    /// (`separator` `,`).
    ///
    /// - Throws: ``ServiceConfigurationError`` for a short key or a bad `sha256:` line (the
    ///   message names the line, never the key).
    public init(parsing text: String, separator: Character = "\n") throws(ServiceConfigurationError) {
        var digests: [[UInt8]] = []
        var trusted: [Bool] = []
        for (index, raw) in text.split(separator: separator, omittingEmptySubsequences: false).enumerated() {
            var entry = Substring(raw)
            if separator == "\n", let hash = entry.firstIndex(of: "#") { entry = entry[..<hash] }
            var trimmed = entry.trimmingAll(of: " \t\r")
            guard !trimmed.isEmpty else { continue }
            let isTrusted = trimmed.hasSuffix(" trusted") || trimmed.hasSuffix("\ttrusted")
            if isTrusted { trimmed = trimmed.dropLast(8).trimmingAll(of: " \t") }
            trusted.append(isTrusted)
            let what = separator == "\n" ? "line \(index + 1) of the keys file" : "entry \(index + 1) of SMSKIT_API_KEYS"
            if trimmed.hasPrefix("sha256:") {
                guard let digest = Self.hexDigest(trimmed.dropFirst(7)) else {
                    throw ServiceConfigurationError("The digest on \(what) is not 64 hex digits.")
                }
                digests.append(digest)
            } else {
                guard trimmed.utf8.count >= Self.minimumKeyLength else {
                    throw ServiceConfigurationError("The key on \(what) is shorter than \(Self.minimumKeyLength) characters.")
                }
                digests.append(Array(SHA256.hash(data: Array(trimmed.utf8))))
            }
        }
        self.digests = digests
        self.trusted = trusted
    }

    /// The keys of all of `sets`.
    public init(merging sets: [APIKeys]) {
        self.digests = sets.flatMap(\.digests)
        self.trusted = sets.flatMap(\.trusted)
    }

    /// The number of keys.
    public var count: Int { digests.count }

    /// The ID of the stored key that `presented` is, or `nil`.
    ///
    /// - Complexity: O(number of keys), the same work whichever key matches.
    public func identify(_ presented: some StringProtocol) -> KeyID? {
        let digest = Array(SHA256.hash(data: Array(presented.utf8)))
        var found = -1
        for (index, stored) in digests.enumerated() {
            // Constant time over the 32 bytes; the selection below has no branch on the secret.
            var difference: UInt8 = 0
            for byte in 0..<32 { difference |= stored[byte] ^ digest[byte] }
            let isMatch = Int(difference == 0 ? 1 : 0)
            found = isMatch * index + (1 - isMatch) * found
        }
        guard found >= 0 else { return nil }
        return KeyID(description: Self.hex(digests[found].prefix(6)), isTrusted: trusted[found])
    }

    static func digest(_ key: String) -> [UInt8] { Array(SHA256.hash(data: Array(key.utf8))) }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hexDigest(_ text: Substring) -> [UInt8]? {
        let bytes = Array(text.utf8)
        guard bytes.count == 64 else { return nil }
        var digest: [UInt8] = []
        for pair in stride(from: 0, to: 64, by: 2) {
            guard let high = nibble(bytes[pair]), let low = nibble(bytes[pair + 1]) else { return nil }
            digest.append(high << 4 | low)
        }
        return digest
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// A configuration the service cannot start with (a bad key, flag or environment value).
public struct ServiceConfigurationError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, without any secret.
    public var description: String
    /// Creates an error.
    public init(_ description: String) { self.description = description }
}

extension Substring {
    func trimmingAll(of set: String) -> Substring {
        var slice = self
        while let first = slice.first, set.contains(first) { slice.removeFirst() }
        while let last = slice.last, set.contains(last) { slice.removeLast() }
        return slice
    }
}
