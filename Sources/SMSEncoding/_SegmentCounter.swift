/// Greedy filling of parts: units (escape pairs, surrogate pairs, or grapheme clusters) are never
/// split, except a unit larger than a whole part, which is split between its scalars.
struct _Greedy {
    var capacity: Int32
    var parts: Int32 = 1
    var used: Int32 = 0
    var unit: Int32 = 0

    init(capacity: Int32) { self.capacity = capacity }

    /// Adds a scalar of `cost`; `startsUnit` ends the previous unit first.
    /// Returns true when a placed unit opened a new part.
    @inline(__always) @discardableResult
    mutating func feed(_ cost: Int32, startsUnit: Bool) -> Bool {
        var opened = false
        if startsUnit { opened = place() }
        if unit &+ cost > capacity { opened = place() || opened }
        unit &+= cost
        return opened
    }

    /// Places the pending unit; returns true when it opened a new part.
    @inline(__always) @discardableResult
    mutating func place() -> Bool {
        guard unit > 0 else { return false }
        defer { unit = 0 }
        if used &+ unit > capacity {
            parts &+= 1
            used = unit
            return true
        }
        used &+= unit
        return false
    }
}

/// User data header sizes and the capacities they leave (3GPP TS 23.040, TS 23.038).
enum _Capacity {
    /// Octets of the concatenation information element (IEI, length, data).
    static func concatenationOctets(_ reference: SMSEncoder.Options.ConcatenationReference) -> Int {
        reference == .eightBit ? 5 : 6
    }
    /// UDH octets including the UDHL octet, or 0 without a header.
    static func headerOctets(concatenated: Bool, nationalElements: Int, reference: SMSEncoder.Options.ConcatenationReference) -> Int {
        let elements = (concatenated ? concatenationOctets(reference) : 0) + 3 * nationalElements
        return elements == 0 ? 0 : elements + 1
    }
    /// Septets per part: 160 minus the header rounded up to whole septets.
    static func septets(headerOctets: Int) -> Int32 {
        Int32(160 - (8 * headerOctets + 6) / 7)
    }
    /// UCS-2 units per part.
    static func units(headerOctets: Int) -> Int32 {
        Int32((140 - headerOctets) / 2)
    }
}

/// The encoding decision for a message.
struct _Decision {
    var encoding: SMSCharacterEncoding
    /// Locking / single-shift NLI (0 = default); meaningful for GSM 7-bit.
    var locking: Int
    var shift: Int
    /// Septets or UTF-16 units.
    var length: Int
    var segments: Int
    var remaining: Int
    /// Per-part capacity used for splitting a multipart message.
    var partCapacity: Int32
}

/// Counts septets per enabled table pair and UCS-2 units in one pass, without heap allocation.
struct _Counter {
    /// The lookup data, held here so that the per-scalar path does not re-check the global's initialization.
    let index: _GSMCharacterIndex
    let lockingMask: UInt16
    let shiftMask: UInt16
    let nationalShift: Bool
    let reference: SMSEncoder.Options.ConcatenationReference
    var live: UInt16
    var septets = InlineArray<14, Int32>(repeating: 0)
    var validShift: InlineArray<14, UInt16>
    var defaultShiftParts: InlineArray<14, _Greedy>
    var nationalShiftParts: InlineArray<14, _Greedy>
    var units: Int32 = 0
    var ucs2: _Greedy

    init(index: _GSMCharacterIndex, lockingMask: UInt16, shiftMask: UInt16, reference: SMSEncoder.Options.ConcatenationReference) {
        self.index = index
        self.lockingMask = lockingMask
        self.shiftMask = shiftMask
        self.nationalShift = shiftMask & ~1 != 0
        self.reference = reference
        self.live = lockingMask
        self.validShift = InlineArray(repeating: shiftMask)
        let none = _Capacity.septets(headerOctets: _Capacity.headerOctets(concatenated: true, nationalElements: 0, reference: reference))
        let one = _Capacity.septets(headerOctets: _Capacity.headerOctets(concatenated: true, nationalElements: 1, reference: reference))
        let two = _Capacity.septets(headerOctets: _Capacity.headerOctets(concatenated: true, nationalElements: 2, reference: reference))
        var a = InlineArray<14, _Greedy>(repeating: _Greedy(capacity: one))
        var b = InlineArray<14, _Greedy>(repeating: _Greedy(capacity: two))
        a[0] = _Greedy(capacity: none)
        b[0] = _Greedy(capacity: one)
        self.defaultShiftParts = a
        self.nationalShiftParts = b
        self.ucs2 = _Greedy(capacity: _Capacity.units(headerOctets: _Capacity.headerOctets(concatenated: true, nationalElements: 0, reference: reference)))
    }

    @inline(__always)
    mutating func add(_ value: UInt32, startsUnit: Bool) {
        let length: Int32 = value > 0xFFFF ? 2 : 1
        units &+= length
        ucs2.feed(length, startsUnit: startsUnit)
        guard live != 0 else { return }
        let (inLocking, inShift) = index.tableMasks(value)
        if !nationalShift && lockingMask == 1 {
            // Default tables only.
            let cost: Int32 = inLocking & 1 != 0 ? 1 : (inShift & 1 != 0 ? 2 : 0)
            if cost == 0 {
                live = 0
                return
            }
            septets[0] &+= cost
            defaultShiftParts[0].feed(cost, startsUnit: startsUnit)
            return
        }
        var remaining = live
        while remaining != 0 {
            let table = remaining.trailingZeroBitCount
            remaining &= remaining &- 1
            let cost: Int32
            if inLocking & (1 << UInt16(table)) != 0 {
                cost = 1
            } else {
                let valid = validShift[table] & inShift
                if valid == 0 {
                    live &= ~(1 << UInt16(table))
                    continue
                }
                validShift[table] = valid
                cost = 2
            }
            septets[table] &+= cost
            defaultShiftParts[table].feed(cost, startsUnit: startsUnit)
            if nationalShift { nationalShiftParts[table].feed(cost, startsUnit: startsUnit) }
        }
    }

    /// Chooses the encoding: the GSM 7-bit pair with the fewest segments, then the most septets left
    /// in the last one (Android's GsmAlphabet.countGsmSeptets rule); on ties the pair of one
    /// language (Hindi locking with Hindi single shift), then the lowest NLIs;
    /// UCS-2 when no enabled pair encodes every character.
    mutating func decide() -> _Decision {
        ucs2.place()
        var best: _Decision?
        var locking = live
        while locking != 0 {
            let table = locking.trailingZeroBitCount
            locking &= locking &- 1
            defaultShiftParts[table].place()
            if nationalShift { nationalShiftParts[table].place() }
            var shifts = validShift[table] & shiftMask
            while shifts != 0 {
                let shift = shifts.trailingZeroBitCount
                shifts &= shifts &- 1
                let elements = (table == 0 ? 0 : 1) + (shift == 0 ? 0 : 1)
                let single = _Capacity.septets(headerOctets: _Capacity.headerOctets(concatenated: false, nationalElements: elements, reference: reference))
                let total = septets[table]
                let greedy = shift == 0 ? defaultShiftParts[table] : nationalShiftParts[table]
                let candidate: _Decision
                if total <= single {
                    candidate = _Decision(
                        encoding: .gsm7, locking: table, shift: shift, length: Int(total), segments: 1,
                        remaining: Int(single - total), partCapacity: greedy.capacity)
                } else {
                    candidate = _Decision(
                        encoding: .gsm7, locking: table, shift: shift, length: Int(total), segments: Int(greedy.parts),
                        remaining: Int(greedy.capacity - greedy.used), partCapacity: greedy.capacity)
                }
                if let current = best {
                    let sameLanguage = candidate.shift == candidate.locking && current.shift != current.locking
                    if candidate.segments < current.segments
                        || (candidate.segments == current.segments && candidate.remaining > current.remaining)
                        || (candidate.segments == current.segments && candidate.remaining == current.remaining && sameLanguage) {
                        best = candidate
                    }
                } else {
                    best = candidate
                }
            }
        }
        if let best { return best }
        if units <= 70 {
            return _Decision(encoding: .ucs2, locking: 0, shift: 0, length: Int(units), segments: 1, remaining: Int(70 - units), partCapacity: ucs2.capacity)
        }
        return _Decision(
            encoding: .ucs2, locking: 0, shift: 0, length: Int(units), segments: Int(ucs2.parts),
            remaining: Int(ucs2.capacity - ucs2.used), partCapacity: ucs2.capacity)
    }
}

extension _Counter {
    /// The decision for the default tables with scalar splitting and no text changes: the same
    /// result as feeding a `_Counter` with lockingMask = shiftMask = 1, in one tight loop.
    static func decideDefaultTables(_ text: String, index: _GSMCharacterIndex, reference: SMSEncoder.Options.ConcatenationReference) -> _Decision {
        let ucs2Capacity = _Capacity.units(headerOctets: _Capacity.headerOctets(concatenated: true, nationalElements: 0, reference: reference))
        let gsmCapacity = _Capacity.septets(headerOctets: _Capacity.headerOctets(concatenated: true, nationalElements: 0, reference: reference))
        var units: Int32 = 0
        var ucs2Parts: Int32 = 1
        var ucs2Used: Int32 = 0
        var septets: Int32 = 0
        var gsmParts: Int32 = 1
        var gsmUsed: Int32 = 0
        var encodable = true
        index.direct.withUnsafeBufferPointer { direct in
            @inline(__always)
            func process(_ value: UInt32) {
                let length: Int32 = value > 0xFFFF ? 2 : 1
                units &+= length
                if ucs2Used &+ length > ucs2Capacity {
                    ucs2Parts &+= 1
                    ucs2Used = length
                } else {
                    ucs2Used &+= length
                }
                guard encodable else { return }
                let mask: UInt32
                if value < UInt32(_GSMCharacterIndex.directLimit) {
                    mask = direct[Int(value)]
                } else {
                    let (locking, shift) = index.tableMasks(value)
                    mask = UInt32(locking) | UInt32(shift) << 16
                }
                let cost: Int32 = mask & 1 != 0 ? 1 : (mask & 0x1_0000 != 0 ? 2 : 0)
                if cost == 0 {
                    encodable = false
                    return
                }
                septets &+= cost
                if gsmUsed &+ cost > gsmCapacity {
                    gsmParts &+= 1
                    gsmUsed = cost
                } else {
                    gsmUsed &+= cost
                }
            }
            // Native strings are valid UTF-8: decode it directly, without the scalar iterator.
            let decoded: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
                var position = 0
                let count = bytes.count
                while position < count {
                    let lead = UInt32(bytes[position])
                    if lead < 0x80 {
                        process(lead)
                        position &+= 1
                    } else if lead < 0xE0 {
                        process((lead & 0x1F) << 6 | UInt32(bytes[position &+ 1] & 0x3F))
                        position &+= 2
                    } else if lead < 0xF0 {
                        process((lead & 0x0F) << 12 | UInt32(bytes[position &+ 1] & 0x3F) << 6 | UInt32(bytes[position &+ 2] & 0x3F))
                        position &+= 3
                    } else {
                        process(
                            (lead & 0x07) << 18 | UInt32(bytes[position &+ 1] & 0x3F) << 12
                                | UInt32(bytes[position &+ 2] & 0x3F) << 6 | UInt32(bytes[position &+ 3] & 0x3F))
                        position &+= 4
                    }
                }
            }
            if decoded == nil {
                for scalar in text.unicodeScalars { process(scalar.value) }
            }
        }
        if encodable {
            if septets <= 160 {
                return _Decision(encoding: .gsm7, locking: 0, shift: 0, length: Int(septets), segments: 1, remaining: Int(160 - septets), partCapacity: gsmCapacity)
            }
            return _Decision(
                encoding: .gsm7, locking: 0, shift: 0, length: Int(septets), segments: Int(gsmParts),
                remaining: Int(gsmCapacity - gsmUsed), partCapacity: gsmCapacity)
        }
        if units <= 70 {
            return _Decision(encoding: .ucs2, locking: 0, shift: 0, length: Int(units), segments: 1, remaining: Int(70 - units), partCapacity: ucs2Capacity)
        }
        return _Decision(
            encoding: .ucs2, locking: 0, shift: 0, length: Int(units), segments: Int(ucs2Parts),
            remaining: Int(ucs2Capacity - ucs2Used), partCapacity: ucs2Capacity)
    }
}
