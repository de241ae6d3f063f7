#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The files that hold phone numbers, codes or secrets (a SQLite store and its `-wal` and `-shm`
/// files, an outbox, a test-number file): created with mode `0600` whatever the umask, because
/// every local user who can read them learns who verified and with which code.
///
/// An existing file is never changed: a wider mode may be deliberate (a group of operators), so it
/// gives a warning that front ends print or log, not an error.
///
/// ```swift
/// if let warning = try PrivateFile.create("smskit-verify.sqlite") { print(warning) }
/// ```
public enum PrivateFile {
    /// The mode new files get: read and write for the owner only.
    public static let mode: mode_t = 0o600

    /// Creates `path` empty with mode `0600` when it does not exist.
    ///
    /// - Parameter path: The file.
    /// - Returns: The warning of ``warning(for:)`` when the file already existed with a wider mode,
    ///   else `nil`.
    /// - Throws: ``VerificationStoreError`` `.unavailable` when the file can be neither created nor
    ///   found.
    @discardableResult
    public static func create(_ path: String) throws(VerificationStoreError) -> String? {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, mode)
        if fd >= 0 {
            // open(2) applies the umask, which can only narrow 0600; fchmod makes it exact.
            _ = fchmod(fd, mode)
            _ = close(fd)
            return nil
        }
        guard errno == EEXIST else {
            throw VerificationStoreError(.unavailable, "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        return warning(for: path)
    }

    /// A warning when `path` exists and its group or others have any permission on it, else `nil`
    /// (also when it does not exist).
    ///
    /// - Parameter path: The file; a symbolic link is followed.
    /// - Returns: A sentence naming the file, its mode and the `chmod` that fixes it.
    public static func warning(for path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & 0o077 != 0 else { return nil }
        return "\(path) has mode \(String(info.st_mode & 0o777, radix: 8)): other local users can read the phone numbers "
            + "and codes it holds; run: chmod 600 \(path)"
    }
}
