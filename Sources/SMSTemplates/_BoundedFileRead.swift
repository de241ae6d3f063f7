#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole file, never more than a limit. Internal: not API.
///
/// `Data(contentsOf:)` reads whatever it is given to the end: a sparse 100 GB file, `/dev/zero`
/// or a pipe that never closes would take all memory or never return. This reader refuses a
/// regular file larger than the limit before reading it, and stops any other file (a pipe, a
/// device) one byte past the limit. A FIFO is opened without blocking, so a FIFO with no writer
/// reads as empty instead of hanging in open(2).
enum _BoundedFileRead {
    enum Failure: Error {
        /// The system's message for open(2), fstat(2) or read(2).
        case system(String)
        /// A directory was given.
        case isDirectory
        /// The file holds more than the limit.
        case tooLarge
    }

    /// The file's bytes.
    ///
    /// - Parameters:
    ///   - path: The file's path.
    ///   - limit: The most bytes accepted.
    /// - Returns: Every byte of the file, at most `limit`.
    /// - Throws: ``Failure``.
    static func bytes(atPath path: String, limit: Int) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .system(String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .system(String(cString: strerror(errno))) }
        let kind = info.st_mode & S_IFMT
        if kind == S_IFDIR { throw .isDirectory }
        let isRegular = kind == S_IFREG
        if isRegular && Int(info.st_size) > limit { throw .tooLarge }
        // Blocking reads from here on: a pipe with a writer is read until the writer closes it.
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }

        var bytes = [UInt8](repeating: 0, count: isRegular ? Int(info.st_size) + 1 : min(limit + 1, 65_536))
        var count = 0
        while true {
            if count == bytes.count {
                guard count <= limit else { throw .tooLarge }
                bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, limit + 1 - bytes.count)))
            }
            let read = bytes.withUnsafeMutableBytes { buffer in
                Glibc_read(fd, buffer.baseAddress! + count, buffer.count - count)
            }
            if read < 0 {
                if errno == EINTR { continue }
                throw .system(String(cString: strerror(errno)))
            }
            if read == 0 { break }
            count += read
        }
        guard count <= limit else { throw .tooLarge }
        bytes.removeSubrange(count...)
        return bytes
    }
}

@inline(__always)
private func Glibc_read(_ fd: Int32, _ base: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.read(fd, base, count)
    #else
    return Darwin.read(fd, base, count)
    #endif
}
