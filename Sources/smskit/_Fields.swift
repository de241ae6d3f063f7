/// Field access within one CSV or TSV record, at bytes.
enum _Fields {
    /// Copies field `index` (0-based) of `record` into `out` (cleared first), unquoting CSV.
    /// - Returns: false when the record has fewer fields.
    static func extract(_ index: Int, from record: UnsafeRawBufferPointer, format: InputFormat, into out: inout [UInt8]) -> Bool {
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

    /// All fields of a record (for the header row), decoded leniently.
    static func all(_ record: UnsafeRawBufferPointer, format: InputFormat) -> [String] {
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
