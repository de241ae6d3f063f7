import CPhoneNumberTimeZoneTables
import PhoneNumberPrefixes

/// Reads the generated time zone tables (Sources/CPhoneNumberTimeZoneTables) in place.
enum TimeZoneTable {
    /// The longest prefix in the data (the generator checks it).
    static let longestPrefix = 9

    /// The zone list of the longest prefix of `digits` in the data, considering only prefixes of
    /// at least `minimumLength` digits; nil when there is none.
    @inline(__always)
    static func list(_ digits: E164Digits, minimumLength: Int = 1) -> UInt16? {
        let nodes = smskit_tz_nodes()!
        var node = 0
        var found: UInt16 = 0
        let depth = min(digits.count, longestPrefix)
        var i = 0
        while i < depth {
            let d = digits[i]
            let entry = nodes[node]
            let bit = UInt16(1) << UInt16(d)
            guard entry.child_mask & bit != 0 else { break }
            node = Int(entry.first_child) &+ (entry.child_mask & (bit &- 1)).nonzeroBitCount
            i &+= 1
            let value = nodes[node].value
            if value != 0, i >= minimumLength { found = value }
        }
        return found == 0 ? nil : found &- 1
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
