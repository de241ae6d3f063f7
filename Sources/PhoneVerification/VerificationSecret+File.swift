#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension VerificationSecret {
    /// The largest secret file read.
    public static let maximumFileSize = 4096

    /// A secret from a file that only the running user controls.
    ///
    /// The file must be a regular file owned by the effective user of this process, with no
    /// permission for its group or others (mode `0600` or `0400`): whoever can read it can approve
    /// any verification, and whoever can write it can choose the secret. A file that breaks either
    /// rule is refused, not merely warned about, because the process cannot tell a mistake from
    /// someone else's file. Leading and trailing ASCII white space (a final newline) is dropped;
    /// the rest is the secret, checked as ``init(_:)`` does.
    ///
    /// ```swift
    /// // openssl rand -hex 32 > /etc/smskit/secret && chmod 600 /etc/smskit/secret
    /// let secret = try VerificationSecret(contentsOfFile: "/etc/smskit/secret")
    /// ```
    ///
    /// - Parameter path: The file; a symbolic link is followed and the file it names is checked.
    /// - Throws: ``VerificationError`` `.invalidSecret` when the file cannot be read, is not a
    ///   regular file, belongs to another user, can be read or written by its group or others, is
    ///   larger than ``maximumFileSize``, or holds a secret that ``init(_:)`` refuses.
    public init(contentsOfFile path: String) throws(VerificationError) {
        try self.init(Self.privateFileBytes(path))
    }

    /// The bytes of a private secret file (the checks of ``init(contentsOfFile:)``), without
    /// leading and trailing ASCII white space: also the webhook secrets' reader.
    package static func privateFileBytes(_ path: String) throws(VerificationError) -> ArraySlice<UInt8> {
        let fd = openForReading(path)
        guard fd >= 0 else {
            throw VerificationError(.invalidSecret,
                "cannot read the secret file \(path): \(String(cString: strerror(errno))); create it with: openssl rand -hex 32 > FILE; chmod 600 FILE")
        }
        defer { _ = close(fd) }
        // The checks are made on the open file, so a rename between them and the read changes nothing.
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw VerificationError(.invalidSecret, "cannot read the secret file \(path): \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw VerificationError(.invalidSecret, "the secret file \(path) is not a regular file")
        }
        let owner = geteuid()
        guard info.st_uid == owner else {
            throw VerificationError(.invalidSecret,
                "the secret file \(path) belongs to user \(info.st_uid), not to the user running this process (\(owner)); another user could have chosen the secret: chown it or use your own file")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw VerificationError(.invalidSecret,
                "the secret file \(path) has mode \(String(info.st_mode & 0o777, radix: 8)): it can be read by others or changed by them; run: chmod 600 \(path)")
        }
        guard info.st_size <= Self.maximumFileSize else {
            throw VerificationError(.invalidSecret, "the secret file \(path) is larger than \(Self.maximumFileSize) bytes")
        }
        // One byte more than allowed: a file that grew since fstat is still caught.
        guard let bytes = readUpTo(fd, count: Self.maximumFileSize + 1) else {
            throw VerificationError(.invalidSecret, "cannot read the secret file \(path): \(String(cString: strerror(errno)))")
        }
        guard bytes.count <= Self.maximumFileSize else {
            throw VerificationError(.invalidSecret, "the secret file \(path) is larger than \(Self.maximumFileSize) bytes")
        }
        var text = bytes[...]
        let space: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C]
        while let first = text.first, space.contains(first) { text = text.dropFirst() }
        while let last = text.last, space.contains(last) { text = text.dropLast() }
        return text
    }
}

/// `open(2)` for reading; outside the extension, where `open` would name ``VerificationSecret``'s method.
private func openForReading(_ path: String) -> Int32 {
    open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
}

/// At most `count` bytes from `fd`, or nil on a read error (`errno` says which).
private func readUpTo(_ fd: Int32, count: Int) -> [UInt8]? {
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
        let got = bytes.withUnsafeMutableBytes { buffer -> Int in
            read(fd, buffer.baseAddress! + filled, buffer.count - filled)
        }
        if got < 0 {
            if errno == EINTR { continue }
            return nil
        }
        if got == 0 { break }
        filled += got
    }
    return Array(bytes[..<filled])
}
