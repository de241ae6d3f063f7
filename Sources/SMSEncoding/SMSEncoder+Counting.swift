extension SMSEncoder {
    /// The number of SMS segments needed to send `text`.
    ///
    /// Gives the same count as ``analyze(_:concatenationReference:)`` and ``measure(_:)`` (the
    /// count behind both), without building the parts, and without heap allocation for native
    /// strings (the smart encoding, normalization and national table options included).
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
        decision(text).segments
    }

    /// Measures what `text` costs as SMS: its encoding, length and segments, and the characters
    /// that forced UCS-2, without building the parts, text changes and suggestions of
    /// ``analyze(_:concatenationReference:)``.
    ///
    /// Every field equals the analysis's field of the same name, whatever the options. Use it to
    /// price many messages; use ``analyze(_:concatenationReference:)`` to send one.
    ///
    /// ```swift
    /// let encoder = SMSEncoder()
    /// let measurement = encoder.measure("Votre code : 123456 – valable 5 min")
    /// measurement.encoding                // .ucs2 (the en dash is not in GSM 7-bit)
    /// measurement.length                  // 35
    /// measurement.unencodableCharacters   // ["–"]
    ///
    /// let smart = SMSEncoder(options: .init(smartEncoding: true))
    /// smart.measure("Votre code : 123456 – valable 5 min").encoding   // .gsm7 ("–" becomes "-")
    /// ```
    ///
    /// - Parameter text: The message text.
    /// - Returns: The measurement; it allocates only for the characters that forced UCS-2.
    /// - Complexity: O(*n*) in the length of `text`, times the number of enabled locking-shift
    ///   tables when national language tables are enabled; a UCS-2 message is read a second time
    ///   for its unencodable characters.
    public func measure(_ text: String) -> SMSMeasurement {
        let decision = self.decision(text)
        return SMSMeasurement(
            encoding: decision.encoding, nationalLanguage: decision.nationalLanguage, length: decision.length,
            segmentCount: decision.segments, remainingInLastSegment: decision.remaining,
            unencodableCharacters: decision.encoding == .ucs2 ? unencodableCharacters(text) : [])
    }

    /// The encoding decision for `text` with this encoder's options: the one count behind
    /// ``segmentCount(_:)``, ``measure(_:)`` and the suggestions' counts.
    func decision(_ text: String) -> _Decision {
        // The analysis's early exit (`defaultAlphabetText`): the result follows from the septets.
        let capacity = options.concatenationReference == .eightBit ? 153 : 152
        let index = self.index
        let defaultTablesOnly = lockingMask == 1 && shiftMask == 1
        let grapheme = options.splitsAtGraphemeClusterBoundaries
        let reference = options.concatenationReference
        let early = text.utf8.withContiguousStorageIfAvailable { bytes -> _Decision? in
            switch Self.defaultAlphabetText(bytes, index: index, defaultTablesOnly: defaultTablesOnly, grapheme: grapheme, reference: reference) {
            case nil:
                return nil
            case .onePart(let septets):
                return _Decision(
                    encoding: .gsm7, locking: 0, shift: 0, length: septets, segments: 1, remaining: 160 - septets,
                    partCapacity: Int32(capacity))
            case .multipart(let characters, _):
                let segments = (characters + capacity - 1) / capacity
                return _Decision(
                    encoding: .gsm7, locking: 0, shift: 0, length: characters, segments: segments,
                    remaining: segments * capacity - characters, partCapacity: Int32(capacity))
            case .multipartEscaped(let septets, let segments, let remaining):
                return _Decision(
                    encoding: .gsm7, locking: 0, shift: 0, length: septets, segments: segments, remaining: remaining,
                    partCapacity: Int32(capacity))
            }
        }
        if let early = early ?? nil { return early }
        if !options.splitsAtGraphemeClusterBoundaries && !options.normalizesToNFC && !options.smartEncoding {
            // No text changes and scalar splitting: count the scalars directly; with the default
            // tables only, in one tight loop over the UTF-8, which needs none of the general
            // counter's per-scalar table lookups (Benchmarks/encoder-instructions.sh measures it).
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

    /// The distinct characters of a UCS-2 `text` that no enabled table encodes, in the order of
    /// their first occurrence: the analysis's ``SMSAnalysis/unencodableCharacters``, each once.
    ///
    /// Like the analysis, it reads the text after NFC normalization (when enabled) and without
    /// smart encoding, whose replacements are kept only when they make the message GSM 7-bit.
    func unencodableCharacters(_ text: String) -> [Unicode.Scalar] {
        var distinct = _DistinctScalars()
        if !options.normalizesToNFC {
            // Without normalization or smart encoding the pipeline's scalars are the text's.
            for scalar in text.unicodeScalars where !isEncodable(scalar.value) { distinct.insert(scalar) }
        } else if options.splitsAtGraphemeClusterBoundaries {
            var pipeline = _Pipeline(source: _GraphemeSource(text), normalizes: true, smart: false)
            while let item = pipeline.next() {
                if !isEncodable(item.value) { distinct.insert(item.value) }
            }
        } else {
            var pipeline = _Pipeline(source: _PlainSource(text), normalizes: true, smart: false)
            while let item = pipeline.next() {
                if !isEncodable(item.value) { distinct.insert(item.value) }
            }
        }
        return distinct.scalars
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

/// Distinct scalars in the order of their first insertion. While there are few, a 256-bit
/// filter answers most "new?" questions and the array is searched only on a hit; from 64 on, a
/// set beside the array (text in a script without a GSM table has as many as it has distinct
/// letters, and a UCS-2 message of one segment already has 20 to 40).
struct _DistinctScalars {
    var scalars: [Unicode.Scalar] = []
    var filter = InlineArray<4, UInt64>(repeating: 0)
    var seen: Set<UInt32>?

    mutating func insert(_ value: UInt32) {
        if seen != nil {
            if seen!.insert(value).inserted { scalars.append(Unicode.Scalar(value)!) }
            return
        }
        let hash = Int(truncatingIfNeeded: (value &* 0x9E37_79B1) >> 24)
        let bit = UInt64(1) << UInt64(hash & 63)
        if filter[hash >> 6] & bit != 0 && scalars.contains(where: { $0.value == value }) { return }
        filter[hash >> 6] |= bit
        scalars.append(Unicode.Scalar(value)!)
        if scalars.count == 64 { seen = Set(scalars.map(\.value)) }
    }

    mutating func insert(_ scalar: Unicode.Scalar) { insert(scalar.value) }
}

extension _Decision {
    /// The national language tables of a GSM 7-bit decision, or `nil` for the default tables and UCS-2.
    var nationalLanguage: SMSNationalLanguageTables? {
        guard encoding == .gsm7 && (locking != 0 || shift != 0) else { return nil }
        return SMSNationalLanguageTables(
            lockingShift: NationalLanguage(rawValue: UInt8(locking)), singleShift: NationalLanguage(rawValue: UInt8(shift)))
    }
}
