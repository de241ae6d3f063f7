/// How ``SMSAnalysis`` stores its parts: as built, or, for a one-part message without a user data
/// header, as what the part is made of, the part being built when it is read. An analysis of a
/// one-part message then allocates nothing: its text is the input string (a retain, not a copy),
/// and a one-element array of a part with its user data would be two allocations.
enum _SMSParts: Sendable {
    /// The parts as the analysis made them or as given to the public initializer.
    case explicit([SMSPart])
    /// One part without a header: all of `text`, in the default GSM 7-bit tables (`length` septets)
    /// or in UCS-2 (`length` UTF-16 units).
    case single(text: String, encoding: SMSCharacterEncoding, length: Int)

    /// The parts, built for `.single`.
    var parts: [SMSPart] {
        switch self {
        case .explicit(let parts):
            return parts
        case .single(let text, let encoding, let length):
            return [Self.part(text, encoding: encoding, length: length)]
        }
    }

    /// The headerless part of a whole `text`: the same part as `SMSEncoder.split` makes for a
    /// one-part message with the default tables or in UCS-2.
    static func part(_ text: String, encoding: SMSCharacterEncoding, length: Int) -> SMSPart {
        switch encoding {
        case .gsm7:
            return SMSPart(
                text: text, userDataHeader: [], length: length, fillBits: 0, userDataLength: length,
                userData: defaultTableUserData(text, septets: length))
        case .ucs2:
            var data: [UInt8] = []
            data.reserveCapacity(2 * length)
            for unit in text.utf16 {
                data.append(UInt8(truncatingIfNeeded: unit >> 8))
                data.append(UInt8(truncatingIfNeeded: unit))
            }
            return SMSPart(text: text, userDataHeader: [], length: length, fillBits: 0, userDataLength: data.count, userData: data)
        }
    }

    /// `text` packed in the default alphabet and its extension table (`septets` septets, escapes
    /// included), without fill bits.
    static func defaultTableUserData(_ text: String, septets: Int) -> [UInt8] {
        let index = _gsmIndex
        // Single-septet ASCII (most texts): straight from the bytes.
        let octets = _SeptetPacking.octetCount(septets: septets, fillBits: 0)
        let packed: [UInt8]?? = text.utf8.withContiguousStorageIfAvailable { bytes -> [UInt8]? in
            guard bytes.count == septets else { return nil }
            return index.singleSeptetValues.withUnsafeBufferPointer { map in
                _SeptetPacking.makeOctets(count: octets) { buffer in
                    _SeptetPacking.packMapped(bytes, map: map, fillBits: 0, identity: false, into: buffer)
                }
            }
        }
        if let packed = packed ?? nil { return packed }
        // Any other text: the septets one scalar at a time, as the whole analysis finds them.
        var septetValues: [UInt8] = []
        septetValues.reserveCapacity(septets)
        let lockingReverse = index.lockingReverse[0]
        let shiftReverse = index.shiftReverse[0]
        for scalar in text.unicodeScalars {
            if let septet = _GSMCharacterIndex.septet(scalar.value, in: lockingReverse) {
                septetValues.append(septet)
            } else if let septet = _GSMCharacterIndex.septet(scalar.value, in: shiftReverse) {
                septetValues.append(GSM7.escape)
                septetValues.append(septet)
            }
        }
        // Cannot throw: septets are 7-bit and there are no fill bits.
        return (try? GSM7.pack(septetValues, fillBits: 0)) ?? []
    }
}

extension _SMSParts: Hashable {
    static func == (lhs: Self, rhs: Self) -> Bool {
        // The same inputs build the same part; otherwise compare what they build.
        if case .single(let text, let encoding, let length) = lhs, case .single(text, encoding, length) = rhs {
            return true
        }
        return lhs.parts == rhs.parts
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(parts)
    }
}
