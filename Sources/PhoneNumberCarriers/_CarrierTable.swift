import CPhoneNumberCarrierTables
import PhoneNumberPrefixes

/// Reads the generated carrier tables (Sources/CPhoneNumberCarrierTables) in place.
enum CarrierTable {
    /// The longest prefix in the data (the generator checks it).
    static let longestPrefix = 9

    /// The name of the longest prefix of `digits` whose entry has a name in one of `locale`'s
    /// candidate locales, as PyPI phonenumbers' `_prefix_description_for_number` looks it up
    /// (a prefix without a name in the asked language gives way to a shorter one); nil when none.
    @inline(__always)
    static func name(_ digits: E164Digits, _ locale: CarrierLocale) -> UInt16? {
        let nodes = smskit_carrier_nodes()!
        // The entries met on the way down, deepest last (at most nine).
        var path: (UInt16, UInt16, UInt16, UInt16, UInt16, UInt16, UInt16, UInt16, UInt16) = (0, 0, 0, 0, 0, 0, 0, 0, 0)
        var found = 0
        var node = 0
        let depth = min(digits.count, longestPrefix)
        withUnsafeMutableBytes(of: &path) { raw in
            let entries = raw.bindMemory(to: UInt16.self)
            var i = 0
            while i < depth {
                let entry = nodes[node]
                let bit = UInt16(1) << UInt16(digits[i])
                guard entry.child_mask & bit != 0 else { break }
                node = Int(entry.first_child) &+ (entry.child_mask & (bit &- 1)).nonzeroBitCount
                let value = nodes[node].value
                if value != 0 {
                    entries[found] = value &- 1
                    found &+= 1
                }
                i &+= 1
            }
        }
        guard found != 0 else { return nil }
        return withUnsafeBytes(of: &path) { raw in
            let entries = raw.bindMemory(to: UInt16.self)
            var k = found
            while k > 0 {
                k &-= 1
                if let name = name(entry: entries[k], locale) { return name }
            }
            return nil
        }
    }

    /// The name of `entry` in the first of `locale`'s candidates it has.
    @inline(__always)
    static func name(entry: UInt16, _ locale: CarrierLocale) -> UInt16? {
        let offsets = smskit_carrier_entry_offsets()!
        let locales = smskit_carrier_entry_locales()!
        let names = smskit_carrier_entry_names()!
        let range = Int(offsets[Int(entry)]) ..< Int(offsets[Int(entry) &+ 1])
        var candidates = locale.candidates
        while candidates != 0 {
            let wanted = UInt8(truncatingIfNeeded: candidates & 0xFF) &- 1
            for k in range where locales[k] == wanted { return names[k] }
            candidates >>= 8
        }
        return nil
    }

    /// Name `name`'s UTF-8 bytes, in the tables' read-only memory.
    @inline(__always)
    static func utf8(_ name: UInt16) -> UnsafeBufferPointer<UInt8> {
        let offsets = smskit_carrier_name_offsets()!
        let start = Int(offsets[Int(name)])
        let end = Int(offsets[Int(name) &+ 1]) &- 1
        return UnsafeBufferPointer(start: smskit_carrier_names()! + start, count: end &- start)
    }

    /// Whether bit `index` of the portable-regions bitmap is set.
    @inline(__always)
    static func isPortable(letterIndex index: Int) -> Bool {
        smskit_carrier_portable_regions()![index >> 3] & (1 << UInt8(index & 7)) != 0
    }
}
