#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Field access within one record, at bytes.
///
/// TSV fields are split at every tab, with no quoting. CSV fields are split at commas outside
/// quotes; a quoted part has its quotes removed and `""` inside it read as one `"`. Bytes after a
/// closing quote are kept (`"ab"c` is `abc`), as most readers do. A `lines` record is one field.
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
        switch locate(index, in: record, dialect: dialect) {
        case .missing:
            return false
        case .bytes(let range):
            // Typed, so that the append is one copy rather than a loop over a raw sequence.
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: record[range]).assumingMemoryBound(to: UInt8.self))
            return true
        case .quoted:
            unquote(index, from: record, dialect: dialect ?? .comma, into: &out)
            return true
        }
    }

    /// Where field `index` (0-based) of `record` lies, for callers that read fields in place.
    ///
    /// A TSV or `lines` field, and a CSV field without quotes, is a range of the record's bytes:
    /// the same bytes that ``extract(_:from:format:into:)`` copies. A CSV field with a quote in
    /// it is ``FieldLocation/quoted``: read it with ``extract(_:from:format:into:)``.
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
        // Constants per format, so that each case is specialized as before dialects existed.
        switch format {
        case .lines: return locate(index, in: record, delimiter: nil, quote: nil)
        case .csv: return locate(index, in: record, delimiter: UInt8(ascii: ","), quote: UInt8(ascii: "\""))
        case .tsv: return locate(index, in: record, delimiter: 0x09, quote: nil)
        }
    }

    /// Where field `index` (0-based) of `record` lies in `dialect`: see ``locate(_:in:format:)``.
    ///
    /// - Parameters:
    ///   - index: The 0-based field.
    ///   - record: The record's bytes, without its line terminator.
    ///   - dialect: The delimiter and quote; `nil` reads the record as one field.
    /// - Returns: The field's range, ``FieldLocation/quoted`` (a field with a quote byte in it),
    ///   or ``FieldLocation/missing``.
    /// - Complexity: O(*n*) in the record's length up to the field's end; no allocation.
    public static func locate(_ index: Int, in record: UnsafeRawBufferPointer, dialect: CSVDialect?) -> FieldLocation {
        locate(index, in: record, delimiter: dialect?.delimiter, quote: dialect?.quote)
    }

    /// The one implementation of `locate`: `delimiter` nil reads the record as one field.
    @inline(__always)
    static func locate(_ index: Int, in record: UnsafeRawBufferPointer, delimiter: UInt8?, quote: UInt8?) -> FieldLocation {
        let count = record.count
        guard index >= 0 else { return .missing }
        guard let delimiter else { return index == 0 ? .bytes(0..<count) : .missing }
        guard let base = record.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            return index == 0 ? .bytes(0..<0) : .missing
        }
        guard let quote else {
            var field = 0
            var start = 0
            while true {
                var end = count
                if start < count, let hit = memchr(base + start, Int32(delimiter), count &- start) {
                    end = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
                }
                if field == index { return .bytes(start..<end) }
                if end == count { return .missing }
                field &+= 1
                start = end &+ 1
            }
        }
        // The state machine of `unquote`, without the copy: a field that never enters
        // quotes has no quote byte in it, so its bytes are exactly what `unquote` copies.
        var field = 0
        var position = 0
        while true {
            let start = position
            var quoted = false
            var inQuotes = false
            while position < count {
                let byte = base[position]
                if inQuotes {
                    if byte == quote {
                        if position &+ 1 < count, base[position &+ 1] == quote {
                            position &+= 2
                            continue
                        }
                        inQuotes = false
                    }
                } else if byte == delimiter {
                    break
                } else if byte == quote {
                    inQuotes = true
                    quoted = true
                }
                position &+= 1
            }
            if field == index { return quoted ? .quoted : .bytes(start..<position) }
            if position >= count { return .missing }
            position &+= 1 // the delimiter
            field &+= 1
        }
    }

    /// Copies field `index` into `out`, unquoting it; the record has that field.
    private static func unquote(_ index: Int, from record: UnsafeRawBufferPointer, dialect: CSVDialect, into out: inout [UInt8]) {
        var field = 0
        var position = 0
        let count = record.count
        let delimiter = dialect.delimiter
        let quote = dialect.quote ?? delimiter
        while true {
            let wanted = field == index
            // One field: optionally quoted; a quoted part may be followed by stray bytes,
            // which are kept (as most readers do).
            var inQuotes = false
            while position < count {
                let byte = record[position]
                if inQuotes {
                    if byte == quote {
                        if position + 1 < count, record[position + 1] == quote {
                            if wanted { out.append(byte) }
                            position += 2
                            continue
                        }
                        inQuotes = false
                    } else if wanted {
                        out.append(byte)
                    }
                } else if byte == delimiter {
                    break
                } else if byte == quote {
                    inQuotes = true
                } else if wanted {
                    out.append(byte)
                }
                position += 1
            }
            if wanted || position >= count { return }
            position += 1 // the delimiter
            field += 1
        }
    }

    /// All fields of a record (for a header row), decoded as UTF-8 leniently (bad bytes become U+FFFD).
    ///
    /// - Parameters:
    ///   - record: The record's bytes, without its line terminator.
    ///   - format: How the record is split.
    /// - Returns: At least one field (an empty record has one empty field).
    /// - Complexity: O(*n*·*k*) for *n* bytes and *k* fields.
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
    /// - Complexity: O(*n*·*k*) for *n* bytes and *k* fields.
    public static func all(_ record: UnsafeRawBufferPointer, dialect: CSVDialect?) -> [String] {
        var fields: [String] = []
        var scratch: [UInt8] = []
        var index = 0
        while extract(index, from: record, dialect: dialect, into: &scratch) {
            fields.append(String(decoding: scratch, as: UTF8.self))
            index += 1
            if dialect == nil { break }
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
        let delimiter = dialect.delimiter
        let quote = dialect.quote
        var field = 0
        var position = 0
        while true {
            let start = position
            var quoted = false
            var inQuotes = false
            while position < count {
                let byte = base[position]
                if inQuotes {
                    if byte == quote {
                        if position &+ 1 < count, base[position &+ 1] == quote {
                            position &+= 2
                            continue
                        }
                        inQuotes = false
                    }
                } else if byte == delimiter {
                    break
                } else if quote != nil, byte == quote {
                    inQuotes = true
                    quoted = true
                }
                position &+= 1
            }
            if quoted, let quote {
                // The same rules as `unquote`: doubled quotes inside quotes are one quote,
                // stray bytes after a closing quote are kept.
                scratch.removeAll(keepingCapacity: true)
                var inside = false
                var index = start
                while index < position {
                    let byte = base[index]
                    if inside {
                        if byte == quote {
                            if index &+ 1 < position, base[index &+ 1] == quote {
                                scratch.append(byte)
                                index &+= 2
                                continue
                            }
                            inside = false
                        } else {
                            scratch.append(byte)
                        }
                    } else if byte == quote {
                        inside = true
                    } else {
                        scratch.append(byte)
                    }
                    index &+= 1
                }
                scratch.withUnsafeBufferPointer { body(field, $0) }
            } else {
                body(field, UnsafeBufferPointer(start: base + start, count: position &- start))
            }
            if position >= count { return }
            position &+= 1 // the delimiter
            field &+= 1
        }
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
