/// An IANA time zone that libphonenumber's data gives a phone number, such as
/// `America/New_York`: a small index into the generated tables, so that copying, comparing and
/// hashing one costs nothing and naming one allocates nothing.
///
/// ```swift
/// let zones = engine.timeZones(of: try engine.parse(e164: "+12015550123"))
/// zones.first?.identifier     // "America/New_York"
/// ```
public struct PhoneNumberTimeZone: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The zone's index in the generated tables.
    let index: UInt16

    init(index: UInt16) { self.index = index }

    /// The zone with IANA identifier `identifier` when libphonenumber's data names it
    /// (exact spelling, e.g. "Europe/Berlin"); nil otherwise.
    ///
    /// - Complexity: O(*z*) in the number of zones in the data (about 300).
    public init?(_ identifier: some StringProtocol) {
        var found: UInt16?
        var copy = String(identifier)
        copy.withUTF8 { bytes in
            for zone in 0 ..< TimeZoneTable.zoneCount {
                let name = TimeZoneTable.name(UInt16(zone))
                if name.count == bytes.count, name.elementsEqual(bytes) {
                    found = UInt16(zone)
                    return
                }
            }
        }
        guard let found else { return nil }
        index = found
    }

    /// The IANA identifier, e.g. "Europe/Berlin".
    ///
    /// Allocates a String (identifiers are longer than Swift's 15-byte small strings); use
    /// ``utf8`` on hot paths.
    public var identifier: String { String(decoding: utf8, as: UTF8.self) }

    /// The identifier's ASCII bytes in the tables' read-only memory, valid for the life of the
    /// process: reading them allocates nothing.
    public var utf8: UnsafeBufferPointer<UInt8> { TimeZoneTable.name(index) }

    public var description: String { identifier }

    /// Orders zones by identifier.
    public static func < (a: PhoneNumberTimeZone, b: PhoneNumberTimeZone) -> Bool {
        a.index < b.index  // the generator sorts the names
    }

    /// Every zone libphonenumber's data names, sorted by identifier.
    public static var all: [PhoneNumberTimeZone] {
        (0 ..< TimeZoneTable.zoneCount).map { PhoneNumberTimeZone(index: UInt16($0)) }
    }
}
