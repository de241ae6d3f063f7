#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Field access within one record, at bytes.
///
/// TSV fields are split at every tab, with no quoting. CSV fields are split at commas outside
/// quotes, as RFC 4180 readers (Python's `csv`, Excel) split them: a quote opens a quoted field
/// only as the field's first byte (`5" tablet` is a field as it is); inside it `""` is one `"`;
/// bytes after its closing quote are kept (`"ab"c` is `abc`). A `lines` record is one field.
/// A ``CSVDialect`` sets the delimiter and the quote. Every reader here (``extract(_:from:dialect:into:)``,
/// ``locate(_:in:dialect:)``, ``withField(_:of:dialect:scratch:_:)``, ``all(_:dialect:)``,
/// ``forEachField(of:dialect:scratch:_:)``) applies these rules through one field scan and one unquote.
///
/// ```swift
/// var field: [UInt8] = []
/// let record: [UInt8] = Array(#"Ann,"+44 20 7946 0000, ext. 2""#.utf8)
/// record.withUnsafeBytes { RecordFields.extract(1, from: $0, format: .csv, into: &field) } // true
/// String(decoding: field, as: UTF8.self)   // "+44 20 7946 0000, ext. 2"
/// ```
public enum RecordFields {
    /// Copies field `index` (0-based) of `record` into `out` (cleared first), unquoting CSV.
    ///
    /// - Parameters:
    ///   - index: The 0-based field.
    ///   - record: The record's bytes, without its line terminator.
    ///   - format: How the record is split.
    ///   - out: Receives the field's bytes; cleared first, its capacity kept.
    /// - Returns: False (and `out` empty) when the record has fewer fields.
    /// - Complexity: O(*n*) in the record's length up to the field's end.
    public static func extract(_ index: Int, from record: UnsafeRawBufferPointer, format: InputFormat, into out: inout [UInt8]) -> Bool {
        extract(index, from: record, dialect: format.dialect, into: &out)
    }

    /// Copies field `index` (0-based) of `record` into `out` (cleared first), unquoting it.
    ///
    /// - Parameters:
    ///   - index: The 0-based field.
    ///   - record: The record's bytes, without its line terminator.
    ///   - dialect: The delimiter and quote; `nil` reads the record as one field.
    ///   - out: Receives the field's bytes; cleared first, its capacity kept.
    /// - Returns: False (and `out` empty) when the record has fewer fields.
    /// - Complexity: O(*n*) in the record's length up to the field's end.
    public static func extract(_ index: Int, from record: UnsafeRawBufferPointer, dialect: CSVDialect?, into out: inout [UInt8]) -> Bool {
        out.removeAll(keepingCapacity: true)
        guard let found = field(index, in: record, delimiter: dialect?.delimiter, quote: dialect?.quote) else { return false }
        // Typed, so that the append is one copy rather than a loop over a raw sequence.
        let bytes = Self.bytes(found.range, of: record)
        if found.quoted, let quote = dialect?.quote {
            appendUnquoted(bytes, quote: quote, to: &out)
        } else {
            out.append(contentsOf: bytes)
        }
        return true
    }

    /// Where field `index` (0-based) of `record` lies, for callers that read fields in place.
    ///
    /// A TSV or `lines` field, and a CSV field that does not start with a quote, is a range of
    /// the record's bytes: the same bytes that ``extract(_:from:format:into:)`` copies. A CSV
    /// field that starts with a quote is ``FieldLocation/quoted``: read it with
    /// ``extract(_:from:format:into:)``.
    ///
    /// ```swift
    /// let record: [UInt8] = Array("+44 20 7946 0000\tGB".utf8)
    /// record.withUnsafeBytes { RecordFields.locate(1, in: $0, format: .tsv) }  // .bytes(17..<19)
    /// ```
    ///
    /// - Parameters:
    ///   - index: The 0-based field.
    ///   - record: The record's bytes, without its line terminator.
    ///   - format: How the record is split.
    /// - Returns: The field's range, ``FieldLocation/quoted``, or ``FieldLocation/missing`` when
    ///   the record has fewer fields.
    /// - Complexity: O(*n*) in the record's length up to the field's end; no allocation.
    public static func locate(_ index: Int, in record: UnsafeRawBufferPointer, format: InputFormat) -> FieldLocation {
        locate(index, in: record, dialect: format.dialect)
    }

    /// Where field `index` (0-based) of `record` lies in `dialect`: see ``locate(_:in:format:)``.
    ///
    /// - Parameters:
    ///   - index: The 0-based field.
    ///   - record: The record's bytes, without its line terminator.
    ///   - dialect: The delimiter and quote; `nil` reads the record as one field.
    /// - Returns: The field's range, ``FieldLocation/quoted`` (a field that starts with the quote),
    ///   or ``FieldLocation/missing``.
    /// - Complexity: O(*n*) in the record's length up to the field's end; no allocation.
    public static func locate(_ index: Int, in record: UnsafeRawBufferPointer, dialect: CSVDialect?) -> FieldLocation {
        guard let found = field(index, in: record, delimiter: dialect?.delimiter, quote: dialect?.quote) else { return .missing }
        return found.quoted ? .quoted : .bytes(found.range)
    }

    /// Calls `body` with field `index` (0-based) of `record`: its bytes in place, or, for a field
    /// with quotes, its unquoted bytes in `scratch`; `nil` when the record has fewer fields. One
    /// scan of the record up to the field's end, and no copy unless the field is quoted.
    ///
    /// ```swift
    /// var scratch: [UInt8] = []
    /// Array(#"Ann;"+33 1 23 45 67 89""#.utf8).withUnsafeBytes { record in
    ///     RecordFields.withField(1, of: record, dialect: .semicolon, scratch: &scratch) { field in
    ///         print(field.map { String(decoding: $0, as: UTF8.self) })   // Optional("+33 1 23 45 67 89")
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - index: The 0-based field.
    ///   - record: The record's bytes, without its line terminator.
    ///   - dialect: The delimiter and quote; `nil` reads the record as one field.
    ///   - scratch: Room for an unquoted field (reused: no allocation once it is large enough).
    ///   - body: Called once; the bytes are valid during the call only.
    /// - Complexity: O(*n*) in the record's length up to the field's end.
    @inlinable
    public static func withField(_ index: Int, of record: UnsafeRawBufferPointer, dialect: CSVDialect?, scratch: inout [UInt8],
                                 _ body: (UnsafeBufferPointer<UInt8>?) -> Void) {
        guard let found = field(index, in: record, delimiter: dialect?.delimiter, quote: dialect?.quote) else { return body(nil) }
        withUnquoted(bytes(found.range, of: record), quoted: found.quoted, quote: dialect?.quote, scratch: &scratch, body)
    }

    /// All fields of a record (for a header row), decoded as UTF-8 leniently (bad bytes become U+FFFD).
    ///
    /// - Parameters:
    ///   - record: The record's bytes, without its line terminator.
    ///   - format: How the record is split.
    /// - Returns: At least one field (an empty record has one empty field).
    /// - Complexity: O(*n*) in the record's length.
    public static func all(_ record: UnsafeRawBufferPointer, format: InputFormat) -> [String] {
        all(record, dialect: format.dialect)
    }

    /// All fields of a record in `dialect`, decoded as UTF-8 leniently: see ``all(_:format:)``.
    ///
    /// ```swift
    /// Array("Name;Mobile Phone".utf8).withUnsafeBytes { RecordFields.all($0, dialect: .semicolon) }
    /// // ["Name", "Mobile Phone"]
    /// ```
    ///
    /// - Parameters:
    ///   - record: The record's bytes, without its line terminator.
    ///   - dialect: The delimiter and quote; `nil` reads the record as one field.
    /// - Returns: At least one field (an empty record has one empty field).
    /// - Complexity: O(*n*) in the record's length.
    public static func all(_ record: UnsafeRawBufferPointer, dialect: CSVDialect?) -> [String] {
        var fields: [String] = []
        var scratch: [UInt8] = []
        forEachField(of: record, dialect: dialect, scratch: &scratch) { _, field in
            fields.append(String(decoding: field, as: UTF8.self))
        }
        return fields
    }
}

extension RecordFields {
    /// Calls `body` with each field of `record` in order (its 0-based index and its bytes,
    /// unquoted): one pass over the record, where calling ``extract(_:from:dialect:into:)`` per
    /// field would rescan the record from its start for each.
    ///
    /// ```swift
    /// var scratch: [UInt8] = []
    /// Array(#"Ann;"+44 20 7946 0000""#.utf8).withUnsafeBytes { record in
    ///     RecordFields.forEachField(of: record, dialect: .semicolon, scratch: &scratch) { index, field in
    ///         print(index, String(decoding: field, as: UTF8.self))   // 0 Ann, 1 +44 20 7946 0000
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - record: The record's bytes, without its line terminator.
    ///   - dialect: The delimiter and quote; `nil` reads the record as one field.
    ///   - scratch: Room for an unquoted field (reused: no allocation once it is large enough).
    ///   - body: Called once per field; the bytes are valid during the call only.
    /// - Complexity: O(*n*) in the record's length.
    public static func forEachField(of record: UnsafeRawBufferPointer, dialect: CSVDialect?, scratch: inout [UInt8],
                                    _ body: (Int, UnsafeBufferPointer<UInt8>) -> Void) {
        let count = record.count
        guard let base = record.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            body(0, UnsafeBufferPointer(start: nil, count: 0))
            return
        }
        guard let dialect else {
            body(0, UnsafeBufferPointer(start: base, count: count))
            return
        }
        var field = 0
        var start = 0
        while true {
            let (end, quoted) = endOfField(base, from: start, count: count, delimiter: dialect.delimiter, quote: dialect.quote)
            withUnquoted(UnsafeBufferPointer(start: base + start, count: end &- start), quoted: quoted, quote: dialect.quote,
                         scratch: &scratch) { body(field, $0) }
            if end >= count { return }
            start = end &+ 1 // past the delimiter
            field &+= 1
        }
    }
}

// The field rules, once: `endOfField` finds where a field ends and `appendUnquoted` removes its
// quotes; every reader above is built on these two.
extension RecordFields {
    /// Field `index` (0-based) of `record`: its bytes and whether a quote byte is among them, or
    /// `nil` when the record has fewer fields. `delimiter` nil reads the record as one field.
    @inlinable @inline(__always)
    static func field(_ index: Int, in record: UnsafeRawBufferPointer, delimiter: UInt8?, quote: UInt8?) -> (range: Range<Int>, quoted: Bool)? {
        let count = record.count
        guard index >= 0 else { return nil }
        guard let delimiter else { return index == 0 ? (0..<count, false) : nil }
        guard let base = record.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return index == 0 ? (0..<0, false) : nil }
        var field = 0
        var start = 0
        while true {
            let (end, quoted) = endOfField(base, from: start, count: count, delimiter: delimiter, quote: quote)
            if field == index { return (start..<end, quoted) }
            if end >= count { return nil }
            start = end &+ 1 // past the delimiter
            field &+= 1
        }
    }

    /// The bytes of `range` in `record`, a range that ``field(_:in:delimiter:quote:)`` found.
    @inlinable @inline(__always)
    static func bytes(_ range: Range<Int>, of record: UnsafeRawBufferPointer) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: record.baseAddress.map { $0.assumingMemoryBound(to: UInt8.self) + range.lowerBound }, count: range.count)
    }

    /// Where the field that starts at `start` ends (the offset of its delimiter, or `count`), and
    /// whether it is quoted (then ``appendUnquoted(_:quote:to:)`` gives its text).
    ///
    /// As RFC 4180 readers do (Python's `csv`, Excel): a quote opens a quoted part only as the
    /// field's first byte; anywhere else it is an ordinary byte. Inside the quoted part a
    /// doubled quote is one quote and a delimiter is text; a single quote closes it, and the
    /// bytes after it, up to the next delimiter, are the field's as they are. A quoted part
    /// that never closes runs to the record's end.
    @inlinable @inline(__always)
    static func endOfField(_ base: UnsafePointer<UInt8>, from start: Int, count: Int, delimiter: UInt8, quote: UInt8?) -> (end: Int, quoted: Bool) {
        @inline(__always) func nextDelimiter(from position: Int) -> Int {
            guard position < count, let hit = memchr(base + position, Int32(delimiter), count &- position) else { return count }
            return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
        }
        guard let quote, start < count, base[start] == quote else { return (nextDelimiter(from: start), false) }
        var position = start &+ 1
        while position < count {
            if base[position] == quote {
                position &+= 1
                if position < count, base[position] == quote {
                    position &+= 1 // a doubled quote
                    continue
                }
                return (nextDelimiter(from: position), true)
            }
            position &+= 1
        }
        return (count, true)
    }

    /// Appends the text of a field that ``endOfField(_:from:count:delimiter:quote:)`` found to
    /// `out`: the opening quote is dropped, a doubled quote inside the quoted part is one quote,
    /// the closing quote is dropped, and every byte after it is kept (`"ab"c"d` is `abc"d`, as
    /// Python's `csv` reads it). A field that does not start with the quote is kept as it is.
    @usableFromInline
    static func appendUnquoted(_ field: UnsafeBufferPointer<UInt8>, quote: UInt8, to out: inout [UInt8]) {
        let count = field.count
        guard count > 0, field[0] == quote else {
            out.append(contentsOf: field)
            return
        }
        var position = 1
        while position < count {
            let byte = field[position]
            if byte == quote {
                if position &+ 1 < count, field[position &+ 1] == quote {
                    out.append(byte)
                    position &+= 2
                    continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: field[(position &+ 1)...]))
                return
            }
            out.append(byte)
            position &+= 1
        }
    }

    /// Calls `body` with `bytes` as they are, or, when `quoted`, with their text in `scratch`.
    @inlinable @inline(__always)
    static func withUnquoted<R>(_ bytes: UnsafeBufferPointer<UInt8>, quoted: Bool, quote: UInt8?, scratch: inout [UInt8],
                                _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        guard quoted, let quote else { return body(bytes) }
        scratch.removeAll(keepingCapacity: true)
        appendUnquoted(bytes, quote: quote, to: &scratch)
        return scratch.withUnsafeBufferPointer(body)
    }
}

/// Where a field lies in its record: see ``RecordFields/locate(_:in:format:)``.
public enum FieldLocation: Equatable, Sendable {
    /// The record has fewer fields.
    case missing
    /// The field is these bytes of the record, as they are.
    case bytes(Range<Int>)
    /// A CSV field with quotes, which ``RecordFields/extract(_:from:format:into:)`` removes.
    case quoted
}
