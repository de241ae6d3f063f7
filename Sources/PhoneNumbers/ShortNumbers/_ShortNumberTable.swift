import CShortNumberTables

/// The label bits of the short-number DFAs (tools/metadata/generate_short_numbers.py, DESCS):
/// bit i when the i-th description matches the digits in full, and `emergencyPrefix` once some
/// prefix of them matched the emergency pattern.
enum _ShortNumberBits {
    static let general: UInt16 = 1 << 0
    static let shortCode: UInt16 = 1 << 1
    static let tollFree: UInt16 = 1 << 2
    static let standardRate: UInt16 = 1 << 3
    static let premiumRate: UInt16 = 1 << 4
    static let emergency: UInt16 = 1 << 5
    static let carrierSpecific: UInt16 = 1 << 6
    static let smsServices: UInt16 = 1 << 7
    static let emergencyPrefix: UInt16 = 1 << 8

    /// The description index of each bit (0...7) in a region's length masks.
    static func index(_ bit: UInt16) -> Int { bit.trailingZeroBitCount }
}

/// The generated short-number tables (`CShortNumberTables`), read in place: constant data in the
/// binary, nothing decoded. A region is an index into `smskit_short_regions()`.
enum _ShortNumberTable {
    static let none: UInt16 = 0xFFFF
    /// Where `lengths` starts in a `smskit_short_region` (after the code and the DFA offset).
    static var lengthsOffset: Int { @inline(__always) get { MemoryLayout<smskit_short_region>.offset(of: \.lengths)! } }

    /// The short-number region of `region`, or nil when it has no short-number data.
    @inline(__always)
    static func region(_ region: RegionCode) -> Int? {
        guard let letters = region.letterIndex else { return nil }
        let index = smskit_short_by_letters()[letters]
        return index == none ? nil : Int(index)
    }

    /// The regions of a calling code in libphonenumber's order: short-number region indices, or
    /// `none` for a region without short-number data. Empty for an unknown code.
    @inline(__always)
    static func regions(ofCallingCode code: Int) -> UnsafeBufferPointer<UInt16> {
        guard code >= 0, code < 1000 else { return UnsafeBufferPointer(start: nil, count: 0) }
        let start = Int(smskit_short_cc_start()[code]), count = Int(smskit_short_cc_count()[code])
        return UnsafeBufferPointer(start: smskit_short_cc_regions() + start, count: count)
    }

    /// Whether `region` is among the regions of calling code `code`.
    @inline(__always)
    static func callingCode(_ code: Int, includes region: Int) -> Bool {
        regions(ofCallingCode: code).contains(UInt16(region))
    }

    /// The region's code, e.g. "US".
    static func code(_ region: Int) -> RegionCode {
        let c = smskit_short_regions()[region].code
        return RegionCode(unchecked: String(decoding: [UInt8(bitPattern: c.0), UInt8(bitPattern: c.1)], as: UTF8.self))
    }

    /// Whether `length` digits are a possible length of the region's description `bit`.
    @inline(__always)
    static func lengthAllowed(_ region: Int, _ bit: UInt16, _ length: Int) -> Bool {
        guard length < 32 else { return false }
        // One load from the record in place (not a copy of its eight masks).
        let record = UnsafeRawPointer(smskit_short_regions()! + region)
        let mask = record.load(fromByteOffset: lengthsOffset &+ 4 &* _ShortNumberBits.index(bit), as: UInt32.self)
        return mask &>> UInt32(length) & 1 != 0
    }

    /// The label of the region's DFA after `digits` (ASCII digits; any other byte kills the walk).
    @inline(__always)
    static func label(_ region: Int, _ digits: UnsafeBufferPointer<UInt8>) -> UInt16 {
        let words = smskit_short_words()!
        let offset = Int(smskit_short_regions()[region].dfa)
        let rows = words + (offset &+ 1)
        var state = Int(words[offset])
        for byte in digits {
            let digit = Int(byte &- 0x30)
            guard digit < 10 else { return 0 }
            state = Int(rows[state &* 11 &+ digit])
            if state == 0 { return 0 }
        }
        return rows[state &* 11 &+ 10]
    }

    /// libphonenumber's "matches possible number and national number": the description's
    /// pattern matches in full and its possible lengths admit the length.
    @inline(__always)
    static func matches(_ label: UInt16, _ bit: UInt16, _ region: Int, _ length: Int) -> Bool {
        label & bit != 0 && lengthAllowed(region, bit, length)
    }
}
