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
        out.removeAll(keepingCapacity: true)
        switch format {
        case .lines:
            guard index == 0 else { return false }
            out.append(contentsOf: record)
            return true
        case .tsv:
            var field = 0
            var start = 0
            for position in 0...record.count {
                if position == record.count || record[position] == UInt8(ascii: "\t") {
                    if field == index {
                        out.append(contentsOf: UnsafeRawBufferPointer(rebasing: record[start..<position]))
                        return true
                    }
                    field += 1
                    start = position + 1
                }
            }
            return false
        case .csv:
            var field = 0
            var position = 0
            let count = record.count
            while true {
                let wanted = field == index
                // One field: optionally quoted; a quoted part may be followed by stray bytes,
                // which are kept (as most readers do).
                var inQuotes = false
                while position < count {
                    let byte = record[position]
                    if inQuotes {
                        if byte == UInt8(ascii: "\"") {
                            if position + 1 < count, record[position + 1] == UInt8(ascii: "\"") {
                                if wanted { out.append(byte) }
                                position += 2
                                continue
                            }
                            inQuotes = false
                        } else if wanted {
                            out.append(byte)
                        }
                    } else if byte == UInt8(ascii: ",") {
                        break
                    } else if byte == UInt8(ascii: "\"") {
                        inQuotes = true
                    } else if wanted {
                        out.append(byte)
                    }
                    position += 1
                }
                if wanted {
                    return true
                }
                if position >= count { return false }
                position += 1 // the comma
                field += 1
            }
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
        var fields: [String] = []
        var scratch: [UInt8] = []
        var index = 0
        while extract(index, from: record, format: format, into: &scratch) {
            fields.append(String(decoding: scratch, as: UTF8.self))
            index += 1
            if format == .lines { break }
        }
        return fields
    }
}
