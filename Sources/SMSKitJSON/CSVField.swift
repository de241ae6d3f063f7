/// Writing one CSV field so that RFC 4180 readers (Python's `csv`, Excel, pandas) read back the
/// same bytes: the one quoting rule of every CSV the tools write.
public enum CSVField {
    /// Whether `field` must be quoted: it holds a comma, a quote, CR or LF, or starts or ends with
    /// a space (which many readers and spreadsheets trim from an unquoted field).
    @inlinable
    public static func needsQuotes(_ field: UnsafeBufferPointer<UInt8>) -> Bool {
        if field.first == UInt8(ascii: " ") || field.last == UInt8(ascii: " ") { return true }
        for value in field where value == UInt8(ascii: ",") || value == UInt8(ascii: "\"")
            || value == UInt8(ascii: "\n") || value == UInt8(ascii: "\r") {
            return true
        }
        return false
    }

    /// `field` as a CSV field: as it is, or quoted with its quotes doubled.
    package static func encoded(_ field: String) -> String {
        var field = field
        let quote = field.withUTF8 { needsQuotes($0) }
        guard quote else { return field }
        var quoted = "\""
        for character in field.unicodeScalars {
            quoted.unicodeScalars.append(character)
            if character == "\"" { quoted.unicodeScalars.append(character) }
        }
        return quoted + "\""
    }
}
