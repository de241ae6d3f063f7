#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed `read(2)` while a ``RecordReader`` reads its descriptor.
///
/// Its description is the message for a user: `cannot read contacts.csv: Is a directory`.
public struct RecordReadError: Error, Sendable, CustomStringConvertible {
    /// The input's name as given to the reader (`<stdin>` for standard input).
    public var name: String
    /// The `errno` value of the failed read.
    public var code: Int32

    /// Creates an error for a read of `name` that failed with `errno` value `code`.
    public init(name: String, code: Int32) {
        self.name = name
        self.code = code
    }

    /// `cannot read <name>: <strerror(code)>`.
    public var description: String { "cannot read \(name): \(String(cString: strerror(code)))" }
}
