extension SMSEncoder {
    /// The analysis of a text whose every character is in the default alphabet or its extension
    /// table (accented Latin letters, Greek capitals, `[ \ ] ^ { | } ~ €`), made in one pass over the
    /// UTF-8 bytes; `nil` when the text is anything else or when this path cannot be sure of the
    /// general path's result, so that the caller takes the general path.
    ///
    /// Taken when ``_analyzeSingleSeptetASCII(_:concatenationReference:)`` is not. For such a text:
    /// - smart encoding and NFC normalization change nothing: no default-table character has a
    ///   smart replacement, an NFC singleton mapping, or composes as a mark (the tests check the
    ///   tables);
    /// - with one-septet characters only, the default tables are chosen whatever national tables
    ///   are enabled (any national table costs the same septets plus a header element); with an
    ///   escaped character a national locking table could do better, so only an encoder without
    ///   national tables takes this path then;
    /// - every character is its own split unit (none is a grapheme extender; CR LF is the only
    ///   multi-character cluster: multipart texts with a CR in grapheme-cluster mode are left to the
    ///   general path);
    /// - a one-part message has nothing to suggest. A multipart one with an escaped character could
    ///   get a national-tables suggestion, so it is left to the general path; without escapes, no
    ///   option saves a segment.
    func _analyzeDefaultTables(_ text: String, concatenationReference reference: UInt16) -> SMSAnalysis? {
        let defaultTablesOnly = lockingMask == 1 && shiftMask == 1
        let grapheme = options.splitsAtGraphemeClusterBoundaries
        let index = self.index
        let result: SMSAnalysis?? = text.utf8.withContiguousStorageIfAvailable { bytes -> SMSAnalysis? in
            guard let (septets, characters, escaped) = _defaultTableScan(bytes, index: index) else { return nil }
            if escaped && !defaultTablesOnly { return nil }
            if septets <= 160 {
                return SMSAnalysis(singlePart: text, encoding: .gsm7, length: septets, remainingInLastSegment: 160 - septets)
            }
            if escaped || (grapheme && bytes.contains(0x0D)) { return nil }
            // Multipart, one septet per character: the septets and where each character starts.
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
                            _singleSeptetMultipart(
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
        return result ?? nil
    }

    /// The default-tables count of `bytes` (valid UTF-8): septets (escapes included), characters and
    /// whether one is escaped; `nil` when a character is not in the default alphabet or its
    /// extension table.
    @inline(__always)
    func _defaultTableScan(_ bytes: UnsafeBufferPointer<UInt8>, index: _GSMCharacterIndex) -> (septets: Int, characters: Int, escaped: Bool)? {
        index.defaultCosts.withUnsafeBufferPointer { costs -> (septets: Int, characters: Int, escaped: Bool)? in
            let count = bytes.count
            var position = 0
            var septets = 0
            var escaped = false
            var characters = 0
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
            }
            return (septets, characters, escaped)
        }
    }
}
