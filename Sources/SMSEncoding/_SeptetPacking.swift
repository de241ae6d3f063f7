/// Packs septets into TP-User-Data octets eight at a time (eight septets are exactly seven octets).
///
/// The same bit layout as ``GSM7/pack(_:fillBits:)`` (least significant bit first, `fillBits` zero
/// bits before the first septet), without an intermediate septet array: the input bytes are mapped
/// to septets through a 256-entry table on the way.
enum _SeptetPacking {
    /// The number of octets that `septets` septets after `fillBits` fill bits take.
    @inline(__always)
    static func octetCount(septets: Int, fillBits: Int) -> Int {
        (fillBits &+ 7 &* septets &+ 7) &>> 3
    }

    /// An array of `count` octets that `body` writes (all of them), or `nil` when `body` returns false.
    ///
    /// Written through a stack buffer and copied: `Array(unsafeUninitializedCapacity:)` and
    /// `Array(repeating:count:)` call an unspecialized standard library function that looks the
    /// storage type up at run time on every call, copying a buffer does not.
    @inline(__always)
    static func makeOctets(count: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) -> Bool) -> [UInt8]? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { buffer in
            body(buffer) ? Array(UnsafeBufferPointer(buffer)) : nil
        }
    }

    /// Whether every byte of `bytes` is in U+0020...U+007A other than `$`, `@` and
    /// ``[\]^_` `` (0x5B...0x60): characters that are their own septet in the default alphabet.
    ///
    /// Written as a branch-free loop over bytes so that the compiler vectorizes it (16 or 32 bytes
    /// per step).
    @inline(__always)
    static func isIdentityText(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // The range as a minimum and a maximum, the exceptions as compare masks: operations the
        // compiler maps to vector compares, with no branch per byte.
        var lowest: UInt8 = 0xFF
        var highest: UInt8 = 0
        var exception: UInt8 = 0
        for byte in bytes {
            lowest = min(lowest, byte)
            highest = max(highest, byte)
            exception |= (byte == 0x24 ? 0xFF : 0) | (byte == 0x40 ? 0xFF : 0) | (byte &- 0x5B < 6 ? 0xFF : 0)
        }
        return lowest >= 0x20 && highest <= 0x7A && exception == 0
    }

    /// Whether every byte of `bytes` is an ASCII character of one septet in the default alphabet:
    /// LF, CR, U+0020...U+005A (`$` and `@` included), `_` and `a`...`z`.
    ///
    /// Branch-free like ``isIdentityText(_:)``, so that it is vectorized: the set as two ranges and
    /// three single bytes, each a compare mask.
    @inline(__always)
    static func isSingleSeptetText(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var outside: UInt8 = 0
        for byte in bytes {
            let notUpper: UInt8 = byte &- 0x20 < 0x3B ? 0 : 0xFF  // space...Z
            let notLower: UInt8 = byte &- 0x61 < 0x1A ? 0 : 0xFF  // a...z
            let notLF: UInt8 = byte == 0x0A ? 0 : 0xFF
            let notCR: UInt8 = byte == 0x0D ? 0 : 0xFF
            let notUnderscore: UInt8 = byte == 0x5F ? 0 : 0xFF
            outside |= notUpper & notLower & notLF & notCR & notUnderscore
        }
        return outside == 0
    }

    /// Whether every byte of `bytes` is ASCII (a vectorized pass).
    @inline(__always)
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var bits: UInt8 = 0
        for byte in bytes { bits |= byte }
        return bits < 0x80
    }

    /// Eight septets in byte lanes (seven bits each, bit 7 ignored) to 56 contiguous bits.
    @inline(__always)
    static func compress(_ lanes: UInt64) -> UInt64 {
        // Lane pairs: a + 256 b becomes a + 128 b by subtracting 128 b.
        var value = (lanes & 0x7F7F_7F7F_7F7F_7F7F)
        value &-= (value &>> 1) & 0x3F80_3F80_3F80_3F80
        value = (value & 0x0000_3FFF_0000_3FFF) | ((value & 0x3FFF_0000_3FFF_0000) &>> 2)
        return (value & 0x0000_0000_0FFF_FFFF) | ((value & 0x0FFF_FFFF_0000_0000) &>> 4)
    }

    /// Maps every byte of `bytes` through `map` and packs the septets into `output`.
    ///
    /// - Parameters:
    ///   - bytes: The input bytes (for example ASCII text).
    ///   - map: 256 entries: the septet of each byte value, or a value with bit 7 set when the byte
    ///     has no single septet.
    ///   - fillBits: Zero bits before the first septet, 0...6.
    ///   - identity: `isIdentityText(bytes)` (or a slice's enclosing text's), or `false`: when true
    ///     the bytes are their own septets and the table is not read.
    ///   - output: Room for exactly `octetCount(septets: bytes.count, fillBits: fillBits)` octets.
    /// - Returns: `false` when some byte maps to a value with bit 7 set; `output` then holds garbage.
    /// - Complexity: O(*n*).
    static func packMapped(
        _ bytes: UnsafeBufferPointer<UInt8>, map: UnsafeBufferPointer<UInt8>, fillBits: Int, identity: Bool,
        into output: UnsafeMutableBufferPointer<UInt8>
    ) -> Bool {
        let count = bytes.count
        guard count > 0, let input = bytes.baseAddress else {
            // Only the fill bits (if any): they are zero.
            if let out = output.baseAddress { out.initialize(repeating: 0, count: output.count) }
            return true
        }
        precondition(map.count == 256 && output.count == octetCount(septets: count, fillBits: fillBits))
        let table = map.baseAddress!
        let out = output.baseAddress!
        let outCount = output.count
        let shift = UInt64(fillBits)
        var carry: UInt64 = 0  // the `fillBits` bits that did not fit in the octets written so far
        var invalid: UInt64 = 0
        var position = 0
        var written = 0

        /// Packs the whole chunks of eight bytes, reading each chunk's septet lanes with `load`. All
        /// but the last chunk are written with one 8-octet store (its eighth octet is overwritten by
        /// the next septets).
        @inline(__always)
        func packChunks(_ load: (UnsafePointer<UInt8>) -> UInt64) {
            let storable = outCount &- 8  // last octet offset that an 8-octet store may start at
            while position &+ 8 <= count {
                let lanes = load(input + position)
                invalid |= lanes
                let bits = carry | compress(lanes) &<< shift
                if written <= storable {
                    UnsafeMutableRawPointer(out + written).storeBytes(of: bits.littleEndian, as: UInt64.self)
                } else {
                    for octet in 0..<7 { out[written &+ octet] = UInt8(truncatingIfNeeded: bits &>> UInt64(octet &* 8)) }
                }
                carry = bits &>> 56
                written &+= 7
                position &+= 8
            }
        }

        // Two specialized loops: most texts (letters, digits, space, common punctuation) need no
        // table lookup at all.
        if identity {
            // Sixteen bytes to fourteen octets per step while two 8-octet stores fit.
            while position &+ 16 <= count && written &+ 16 <= outCount {
                let first = compress(UInt64(littleEndian: UnsafeRawPointer(input + position).loadUnaligned(as: UInt64.self)))
                let second = compress(UInt64(littleEndian: UnsafeRawPointer(input + (position &+ 8)).loadUnaligned(as: UInt64.self)))
                let low = carry | first &<< shift
                let high = low &>> 56 | second &<< shift
                UnsafeMutableRawPointer(out + written).storeBytes(of: low.littleEndian, as: UInt64.self)
                UnsafeMutableRawPointer(out + (written &+ 7)).storeBytes(of: high.littleEndian, as: UInt64.self)
                carry = high &>> 56
                written &+= 14
                position &+= 16
            }
            packChunks { UInt64(littleEndian: UnsafeRawPointer($0).loadUnaligned(as: UInt64.self)) }
        } else {
            packChunks { p in
                var lanes = UInt64(table[Int(p[0])])
                lanes |= UInt64(table[Int(p[1])]) &<< 8
                lanes |= UInt64(table[Int(p[2])]) &<< 16
                lanes |= UInt64(table[Int(p[3])]) &<< 24
                lanes |= UInt64(table[Int(p[4])]) &<< 32
                lanes |= UInt64(table[Int(p[5])]) &<< 40
                lanes |= UInt64(table[Int(p[6])]) &<< 48
                lanes |= UInt64(table[Int(p[7])]) &<< 56
                return lanes
            }
        }
        var lanes: UInt64 = 0
        var lane: UInt64 = 0
        while position < count {
            lanes |= UInt64(table[Int(input[position])]) &<< lane
            lane &+= 8
            position &+= 1
        }
        invalid |= lanes
        let bits = carry | compress(lanes) &<< shift
        var octet: UInt64 = 0
        while written < outCount {
            out[written] = UInt8(truncatingIfNeeded: bits &>> octet)
            octet &+= 8
            written &+= 1
        }
        return invalid & 0x8080_8080_8080_8080 == 0
    }
}
