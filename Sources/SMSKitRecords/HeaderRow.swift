/// A column of a table: by 0-based position, or by the name its header row gives it.
public enum RecordColumn: Sendable, Equatable {
    case position(Int)
    case name(String)
}

/// A table's header row and the columns its names choose: the one place where `validate` and
/// `segments --lines` (and any reader of tables) turn a column name into a position.
///
/// Names match with leading and trailing spaces and tabs ignored, in any letter case, as
/// spreadsheets and contact exports spell them: `" Phone "` is the column `phone`.
public struct HeaderRow: Sendable {
    /// The header's cells, as written.
    public let names: [String]
    /// ``names`` trimmed and lowercased, for matching.
    private let keys: [String]

    /// The header row in `record` (one record's bytes, split by `dialect`; nil: one cell).
    public init(_ record: UnsafeRawBufferPointer, dialect: CSVDialect?) {
        self.init(names: RecordFields.all(record, dialect: dialect))
    }

    public init(names: [String]) {
        self.names = names
        keys = names.map(Self.key)
    }

    /// The position of the column named `name`, the first when several have it, or nil.
    public func position(of name: String) -> Int? {
        keys.firstIndex(of: Self.key(name))
    }

    /// The position of `column`: as given, or the first column of that name; nil when no column
    /// has the name.
    public func position(of column: RecordColumn) -> Int? {
        switch column {
        case .position(let index): index
        case .name(let name): position(of: name)
        }
    }

    /// The first column whose name is one of `names` (lowercase, without surrounding spaces).
    public func firstPosition(namedAnyOf names: Set<String>) -> Int? {
        keys.firstIndex(where: names.contains)
    }

    /// The name without leading and trailing spaces and tabs, lowercased.
    static func key(_ name: String) -> String {
        var scalars = Substring(name)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return scalars.lowercased()
    }
}
