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
        // The analysis's early exit (`defaultAlphabetText`): the count follows from the septets.
        let capacity = options.concatenationReference == .eightBit ? 153 : 152
        let index = self.index
        let defaultTablesOnly = lockingMask == 1 && shiftMask == 1
        let grapheme = options.splitsAtGraphemeClusterBoundaries
        let early = text.utf8.withContiguousStorageIfAvailable { bytes -> Int in
            switch Self.defaultAlphabetText(bytes, index: index, defaultTablesOnly: defaultTablesOnly, grapheme: grapheme) {
            case nil: return 0
            case .onePart: return 1
            case .multipart(let characters, _): return (characters + capacity - 1) / capacity
            }
        }
        if let count = early, count > 0 { return count }
        return measure(text).segments
    }

    /// The encoding decision for `text` with this encoder's options.
    func measure(_ text: String) -> _Decision {
        if !options.splitsAtGraphemeClusterBoundaries && !options.normalizesToNFC && !options.smartEncoding {
            // No text changes and scalar splitting: count the scalars directly; with the default
            // tables only, in one tight loop over the UTF-8 (2.6 times fewer instructions than the
            // general counter on 70 or 200 Chinese characters, 3.2 times on Latin text with a
            // character outside the default alphabet: Benchmarks/encoder-instructions.sh).
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
