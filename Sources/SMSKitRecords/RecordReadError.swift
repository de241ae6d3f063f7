#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a ``RecordReader`` cannot go on: a failed `read(2)`, or an encoding it does not decode.
///
/// Its description is the message for a user: `cannot read contacts.csv: Is a directory`, or
/// `list.csv looks like UTF-16LE (a NUL in every other byte, no byte order mark); convert it to
/// UTF-8 first: iconv -f UTF-16LE -t UTF-8 < list.csv > list-utf8.csv`.
public struct RecordReadError: Error, Sendable, CustomStringConvertible {
    /// The input's name as given to the reader (`<stdin>` for standard input).
    public var name: String
    /// The `errno` value of the failed read; 0 for an encoding error.
    public var code: Int32
    /// The encoding recognized at the input's start and not decoded, or `nil` for a read error.
    public var unsupportedEncoding: UnsupportedEncoding?

    /// Creates an error for a read of `name` that failed with `errno` value `code`.
    public init(name: String, code: Int32) {
        self.name = name
        self.code = code
    }

    /// Creates an error for an input in an encoding that the reader does not decode.
    public init(name: String, unsupportedEncoding: UnsupportedEncoding) {
        self.name = name
        self.code = 0
        self.unsupportedEncoding = unsupportedEncoding
    }

    /// `cannot read <name>: <strerror(code)>`, or the encoding's ``UnsupportedEncoding/message(for:)``.
    public var description: String {
        if let unsupportedEncoding { return unsupportedEncoding.message(for: name) }
        return "cannot read \(name): \(String(cString: strerror(code)))"
    }
}
