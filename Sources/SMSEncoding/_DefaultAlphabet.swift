extension SMSEncoder {
    /// What the early exit of ``analyze(_:concatenationReference:)`` and ``segmentCount(_:)`` found
    /// in a text whose every character is in the default alphabet or its extension table.
    enum _DefaultAlphabetText {
        /// One part of `septets` septets.
        case onePart(septets: Int)
        /// Several parts, one septet per character (no escape); `ascii` when every character is
        /// one-septet ASCII, one byte each.
        case multipart(characters: Int, ascii: Bool)
        /// Several parts with escaped characters, for an encoder without national tables:
        /// `septets` in `segments` parts (escape pairs kept whole), `remaining` free in the last.
        /// The count's answer; the analysis builds such parts on its general path.
        case multipartEscaped(septets: Int, segments: Int, remaining: Int)
    }

    /// The early exit shared by the analysis and the count: `text`'s UTF-8 `bytes` when every
    /// character is in the default alphabet or its extension table (accented Latin letters, Greek
    /// capitals, `[ \ ] ^ { | } ~ €`) and the result follows from the septet count; `nil` otherwise,
    /// and the caller runs the whole analysis.
    ///
    /// For such a text:
    /// - smart encoding and NFC normalization change nothing: no default-table character has a
    ///   smart replacement, an NFC singleton mapping, or composes as a mark (the tests check the
    ///   tables);
    /// - with one-septet characters only, the default tables are chosen whatever national tables
    ///   are enabled (any national table costs the same septets plus a header element); with an
    ///   escaped character a national locking table could do better, so only an encoder without
    ///   national tables exits early then;
    /// - every character is its own split unit (none is a grapheme extender; CR LF is the only
    ///   multi-character cluster: multipart texts with a CR in grapheme-cluster mode take the whole
    ///   analysis), and escape pairs are not split: the scan places them greedily, so that the
    ///   count of a multipart text with an escape is known too (`multipartEscaped`); the analysis
    ///   takes its general path for such a text, to build the parts;
    /// - there is nothing to suggest: a one-part GSM message cannot get cheaper, and without
    ///   escapes no option saves a segment.
    ///
    /// Static, its options passed in: the callers read them before borrowing the text's bytes,
    /// so that the closure captures plain values rather than the encoder.
    @inline(__always)
    static func defaultAlphabetText(
        _ bytes: UnsafeBufferPointer<UInt8>, index: _GSMCharacterIndex, defaultTablesOnly: Bool, grapheme: Bool,
        reference: SMSEncoder.Options.ConcatenationReference
    ) -> _DefaultAlphabetText? {
        // One vectorized pass for one-septet ASCII (letters, digits, common punctuation), the
        // usual message: no table lookup per byte.
        // (A long text's first 16 bytes first: other text leaves there rather than after all of it.)
        if bytes.count <= 160 || _SeptetPacking.isSingleSeptetText(UnsafeBufferPointer(rebasing: bytes.prefix(16))),
           _SeptetPacking.isSingleSeptetText(bytes) {
            if bytes.count <= 160 { return .onePart(septets: bytes.count) }
            return grapheme && bytes.contains(0x0D) ? nil : .multipart(characters: bytes.count, ascii: true)
        }
        let capacity = reference == .eightBit ? 153 : 152
        guard let scan = defaultTableScan(bytes, index: index, capacity: capacity) else { return nil }
        if scan.escaped && !defaultTablesOnly { return nil }
        if scan.septets <= 160 { return .onePart(septets: scan.septets) }
        if grapheme && bytes.contains(0x0D) { return nil }
        if scan.escaped {
            return .multipartEscaped(septets: scan.septets, segments: scan.parts, remaining: capacity - scan.used)
        }
        return .multipart(characters: scan.characters, ascii: false)
    }

    /// The analysis of a text that `defaultAlphabetText` accepts, or `nil`.
    ///
    /// A one-part analysis is one scan and no allocation: its part is built when read
    /// (`_SMSParts.single`). A multipart text's parts are packed straight from the septets.
    func analyzeDefaultAlphabet(_ text: String, concatenationReference reference: UInt16) -> SMSAnalysis? {
        let index = self.index
        let defaultTablesOnly = lockingMask == 1 && shiftMask == 1
        let grapheme = options.splitsAtGraphemeClusterBoundaries
        let concatenation = options.concatenationReference
        let result: SMSAnalysis?? = text.utf8.withContiguousStorageIfAvailable { bytes -> SMSAnalysis? in
            switch Self.defaultAlphabetText(bytes, index: index, defaultTablesOnly: defaultTablesOnly, grapheme: grapheme, reference: concatenation) {
            case nil, .multipartEscaped:
                return nil
            case .onePart(let septets):
                return SMSAnalysis(singlePart: text, encoding: .gsm7, length: septets, remainingInLastSegment: 160 - septets)
            case .multipart(_, ascii: true):
                // Every byte is its septet through the single-septet map (itself for most letters).
                return index.singleSeptetValues.withUnsafeBufferPointer { map in
                    multipart(
                        text, septets: bytes, map: map, identity: _SeptetPacking.isIdentityText(bytes),
                        reference: reference,
                        partText: { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) })
                }
            case .multipart(let characters, ascii: false):
                // One or two bytes a character: the septets and where each character starts.
                return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: characters) { values in
                    withUnsafeTemporaryAllocation(of: Int.self, capacity: characters + 1) { starts in
                        index.defaultSeptets.withUnsafeBufferPointer { map in
                            var position = 0
                            for character in 0..<characters {
                                starts[character] = position
                                let lead = bytes[position]
                                if lead < 0x80 {
                                    values[character] = map[Int(lead)]
                                    position &+= 1
                                } else {
                                    values[character] = map[Int(lead & 0x1F) &<< 6 | Int(bytes[position &+ 1] & 0x3F)]
                                    position &+= 2
                                }
                            }
                            starts[characters] = position
                            return index.identitySeptets.withUnsafeBufferPointer { identity in
                                multipart(
                                    text, septets: UnsafeBufferPointer(values), map: identity, identity: true,
                                    reference: reference,
                                    partText: { range in
                                        String(decoding: UnsafeBufferPointer(rebasing: bytes[starts[range.lowerBound]..<starts[range.upperBound]]), as: UTF8.self)
                                    })
                            }
                        }
                    }
                }
            }
        }
        return result ?? nil
    }

    /// The default-tables count of `bytes` (valid UTF-8): septets (escapes included), characters,
    /// whether one is escaped, and the parts of `capacity` septets that greedy placement fills
    /// (a character, escape pair included, is never split) with the septets used in the last;
    /// `nil` when a character is not in the default alphabet or its extension table.
    @inline(__always)
    static func defaultTableScan(
        _ bytes: UnsafeBufferPointer<UInt8>, index: _GSMCharacterIndex, capacity: Int
    ) -> (septets: Int, characters: Int, escaped: Bool, parts: Int, used: Int)? {
        index.defaultCosts.withUnsafeBufferPointer { costs -> (septets: Int, characters: Int, escaped: Bool, parts: Int, used: Int)? in
            let count = bytes.count
            var position = 0
            var septets = 0
            var escaped = false
            var characters = 0
            var parts = 1
            var used = 0
            // Native strings are valid UTF-8: a lead byte below 0xE0 starts one or two bytes.
            while position < count {
                let lead = bytes[position]
                let cost: UInt8
                if lead < 0x80 {
                    cost = costs[Int(lead)]
                    position &+= 1
                } else if lead < 0xE0 {
                    cost = costs[Int(lead & 0x1F) &<< 6 | Int(bytes[position &+ 1] & 0x3F)]
                    position &+= 2
                } else if lead == 0xE2 && bytes[position &+ 1] == 0x82 && bytes[position &+ 2] == 0xAC {
                    cost = 2  // €
                    position &+= 3
                } else {
                    return nil
                }
                guard cost != 0 else { return nil }
                septets &+= Int(cost)
                escaped = escaped || cost == 2
                characters &+= 1
                if used &+ Int(cost) > capacity {
                    parts &+= 1
                    used = Int(cost)
                } else {
                    used &+= Int(cost)
                }
            }
            return (septets, characters, escaped, parts, used)
        }
    }

    /// The analysis of a text of more than 160 characters that are each one septet in the default
    /// alphabet, with `septets` its characters (mapped to septets through `map`), `partText` the
    /// text of a range of them; `nil` when some character has no single septet.
    ///
    /// Every character is its own split unit, so part *n* holds characters `n * capacity` up to
    /// the next part's.
    func multipart(
        _ text: String, septets: UnsafeBufferPointer<UInt8>, map: UnsafeBufferPointer<UInt8>, identity: Bool,
        reference: UInt16, partText: (Range<Int>) -> String
    ) -> SMSAnalysis? {
        let count = septets.count
        let eightBit = options.concatenationReference == .eightBit
        let headerOctets = _Capacity.headerOctets(
            concatenated: true, nationalElements: 0, reference: options.concatenationReference)
        let capacity = Int(_Capacity.septets(headerOctets: headerOctets))
        let total = (count + capacity - 1) / capacity
        let fill = (7 - (headerOctets * 8) % 7) % 7
        let headerSeptets = (headerOctets * 8 + fill) / 7
        var parts: [SMSPart] = []
        parts.reserveCapacity(total)
        for number in 0..<total {
            let start = number * capacity
            let range = start..<min(start + capacity, count)
            let slice = UnsafeBufferPointer(rebasing: septets[range])
            var header: [UInt8]
            if eightBit {
                header = [UInt8(headerOctets - 1), 0x00, 0x03, UInt8(truncatingIfNeeded: reference)]
            } else {
                header = [
                    UInt8(headerOctets - 1), 0x08, 0x04, UInt8(truncatingIfNeeded: reference >> 8),
                    UInt8(truncatingIfNeeded: reference),
                ]
            }
            header.append(UInt8(clamping: total))
            header.append(UInt8(truncatingIfNeeded: number + 1))
            let octets = headerOctets + _SeptetPacking.octetCount(septets: slice.count, fillBits: fill)
            guard let userData = _SeptetPacking.makeOctets(count: octets, { buffer in
                for (offset, octet) in header.enumerated() { buffer[offset] = octet }
                return _SeptetPacking.packMapped(
                    slice, map: map, fillBits: fill, identity: identity,
                    into: UnsafeMutableBufferPointer(rebasing: buffer[headerOctets...]))
            }) else { return nil }
            parts.append(SMSPart(
                text: partText(range), userDataHeader: header, length: slice.count,
                fillBits: fill, userDataLength: headerSeptets + slice.count, userData: userData))
        }
        return SMSAnalysis(
            text: text, encoding: .gsm7, nationalLanguage: nil, length: count, segmentCount: total,
            remainingInLastSegment: total * capacity - count, exceedsConcatenationLimit: total > 255,
            parts: parts, unencodableCharacters: [], changes: [], suggestions: [])
    }
}
