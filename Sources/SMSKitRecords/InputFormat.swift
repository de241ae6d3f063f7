/// How a text input is split into records and fields.
///
/// ```swift
/// let reader = RecordReader(fd: fd, name: "contacts.csv", format: .csv)
/// ```
public enum InputFormat: String, CaseIterable, Sendable {
    /// One record per line, the whole line (one field).
    case lines
    /// RFC 4180 CSV: comma-separated fields, quoted fields with doubled quotes and embedded newlines.
    case csv
    /// Tab-separated fields, no quoting.
    case tsv
}
