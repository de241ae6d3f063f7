extension SMSEncoder {
    /// The number of SMS segments needed to send `text`.
    ///
    /// Gives the same count as ``analyze(_:concatenationReference:)``, without building the parts,
    /// and without heap allocation for native strings (the smart encoding, normalization and
    /// national table options included).
    ///
    /// ```swift
    /// let encoder = SMSEncoder()
    /// encoder.segmentCount(String(repeating: "a", count: 160))   // 1
    /// encoder.segmentCount(String(repeating: "]", count: 153))   // 3: escape pairs are not split
    /// encoder.segmentCount(String(repeating: "中", count: 71))    // 2
    /// ```
    ///
    /// - Parameter text: The message text.
    /// - Returns: The segment count; 1 for an empty text (an empty SMS).
    /// - Complexity: O(*n*) in the length of `text`, times the number of enabled locking-shift
    ///   tables when national language tables are enabled.
    public func segmentCount(_ text: String) -> Int {
        if let count = asciiSegmentCount(text) { return count }
        return measure(text).segments
    }

    /// The fast path: printable GSM ASCII without escapes. `nil` when it does not apply.
    @inline(__always)
    func asciiSegmentCount(_ text: String) -> Int? {
        let grapheme = options.splitsAtGraphemeClusterBoundaries
        let reference = options.concatenationReference
        return index.singleSeptetBytes.withUnsafeBufferPointer { flags -> Int? in
            text.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
                var uniform: UInt8 = 1
                for byte in bytes { uniform &= flags[Int(byte)] }
                // With only 1-septet characters, the default tables are optimal: any national
                // table costs at least as many septets plus a header element.
                guard uniform == 1 else { return nil }
                let count = bytes.count
                if count <= 160 { return 1 }
                if grapheme { return nil }  // CRLF is one grapheme cluster
                let capacity = reference == .eightBit ? 153 : 152
                return (count + capacity - 1) / capacity
            } ?? nil
        }
    }

    /// The encoding decision for `text` with this encoder's options.
    func measure(_ text: String) -> _Decision {
        if !options.splitsAtGraphemeClusterBoundaries && !options.normalizesToNFC && !options.smartEncoding {
            // No text changes and scalar splitting: count the scalars directly.
            if lockingMask == 1 && shiftMask == 1 {
                return _Counter.decideDefaultTables(text, index: index, reference: options.concatenationReference)
            }
            var counter = _Counter(index: index, lockingMask: lockingMask, shiftMask: shiftMask, reference: options.concatenationReference)
            for scalar in text.unicodeScalars { counter.add(scalar.value, startsUnit: true) }
            return counter.decide()
        }
        if options.splitsAtGraphemeClusterBoundaries {
            return measure(source: _GraphemeSource(text))
        }
        return measure(source: _PlainSource(text))
    }

    func measure<Source: _ScalarSource>(source: Source) -> _Decision {
        var decision = count(source: source, smart: options.smartEncoding)
        if options.smartEncoding && decision.encoding == .ucs2 {
            // Smart encoding only applies when it makes the message GSM 7-bit.
            decision = count(source: source, smart: false)
        }
        return decision
    }

    func count<Source: _ScalarSource>(source: Source, smart: Bool) -> _Decision {
        var pipeline = _Pipeline(source: source, normalizes: options.normalizesToNFC, smart: smart)
        var counter = _Counter(index: index, lockingMask: lockingMask, shiftMask: shiftMask, reference: options.concatenationReference)
        while let item = pipeline.next() {
            if item.change == .removed { continue }
            counter.add(item.value, startsUnit: item.startsUnit)
        }
        return counter.decide()
    }
}
