/// Lookup structures built once from the generated tables (`Generated/_GSMTables.swift`).
///
/// For each code point: a mask of the locking-shift tables that contain it and a mask of the
/// single-shift tables that contain it (bit n = NLI n). For each table: the septet of a code point.
/// Immutable after construction; shared read-only data, not a configurable singleton (a final
/// class so that lookups do not copy and retain its arrays).
package final class _GSMCharacterIndex: Sendable {
    /// Locking-table mask for ASCII (index = code point).
    package let asciiLocking: [UInt16]
    /// Single-shift-table mask for ASCII.
    package let asciiShift: [UInt16]
    /// Septet cost of ASCII in the default tables: 1, 2 (escaped) or 0 (not encodable).
    package let asciiDefaultCost: [UInt8]
    /// Masks for code points below `directLimit` (Latin, Greek, Arabic, Indic scripts), indexed by
    /// code point: locking mask in the low 16 bits, single-shift mask in the high 16 bits.
    package let direct: [UInt32]
    /// For each byte value: 1 when it is an ASCII character of one septet in the default alphabet,
    /// else 0 (escaped or unencodable ASCII, and every non-ASCII UTF-8 byte).
    package let singleSeptetBytes: [UInt8]
    /// For each byte value: its septet in the default alphabet when it is an ASCII character of one
    /// septet there (`@` is 0x00, `$` 0x02, `_` 0x11, most others their own code), else 0x80.
    package let singleSeptetValues: [UInt8]
    /// For each code point below U+0800 (every one- and two-byte UTF-8 sequence): its septet cost
    /// in the default tables, 1, 2 (escaped) or 0 (not encodable). The only default-table character
    /// above is `€` (escaped).
    package let defaultCosts: [UInt8]
    /// For each code point below U+0800: its septet in the default alphabet when it is one septet
    /// there, else 0x80.
    package let defaultSeptets: [UInt8]
    /// For each byte value: itself below 0x80, else 0x80 (a `_SeptetPacking.packMapped` table for
    /// septets that are already septets).
    package let identitySeptets: [UInt8]
    /// Code points from `directLimit` up that some table contains, sorted.
    package let keys: [UInt32]
    /// For each key: locking mask in the low 16 bits, single-shift mask in the high 16 bits.
    package let masks: [UInt32]
    /// Per locking table (index NLI): sorted `codePoint << 8 | septet`.
    package let lockingReverse: [[UInt32]]
    /// Per single-shift table (index NLI): sorted `codePoint << 8 | septet`.
    package let shiftReverse: [[UInt32]]

    init() {
        var asciiLocking = [UInt16](repeating: 0, count: 128)
        var asciiShift = [UInt16](repeating: 0, count: 128)
        var other: [UInt32: UInt32] = [:]
        var lockingReverse: [[UInt32]] = []
        var shiftReverse: [[UInt32]] = []
        for nli in 0..<14 {
            var reverse: [UInt32] = []
            var seen: Set<UInt16> = []
            if nli != 2 {
                for (septet, value) in _gsmLockingTables[nli].enumerated() where value != 0 {
                    if value < 128 {
                        asciiLocking[Int(value)] |= 1 << UInt16(nli)
                    } else {
                        other[UInt32(value), default: 0] |= 1 << UInt32(nli)
                    }
                    // The first septet wins for duplicated characters.
                    if seen.insert(value).inserted { reverse.append(UInt32(value) << 8 | UInt32(septet)) }
                }
            }
            lockingReverse.append(reverse.sorted())
            reverse = []
            seen = []
            for (septet, value) in _gsmSingleShiftTables[nli].enumerated() where value != 0 {
                if value < 128 {
                    asciiShift[Int(value)] |= 1 << UInt16(nli)
                } else {
                    other[UInt32(value), default: 0] |= 1 << UInt32(nli + 16)
                }
                if seen.insert(value).inserted { reverse.append(UInt32(value) << 8 | UInt32(septet)) }
            }
            shiftReverse.append(reverse.sorted())
        }
        var asciiDefaultCost = [UInt8](repeating: 0, count: 128)
        for byte in 0..<128 {
            if asciiLocking[byte] & 1 != 0 {
                asciiDefaultCost[byte] = 1
            } else if asciiShift[byte] & 1 != 0 {
                asciiDefaultCost[byte] = 2
            }
        }
        var direct = [UInt32](repeating: 0, count: Self.directLimit)
        for byte in 0..<128 { direct[byte] = UInt32(asciiLocking[byte]) | UInt32(asciiShift[byte]) << 16 }
        for (key, mask) in other where key < UInt32(Self.directLimit) { direct[Int(key)] = mask }
        var singleSeptetBytes = [UInt8](repeating: 0, count: 256)
        for byte in 0..<128 where asciiDefaultCost[byte] == 1 { singleSeptetBytes[byte] = 1 }
        var singleSeptetValues = [UInt8](repeating: 0x80, count: 256)
        for (septet, value) in _gsmLockingTables[0].enumerated() where value != 0 && value < 128 {
            // The first septet wins for duplicated characters, as in the reverse tables.
            if singleSeptetValues[Int(value)] == 0x80 { singleSeptetValues[Int(value)] = UInt8(septet) }
        }
        self.singleSeptetValues = singleSeptetValues
        var defaultCosts = [UInt8](repeating: 0, count: 0x800)
        var defaultSeptets = [UInt8](repeating: 0x80, count: 0x800)
        for codePoint in 0..<0x800 {
            let mask = direct[codePoint]
            defaultCosts[codePoint] = mask & 1 != 0 ? 1 : (mask & 0x1_0000 != 0 ? 2 : 0)
        }
        for (septet, value) in _gsmLockingTables[0].enumerated().reversed() where value != 0 && value < 0x800 {
            // Reversed, so that the first septet wins for duplicated characters.
            defaultSeptets[Int(value)] = UInt8(septet)
        }
        self.defaultCosts = defaultCosts
        self.defaultSeptets = defaultSeptets
        self.identitySeptets = (0..<256).map { $0 < 0x80 ? UInt8($0) : 0x80 }
        self.direct = direct
        self.singleSeptetBytes = singleSeptetBytes
        let keys = other.keys.filter { $0 >= UInt32(Self.directLimit) }.sorted()
        self.asciiLocking = asciiLocking
        self.asciiShift = asciiShift
        self.asciiDefaultCost = asciiDefaultCost
        self.keys = keys
        self.masks = keys.map { other[$0]! }
        self.lockingReverse = lockingReverse
        self.shiftReverse = shiftReverse
    }

    /// The end of the directly indexed code points (U+0000..<U+0E00).
    package static let directLimit = 0x0E00

    /// The masks of the locking-shift and single-shift tables that contain `codePoint`.
    @inline(__always)
    package func tableMasks(_ codePoint: UInt32) -> (locking: UInt16, shift: UInt16) {
        if codePoint < UInt32(Self.directLimit) {
            let mask = direct[Int(codePoint)]
            return (UInt16(truncatingIfNeeded: mask), UInt16(truncatingIfNeeded: mask >> 16))
        }
        if codePoint > 0xFFFF { return (0, 0) }
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low &+ high) &>> 1
            let key = keys[middle]
            if key < codePoint {
                low = middle &+ 1
            } else if key > codePoint {
                high = middle
            } else {
                let mask = masks[middle]
                return (UInt16(truncatingIfNeeded: mask), UInt16(truncatingIfNeeded: mask >> 16))
            }
        }
        return (0, 0)
    }

    /// The septet of `codePoint` in a sorted reverse table, or `nil`.
    @inline(__always)
    static func septet(_ codePoint: UInt32, in reverse: [UInt32]) -> UInt8? {
        guard codePoint <= 0xFFFF else { return nil }
        var low = 0
        var high = reverse.count
        while low < high {
            let middle = (low &+ high) &>> 1
            let key = reverse[middle] >> 8
            if key < codePoint {
                low = middle &+ 1
            } else if key > codePoint {
                high = middle
            } else {
                return UInt8(truncatingIfNeeded: reverse[middle])
            }
        }
        return nil
    }
}

/// The shared, immutable lookup data.
package let _gsmIndex = _GSMCharacterIndex()
