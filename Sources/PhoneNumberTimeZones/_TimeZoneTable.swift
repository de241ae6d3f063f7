import CPhoneNumberTimeZoneTables
import PhoneNumberPrefixes
import PhoneNumbers

/// Reads the generated time zone tables (Sources/CPhoneNumberTimeZoneTables) in place.
enum TimeZoneTable {
    /// The zone list of the longest prefix of the number's E.164 digits in the data; nil when
    /// there is none.
    @inline(__always)
    static func list(_ number: PhoneNumber) -> UInt16? {
        PrefixTrie.matches(UnsafeRawPointer(smskit_tz_nodes()!), number: number).deepest
    }

    /// The zone list of the longest prefix of a calling code's digits of at least `minimumLength`
    /// digits; nil when there is none.
    @inline(__always)
    static func list(countryCode: Int, minimumLength: Int) -> UInt16? {
        PrefixTrie.matches(UnsafeRawPointer(smskit_tz_nodes()!), countryCode: countryCode, minimumLength: minimumLength).deepest
    }

    /// The zone indices of list `list`.
    @inline(__always)
    static func zones(ofList list: UInt16) -> Range<Int> {
        let offsets = smskit_tz_list_offsets()!
        return Int(offsets[Int(list)]) ..< Int(offsets[Int(list) &+ 1])
    }

    @inline(__always)
    static func zone(at position: Int) -> UInt16 { smskit_tz_list_zones()![position] }

    /// Zone `zone`'s IANA name, in the tables' read-only memory.
    @inline(__always)
    static func name(_ zone: UInt16) -> UnsafeBufferPointer<UInt8> {
        let offsets = smskit_tz_name_offsets()!
        let start = Int(offsets[Int(zone)])
        let end = Int(offsets[Int(zone) &+ 1]) &- 1
        return UnsafeBufferPointer(start: smskit_tz_names()! + start, count: end &- start)
    }

    static var zoneCount: Int { Int(smskit_tz_zone_count()) }

    /// Whether mobile numbers of the calling code are geographical (libphonenumber's
    /// `GEO_MOBILE_COUNTRIES`).
    @inline(__always)
    static func hasGeographicalMobileNumbers(_ countryCode: Int) -> Bool {
        let codes = UnsafeBufferPointer(start: smskit_tz_geo_mobile_codes()!, count: Int(smskit_tz_geo_mobile_code_count()))
        for code in codes where Int(code) == countryCode { return true }
        return false
    }
}
