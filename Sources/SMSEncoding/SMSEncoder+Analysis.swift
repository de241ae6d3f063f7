extension SMSEncoder {
    /// Analyzes how `text` will be sent: encoding, tables, length, segments, parts with their user
    /// data headers, the characters that force UCS-2, text changes and fixes.
    ///
    /// ```swift
    /// let encoder = SMSEncoder(options: .init(smartEncoding: true))
    /// let analysis = encoder.analyze("“Hello” — it’s 10:00…", concatenationReference: 0x2A)
    /// analysis.encoding        // .gsm7 (the quotes, dash and ellipsis were replaced)
    /// analysis.text            // "\"Hello\" - it's 10:00..."
    /// analysis.changes.count   // 5
    /// analysis.parts[0].userDataHeader   // [] (one part, default tables: no header)
    /// ```
    ///
    /// - Parameters:
    ///   - text: The message text.
    ///   - concatenationReference: The concatenation reference number written into every part's
    ///     header when the message has several parts; only the low 8 bits are used with 8-bit
    ///     references. Gateways use a per-recipient counter.
    /// - Returns: The analysis; ``SMSAnalysis/segmentCount`` equals ``segmentCount(_:)``.
    /// - Complexity: O(*n*) in the length of `text`, plus one count per distinct unencodable
    ///   character for the suggestions.
    public func analyze(_ text: String, concatenationReference: UInt16 = 0) -> SMSAnalysis {
        // Early exit: every character in the default alphabet or its extension table (most
        // messages), where the septet count decides everything (`defaultAlphabetText`).
        if let analysis = analyzeDefaultAlphabet(text, concatenationReference: concatenationReference) {
            return analysis
        }
        // Every option, every text: one `_Item` per scalar.
        var items = collect(text, smart: options.smartEncoding)
        var unchanged = !items.contains { $0.change != .none }
        var decision = decide(items)
        if options.smartEncoding && decision.encoding == .ucs2 {
            items = collect(text, smart: false)
            unchanged = !items.contains { $0.change != .none }
            decision = decide(items)
        }
        let active = items.contains { $0.change == .removed } ? items.filter { $0.change != .removed } : items
        // Strings are copy-on-write: an unchanged text is shared, not copied.
        let output = unchanged ? text : _makeString(active) { $0.value }
        let headerless = decision.segments == 1
            && (decision.encoding == .ucs2 || (decision.locking == 0 && decision.shift == 0))
        // The part of a one-part message without a header is built when read (`_SMSParts.single`).
        let parts: _SMSParts = headerless
            ? .single(text: output, encoding: decision.encoding, length: decision.length)
            : .explicit(split(active, decision: decision, reference: concatenationReference, unchangedText: unchanged ? text : nil))

        var unencodable: [SMSUnencodableCharacter] = []
        if decision.encoding == .ucs2 {
            // Counted first: one allocation instead of one per doubling.
            var count = 0
            for item in active where !isEncodable(item.value) { count += 1 }
            unencodable.reserveCapacity(count)
            for item in active where !isEncodable(item.value) {
                let scalar = Unicode.Scalar(item.value)!
                unencodable.append(SMSUnencodableCharacter(
                    character: String(scalar), codePoint: item.value, utf16Offset: item.utf16Offset, scalarOffset: item.scalarOffset))
            }
        }
        let changes = self.changes(items, in: text)
        let suggestions = self.suggestions(text, items: active, decision: decision, unencodable: unencodable)
        var analysis = SMSAnalysis(
            text: output, encoding: decision.encoding, nationalLanguage: decision.nationalLanguage, length: decision.length,
            segmentCount: decision.segments, remainingInLastSegment: decision.remaining,
            exceedsConcatenationLimit: decision.segments > 255, parts: [], unencodableCharacters: unencodable,
            changes: changes, suggestions: suggestions)
        analysis._parts = parts
        return analysis
    }

    // MARK: - Internal

    func collect(_ text: String, smart: Bool) -> [_Item] {
        var items: [_Item] = []
        items.reserveCapacity(text.utf8.count)
        if options.splitsAtGraphemeClusterBoundaries {
            var pipeline = _Pipeline(source: _GraphemeSource(text), normalizes: options.normalizesToNFC, smart: smart)
            while let item = pipeline.next() { items.append(item) }
        } else {
            var pipeline = _Pipeline(source: _PlainSource(text), normalizes: options.normalizesToNFC, smart: smart)
            while let item = pipeline.next() { items.append(item) }
        }
        return items
    }

    /// Counts `items`, optionally rewriting scalars (`rewrite` returns -1 to keep a scalar, 0 to
    /// remove it, or 1 to 3 packed ASCII scalars).
    ///
    /// (The count's tight default-tables loop, `_Counter.decideDefaultTables`, is not used
    /// here: an analysis builds parts and changes, which dominate, so the loop would be a second
    /// path to keep equal for no gain. It serves `segmentCount`; see `measure`.)
    func decide(_ items: [_Item], rewrite: ((UInt32) -> (count: Int, bytes: UInt32))? = nil) -> _Decision {
        var counter = _Counter(index: index, lockingMask: lockingMask, shiftMask: shiftMask, reference: options.concatenationReference)
        var pendingStart = false
        for item in items where item.change != .removed {
            let startsUnit = item.startsUnit || pendingStart
            pendingStart = false
            if let rewrite {
                let (count, bytes) = rewrite(item.value)
                if count == 0 {
                    pendingStart = startsUnit
                    continue
                }
                if count > 0 {
                    var packed = bytes
                    for index in 0..<count {
                        counter.add(packed & 0xFF, startsUnit: index == 0 ? startsUnit : !options.splitsAtGraphemeClusterBoundaries)
                        packed >>= 8
                    }
                    continue
                }
            }
            counter.add(item.value, startsUnit: startsUnit)
        }
        return counter.decide()
    }

    func isEncodable(_ value: UInt32) -> Bool {
        let (locking, shift) = index.tableMasks(value)
        return locking & lockingMask != 0 || shift & shiftMask != 0
    }

    /// The parts of `items` (with `unchangedText`, the text they spell when no item changed).
    func split(_ items: [_Item], decision: _Decision, reference: UInt16, unchangedText: String? = nil) -> [SMSPart] {
        let gsm = decision.encoding == .gsm7
        let lockingBit = UInt16(1) << UInt16(decision.locking)
        let lockingReverse = index.lockingReverse[decision.locking]
        let shiftReverse = index.shiftReverse[decision.shift]
        func cost(_ value: UInt32) -> Int32 {
            if gsm {
                return index.tableMasks(value).locking & lockingBit != 0 ? 1 : 2
            }
            return value > 0xFFFF ? 2 : 1
        }
        var starts = [0]
        if decision.segments > 1 {
            var greedy = _Greedy(capacity: decision.partCapacity)
            var unitStart = 0
            for (index, item) in items.enumerated() {
                let itemCost = cost(item.value)
                if item.startsUnit {
                    if greedy.place() { starts.append(unitStart) }
                    unitStart = index
                }
                if greedy.unit + itemCost > greedy.capacity {
                    if greedy.place() { starts.append(unitStart) }
                    unitStart = index
                }
                greedy.unit += itemCost
            }
            if greedy.place() { starts.append(unitStart) }
        }
        let total = starts.count
        var parts: [SMSPart] = []
        parts.reserveCapacity(total)
        for (number, start) in starts.enumerated() {
            let end = number + 1 < total ? starts[number + 1] : items.count
            let slice = items[start..<end]
            var header: [UInt8] = []
            if total > 1 {
                if options.concatenationReference == .eightBit {
                    header += [0x00, 0x03, UInt8(truncatingIfNeeded: reference)]
                } else {
                    header += [0x08, 0x04, UInt8(truncatingIfNeeded: reference >> 8), UInt8(truncatingIfNeeded: reference)]
                }
                header += [UInt8(clamping: total), UInt8(truncatingIfNeeded: number + 1)]
            }
            if gsm && decision.shift != 0 { header += [0x24, 0x01, UInt8(decision.shift)] }
            if gsm && decision.locking != 0 { header += [0x25, 0x01, UInt8(decision.locking)] }
            if !header.isEmpty { header.insert(UInt8(header.count), at: 0) }
            // A single part of an unchanged text is the text itself.
            let text = total == 1 && unchangedText != nil ? unchangedText! : _makeString(slice) { $0.value }
            if gsm {
                var septets: [UInt8] = []
                septets.reserveCapacity(slice.count * 2)
                for item in slice {
                    // The decision guarantees that the pair encodes every item.
                    if let septet = _GSMCharacterIndex.septet(item.value, in: lockingReverse) {
                        septets.append(septet)
                    } else if let septet = _GSMCharacterIndex.septet(item.value, in: shiftReverse) {
                        septets.append(GSM7.escape)
                        septets.append(septet)
                    }
                }
                let fill = header.isEmpty ? 0 : (7 - (header.count * 8) % 7) % 7
                let headerSeptets = (header.count * 8 + fill) / 7
                // Cannot throw: septets are 7-bit and fill is 0...6.
                let packed = (try? GSM7.pack(septets, fillBits: fill)) ?? []
                parts.append(SMSPart(
                    text: text, userDataHeader: header, length: septets.count, fillBits: fill,
                    userDataLength: headerSeptets + septets.count, userData: header + packed))
            } else {
                var data = header
                var units = 0
                for item in slice { units += item.value > 0xFFFF ? 2 : 1 }
                data.reserveCapacity(header.count + 2 * units)
                for item in slice {
                    if item.value > 0xFFFF {
                        let high = 0xD800 + ((item.value - 0x1_0000) >> 10)
                        let low = 0xDC00 + (item.value & 0x3FF)
                        data.append(UInt8(high >> 8))
                        data.append(UInt8(high & 0xFF))
                        data.append(UInt8(low >> 8))
                        data.append(UInt8(low & 0xFF))
                    } else {
                        data.append(UInt8(item.value >> 8))
                        data.append(UInt8(item.value & 0xFF))
                    }
                }
                parts.append(SMSPart(
                    text: text, userDataHeader: header, length: units, fillBits: 0,
                    userDataLength: data.count, userData: data))
            }
        }
        return parts
    }

    func changes(_ items: [_Item], in text: String) -> [SMSTextChange] {
        var changes: [SMSTextChange] = []
        let utf16 = text.utf16
        for item in items where item.change != .none {
            let start = utf16.index(utf16.startIndex, offsetBy: item.utf16Offset)
            let end = utf16.index(start, offsetBy: item.utf16Length)
            let original = String(text[start..<end])
            switch item.change {
            case .normalization:
                changes.append(SMSTextChange(
                    kind: .normalization, original: original,
                    replacement: String(Unicode.Scalar(item.value)!), utf16Offset: item.utf16Offset))
            case .smartEncoding, .removed:
                var replacement = ""
                if let first = original.unicodeScalars.first {
                    // NFC may have mapped the source before smart encoding; use the scalar that was replaced.
                    var (count, bytes) = _smartReplacement(first.value)
                    if count < 0, let mapped = _nfcSingleton(first.value) { (count, bytes) = _smartReplacement(mapped) }
                    var packed = bytes
                    for _ in 0..<max(0, count) {
                        replacement.unicodeScalars.append(Unicode.Scalar(UInt8(packed & 0xFF)))
                        packed >>= 8
                    }
                }
                changes.append(SMSTextChange(
                    kind: .smartEncoding, original: original, replacement: replacement, utf16Offset: item.utf16Offset))
            case .none:
                break
            }
        }
        return changes
    }

    /// Per-character suggestions are made for at most this many distinct characters, in text order.
    static let maximumCharacterSuggestions = 10

    func suggestions(_ text: String, items: [_Item], decision: _Decision, unencodable: [SMSUnencodableCharacter]) -> [SMSSuggestion] {
        // One GSM 7-bit segment cannot get cheaper.
        guard decision.segments > 1 || decision.encoding == .ucs2 else { return [] }
        var suggestions: [SMSSuggestion] = []
        func add(_ fix: SMSSuggestion.Fix, occurrences: Int, _ after: _Decision) {
            suggestions.append(SMSSuggestion(
                fix: fix, occurrences: occurrences, encoding: after.encoding, segmentCount: after.segments,
                segmentsSaved: decision.segments - after.segments))
        }
        if !unencodable.isEmpty {
            // The first distinct characters in text order, with their counts; only these get
            // per-character suggestions, so the others need not be counted (no dictionary).
            var order: [UInt32] = []
            var counts: [Int] = []
            order.reserveCapacity(Self.maximumCharacterSuggestions)
            counts.reserveCapacity(Self.maximumCharacterSuggestions)
            for character in unencodable {
                if let position = order.firstIndex(of: character.codePoint) {
                    counts[position] += 1
                } else if order.count < Self.maximumCharacterSuggestions {
                    order.append(character.codePoint)
                    counts.append(1)
                }
            }
            // One per character, removing all, and the three option fixes.
            suggestions.reserveCapacity(order.count + 4)
            // Per-character fixes help when a few characters force UCS-2; for text in a script
            // without a GSM table (every character unencodable) they are noise, and each costs a count.
            for (position, value) in order.enumerated() {
                let replacement = _smartReplacement(value)
                // With other unencodable characters left, a one-segment message stays one UCS-2 segment.
                let after = decision.segments == 1 && order.count > 1
                    ? decision
                    : decide(items) { $0 == value ? (replacement.count > 0 ? replacement : (0, 0)) : (-1, 0) }
                let character = String(Unicode.Scalar(value)!)
                if replacement.count > 0 {
                    var with = ""
                    var packed = replacement.bytes
                    for _ in 0..<replacement.count {
                        with.unicodeScalars.append(Unicode.Scalar(UInt8(packed & 0xFF)))
                        packed >>= 8
                    }
                    add(.replaceCharacter(character, with: with), occurrences: counts[position], after)
                } else {
                    add(.removeCharacter(character), occurrences: counts[position], after)
                }
            }
            if order.count > 1 {
                let after = decide(items) { isEncodable($0) ? (-1, 0) : (0, 0) }
                add(.removeUnencodableCharacters, occurrences: unencodable.count, after)
            }
        }
        func consider(_ fix: SMSSuggestion.Fix, _ change: (inout Options) -> Void) {
            var changed = options
            change(&changed)
            let after = SMSEncoder(options: changed).decision(text)
            if after.segments != decision.segments || after.encoding != decision.encoding {
                add(fix, occurrences: 0, after)
            }
        }
        // Only try the options that could change something in this text.
        if !options.smartEncoding && items.contains(where: { _smartReplacement($0.value).count >= 0 }) {
            consider(.enableSmartEncoding) { $0.smartEncoding = true }
        }
        if !options.normalizesToNFC
            && (zip(items, items.dropFirst()).contains { _nfcCompose($0.value, $1.value) != nil }
                || items.contains { _nfcSingleton($0.value) != nil }) {
            consider(.enableNormalization) { $0.normalizesToNFC = true }
        }
        // With a character that no table has, all the tables give UCS-2 with the same units, the
        // decision already made (smart encoding, which the count could undo, excluded): no count.
        if options.nationalLanguageTables != .all
            && (options.smartEncoding || !items.contains { index.tableMasks($0.value) == (0, 0) }) {
            consider(.enableNationalLanguageTables) { $0.nationalLanguageTables = .all }
        }
        // Stable sort: most segments saved first. Often they already are (a one-segment message:
        // every fix saves 0), and a stable sort would leave them as they are.
        if zip(suggestions, suggestions.dropFirst()).allSatisfy({ $0.segmentsSaved >= $1.segmentsSaved }) {
            return suggestions
        }
        return suggestions.enumerated()
            .sorted { $0.element.segmentsSaved != $1.element.segmentsSaved ? $0.element.segmentsSaved > $1.element.segmentsSaved : $0.offset < $1.offset }
            .map(\.element)
    }
}
