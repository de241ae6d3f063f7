#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a catalog file's bytes with POSIX calls, stopping one byte past the size limit.
///
/// Not `Data(contentsOf:)`: that reads the whole file before the size can be checked, and on
/// Linux it leaks a 4 KiB buffer for every empty file (swift-foundation's zero-size path; found
/// by `Fuzz/Sources/TemplateCatalogFuzz` under LeakSanitizer). Internal: not API.
enum _CatalogFile {
    /// The file's bytes, or nil when it has more than `limit` bytes.
    /// - Throws: `TemplateError` `.fileUnreadable` with the system's reason when it cannot be
    ///   opened or read (a directory fails with "Is a directory").
    static func contents(of path: String, limit: Int) throws(TemplateError) -> [UInt8]? {
        func failure() -> TemplateError {
            TemplateError(code: .fileUnreadable, message: "cannot read the catalog: \(String(cString: strerror(errno)))", file: path)
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure() }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var block = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count <= limit {
            let count = block.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure()
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: block[..<count])
        }
        return nil
    }
}
