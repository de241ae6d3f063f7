import SMSKitCommandLine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Input files named on the command line, opened one at a time.
///
/// `validate` opens a file when it starts reading it and closes it when done, so that any number
/// of files can be given (10,000 under `ulimit -n 256`); a file that cannot be opened is an
/// error of its own and the others are still read.
///
/// Paths are opened by the bytes the kernel passed in argv, not by their `String`: Swift decodes
/// arguments that are not UTF-8 with U+FFFD, which names another (missing) file. Linux file names
/// are bytes.
enum _InputFiles {
    /// The argv bytes behind each argument whose `String` lost bytes that are not UTF-8.
    ///
    /// It maps arguments, in order, to the argv entries they came from: the n-th
    /// argument that reads as `text` is the n-th argv entry that decodes to `text`.
    static func paths(for arguments: [String]) -> [[CChar]] {
        var raw: [(decoded: String, bytes: [CChar])] = []
        if arguments.contains(where: { $0.unicodeScalars.contains("\u{FFFD}") }) {
            for index in 1..<Int(CommandLine.argc) {
                guard let pointer = CommandLine.unsafeArgv[index] else { continue }
                let length = strlen(pointer)
                let bytes = Array(UnsafeBufferPointer(start: pointer, count: length + 1))
                let decoded = String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
                raw.append((decoded, bytes))
            }
        }
        var used = Set<Int>()
        return arguments.map { argument in
            if argument.unicodeScalars.contains("\u{FFFD}"),
               let index = raw.indices.first(where: { !used.contains($0) && raw[$0].decoded == argument }) {
                used.insert(index)
                return raw[index].bytes
            }
            return argument.utf8CString.map { $0 }
        }
    }

    /// Opens `path` for reading; a directory or a failure is an error naming the file (`name`).
    static func openForReading(_ path: [CChar], name: String) -> Result<Int32, CLIError> {
        let fd = path.withUnsafeBufferPointer { open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
        if fd < 0 {
            return .failure(.failure("cannot open \(name): \(String(cString: strerror(errno)))"))
        }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            return .failure(.failure("cannot read \(name): it is a directory"))
        }
        return .success(fd)
    }

    /// The size of a regular file, or `nil` (missing, or not a regular file).
    static func regularSize(_ path: [CChar]) -> Int? {
        var info = stat()
        let status = path.withUnsafeBufferPointer { stat($0.baseAddress!, &info) }
        guard status == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }
}
