import CPhoneNumberCarrierTables
import PhoneNumberPrefixes
import PhoneNumbers

/// Reads the generated carrier tables (Sources/CPhoneNumberCarrierTables) in place.
enum CarrierTable {
    /// The name of the longest prefix of the number's E.164 digits whose entry has a name in one
    /// of `locale`'s candidate locales, as PyPI phonenumbers' `_prefix_description_for_number`
    /// looks it up (a prefix without a name in the asked language gives way to a shorter one);
    /// nil when none.
    @inline(__always)
    static func name(_ number: PhoneNumber, _ locale: CarrierLocale) -> UInt16? {
        let matches = PrefixTrie.matches(UnsafeRawPointer(smskit_carrier_nodes()!), number: number)
        var k = matches.count
        while k > 0 {
            k &-= 1
            if let name = name(entry: matches[k], locale) { return name }
        }
        return nil
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
