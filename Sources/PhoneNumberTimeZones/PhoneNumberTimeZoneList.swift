/// The time zones of a phone number, in libphonenumber's order: a view of the generated tables,
/// so that getting one and iterating over it allocates nothing.
///
/// Empty when the number has no known zone (libphonenumber answers with the single zone
/// "Etc/Unknown" there; see ``isUnknown``).
///
/// ```swift
/// let zones = engine.timeZones(of: try engine.parse(e164: "+18005550123"))  // US toll free
/// zones.count         // 42 (every zone of +1)
/// ```
public struct PhoneNumberTimeZoneList: RandomAccessCollection, Sendable, Hashable, CustomStringConvertible {
    /// The positions of the list's zones in the tables' concatenated lists.
    let positions: Range<Int>

    init(list: UInt16?) {
        positions = list.map { TimeZoneTable.zones(ofList: $0) } ?? 0 ..< 0
    }

    /// The empty list: no time zone is known.
    public static let unknown = PhoneNumberTimeZoneList(list: nil)

    /// Whether no zone is known (libphonenumber's `["Etc/Unknown"]`).
    public var isUnknown: Bool { positions.isEmpty }

    public var startIndex: Int { 0 }
    public var endIndex: Int { positions.count }

    public subscript(position: Int) -> PhoneNumberTimeZone {
        precondition(position >= 0 && position < positions.count, "index out of range")
        return PhoneNumberTimeZone(index: TimeZoneTable.zone(at: positions.lowerBound &+ position))
    }

    /// The identifiers joined by "&", libphonenumber's file format (empty when unknown).
    public var description: String { map(\.identifier).joined(separator: "&") }
}
