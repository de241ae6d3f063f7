/// The one shared, immutable index over the generated metadata, built on first use.
///
/// `@unchecked Sendable`: every property is written once in `init` and only read afterwards;
/// `tables` points to memory that is never written again, freed only when the store is (never, for
/// `shared`).
final class _Store: @unchecked Sendable {
    static let shared = _Store()

    let regions: [_RegionRecord]
    let formats: [_FormatRecord]
    /// The tables the hot paths read (`_Tables`), freed with the store.
    let tables: UnsafeMutablePointer<_Tables>

    /// Builds an index; `shared` is the one everything uses (a second one is only for measuring
    /// how long building takes).
    init() {
        let words = Self.decodeWords()
        let smallStringsVerified = _SmallString.verifyLayout()
        let asciiKinds = UnsafeMutablePointer<_SimpleKind>.allocate(capacity: 128)
        for byte in 0..<128 {
            asciiKinds[byte] = UInt8(byte) &- 0x30 < 10 ? .digit : _simpleKind(ascii: UInt8(byte))
        }
        let typeByLabel = UnsafeMutablePointer<PhoneNumberType>.allocate(capacity: 48)
        typeByLabel.initialize(repeating: .unknown, count: 48)  // key 0: no general bit
        for priority in 0..<12 {
            for same in [false, true] {
                for mobile in [false, true] {
                    // A label whose key is this one (`typeKey` keeps all that decides the type).
                    var bits = _TypeBits.general | (mobile ? _TypeBits.mobile : 0)
                    if priority >= 1, priority <= 10 { bits |= 1 << UInt16(priority) }
                    let key = Self.typeKey(bits, sameMobileAndFixedLine: same)
                    typeByLabel[key] = PhoneNumberEngine._typeOfLabel(bits, sameMobileAndFixedLine: same)
                }
            }
        }
        regions = _TableText.lines(_Metadata.regionTable).map { f in
            _RegionRecord(
                code: f.string(0) ?? "", countryCode: UInt16(f.int(1)), isMainCountryForCode: f.int(2) != 0,
                typeDFA: Int32(f.int(3)), typeRows: Int32(f.int(19)), typeStates: Int32(f.int(20)),
                typeFirstTail: Int32(f.int(23)),
                possibleLengths: UInt32(f.int(4)), localOnlyLengths: UInt32(f.int(5)),
                hasNoPossibleLength: f.int(6) != 0, sameMobileAndFixedLinePattern: f.int(7) != 0,
                leadingDigits: Int32(f.int(8)), nationalPrefix: f.string(9),
                nationalPrefixForParsing: Int32(f.int(10)), nationalPrefixTransformRule: f.string(11),
                internationalPrefix: Int32(f.int(12)), preferredInternationalPrefix: f.string(13),
                preferredExtensionPrefix: f.string(14),
                nationalPrefixDFA: Int32(f.int(21)), internationalPrefixDFA: Int32(f.int(22)),
                nationalFormats: f.int(15)..<f.int(16), intlFormats: f.int(17)..<f.int(18))
        }
        let regionCodes = Self.table(regions.map { RegionCode(unchecked: $0.code) })
        let typeRows = Self.decodeRows()
        let core = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<_RegionCore>.stride * regions.count, alignment: 64)
            .bindMemory(to: _RegionCore.self, capacity: regions.count)
        for (i, r) in regions.enumerated() {
            let (literal, literalLength) = Self.literalDigits(r.nationalPrefixForParsing)
            let (idd, iddLength) = Self.literalDigits(r.internationalPrefix)
            // Labels after the start state; windows after the labels of the states before the tail.
            let tails = Int(r.typeDFA) + 1 + Int(r.typeFirstTail) - _DFA.tailWindow * Int(r.typeFirstTail)
            core[i] = _RegionCore(
                index: UInt16(i), countryCode: r.countryCode,
                sameMobileAndFixedLinePattern: r.sameMobileAndFixedLinePattern,
                hasNoPossibleLength: r.hasNoPossibleLength,
                typeStart: UInt8(words[Int(r.typeDFA)]), typeFirstTail: UInt8(r.typeFirstTail),
                typeDFA: r.typeDFA, typeRows: r.typeRows, typeTails: Int32(tails),
                possibleLengths: r.possibleLengths, localOnlyLengths: r.localOnlyLengths,
                leadingDigits: r.leadingDigits, nationalPrefixDFA: r.nationalPrefixDFA,
                literalPrefix: literal, literalPrefixLength: literalLength,
                prefixStarts: literalLength > 0 ? Self.literalStarts(literal, literalLength)
                                                : Self.matchStarts(words, r.nationalPrefixDFA),
                internationalPrefixDFA: r.internationalPrefixDFA,
                iddStarts: iddLength > 0 ? .all : Self.matchStarts(words, r.internationalPrefixDFA),
                literalIDD: idd, literalIDDLength: iddLength)
            // Parsing asks prefixStarts alone whether a national prefix may start a number.
            assert(core[i].nationalPrefixDFA >= 0 || core[i].prefixStarts.isEmpty)
        }
        formats = _TableText.lines(_Metadata.formatTable).map { f in
            _FormatRecord(
                pattern: Int32(f.int(0)), format: f.string(1) ?? "", leadingDigits: Int32(f.int(2)),
                nationalPrefixFormattingRule: f.string(3), nationalPrefixOptionalWhenFormatting: f.int(4) != 0,
                domesticCarrierCodeFormattingRule: f.string(5))
        }
        var start = [UInt16](repeating: 0, count: 1000)
        var count = [UInt8](repeating: 0, count: 1000)
        var lists: [UInt16] = []
        for line in _TableText.lines(_Metadata.callingCodeTable) {
            // "cc:i,j,k" arrives as one field; split it by hand.
            var code = 0
            var indices: [UInt16] = []
            var value = 0
            var seenColon = false
            for byte in line.raw(0) {
                switch byte {
                case UInt8(ascii: ":"): code = value; value = 0; seenColon = true
                case UInt8(ascii: ","): indices.append(UInt16(value)); value = 0
                default: value = value * 10 + Int(byte - 0x30)
                }
            }
            if seenColon { indices.append(UInt16(value)) }
            // The region loops keep one bit per region of a code in a UInt32 (+1 has 25).
            precondition(indices.count <= 32, "more than 32 regions share calling code \(code)")
            start[code] = UInt16(lists.count)
            count[code] = UInt8(indices.count)
            lists.append(contentsOf: indices)
        }
        let callingCodeStart = Self.table(start)
        let callingCodeCount = Self.table(count)
        let regionLists = Self.table(lists)
        var byLetters = [Int16](repeating: -1, count: 26 * 26)
        for (i, region) in regions.enumerated() where region.code.utf8.count == 2 {
            let u = Array(region.code.utf8)
            byLetters[Int(u[0] - 65) * 26 + Int(u[1] - 65)] = Int16(i)
        }
        let regionByLetters = Self.table(byLetters)
        var filterStart = [Int32](repeating: -1, count: 1000)
        var filter: [UInt32] = []
        // Only where many regions share a code (+1: 25): for two to four regions, building the
        // masks when the store is made costs more than the walks they would save.
        for code in 0..<1000 where count[code] >= 8 && count[code] <= 32 {
            let members = lists[Int(start[code])..<(Int(start[code]) + Int(count[code]))]
            guard members.contains(where: { core[Int($0)].leadingDigits >= 0 }) else { continue }
            filterStart[code] = Int32(filter.count)
            var masks = [UInt32](repeating: 0, count: 1000)
            for (k, member) in members.enumerated() {
                let leading = core[Int(member)].leadingDigits
                Self.markStarts(of: leading, bit: UInt32(1) << UInt32(k), in: &masks)
            }
            filter += masks
        }
        let leadingFilterStart = Self.table(filterStart)
        let leadingFilter = Self.table(filter)
        let callingCodeByPrefix = UnsafeMutablePointer<UInt32>.allocate(capacity: 1000)
        for p in 0..<1000 {
            var entry: UInt32 = 0
            // Country codes never start with 0; the shortest code that is in use wins.
            for length in 1...3 where p >= 100 {
                let code = length == 1 ? p / 100 : length == 2 ? p / 10 : p
                if count[code] > 0 {
                    entry = UInt32(code) << 20 | UInt32(length) << 16 | UInt32(lists[Int(start[code])])
                    break
                }
            }
            callingCodeByPrefix[p] = entry
        }
        tables = .allocate(capacity: 1)
        tables.initialize(to: _Tables(
            core: core,
            regionCodes: regionCodes,
            callingCodeStart: callingCodeStart,
            callingCodeCount: callingCodeCount,
            regionLists: regionLists,
            regionByLetters: regionByLetters,
            leadingFilterStart: leadingFilterStart,
            leadingFilter: leadingFilter,
            words: words,
            typeRows: typeRows,
            callingCodeByPrefix: callingCodeByPrefix,
            typeByLabel: typeByLabel,
            asciiKinds: asciiKinds,
            smallStringsVerified: smallStringsVerified))
    }

    /// `shared` is never released; the stores the metadata-ready benchmark builds are.
    deinit {
        let t = tables.move()
        tables.deallocate()
        t.core.deallocate()
        t.words.deallocate()
        (t.typeRows - Self.rowsPaddingBefore).deallocate()
        t.callingCodeByPrefix.deallocate()
        t.typeByLabel.deallocate()
        t.asciiKinds.deallocate()
        for table in [UnsafeMutableRawPointer(t.regionCodes), UnsafeMutableRawPointer(t.callingCodeStart),
                      UnsafeMutableRawPointer(t.callingCodeCount), UnsafeMutableRawPointer(t.regionLists),
                      UnsafeMutableRawPointer(t.leadingFilterStart), UnsafeMutableRawPointer(t.leadingFilter),
                      UnsafeMutableRawPointer(t.regionByLetters)] {
            table.deallocate()
        }
    }

    /// A copy of `values` in memory of its own, freed by `deinit`.
    private static func table<T>(_ values: [T]) -> UnsafeMutablePointer<T> {
        let table = UnsafeMutablePointer<T>.allocate(capacity: max(values.count, 1))
        _ = UnsafeMutableBufferPointer(start: table, count: values.count).initialize(from: values)
        return table
    }

    /// Decodes the packed 12-bit words (two characters each, 6 bits per character) into a table
    /// of UInt16: a loop the compiler vectorizes.
    private static func decodeWords() -> UnsafeMutablePointer<UInt16> {
        let text = _Metadata.words
        let count = text.utf8CodeUnitCount / 2
        // Zeroed padding: a type DFA walk over bytes that are not digits reads at most 4,095 words
        // past its DFA's tail windows (`_TypeDFA`).
        let table = UnsafeMutablePointer<UInt16>.allocate(capacity: count + 4096)
        (table + count).initialize(repeating: 0, count: 4096)
        let p = text.utf8Start
        for i in 0..<count {
            table[i] = UInt16(p[2 &* i] &- 0x30) | UInt16(p[2 &* i &+ 1] &- 0x30) &<< 6
        }
        return table
    }

    /// Zeroed bytes before the type DFAs' rows (`decodeRows`), which `deinit` frees with them.
    private static let rowsPaddingBefore = 64

    /// Decodes the type DFAs' row bytes (two characters each, 4 bits per character), also a
    /// vectorized loop.
    private static func decodeRows() -> UnsafeMutablePointer<UInt8> {
        let text = _Metadata.typeRows
        let count = text.utf8CodeUnitCount / 2
        // Zeroed padding: a walk over bytes that are not digits reads at most 255 * 10 + 207
        // bytes past its DFA's first row and 48 before it (`_TypeDFA`); the table starts
        // after the 64 bytes before.
        let base = UnsafeMutablePointer<UInt8>.allocate(capacity: Self.rowsPaddingBefore + count + 2816)
        base.initialize(repeating: 0, count: Self.rowsPaddingBefore)
        let table = base + Self.rowsPaddingBefore
        (table + count).initialize(repeating: 0, count: 2816)
        let p = text.utf8Start
        for i in 0..<count {
            table[i] = (p[2 &* i] &- 0x30) | (p[2 &* i &+ 1] &- 0x30) &<< 4
        }
        return table
    }

    /// Sets `bit` in `masks[p]` for every three-digit start p after which the prefix DFA at
    /// `offset` may still accept (it accepted already, or is alive after the three digits); for
    /// every start when there is no DFA (`offset` < 0). Walks only the live paths.
    static func markStarts(of offset: Int32, bit: UInt32, in masks: inout [UInt32]) {
        func all(_ range: Range<Int>) { for p in range { masks[p] |= bit } }
        guard offset >= 0 else { return all(0..<1000) }
        let base = Int(offset) + 1
        func next(_ state: Int, _ digit: Int) -> Int { _Metadata.word(base + state * 11 + digit) }
        func accepts(_ state: Int) -> Bool { _Metadata.word(base + state * 11 + 10) != 0 }
        let start = _Metadata.word(Int(offset))
        if accepts(start) { return all(0..<1000) }
        for a in 0..<10 {
            let s1 = next(start, a)
            if s1 == 0 { continue }
            if accepts(s1) { all((a * 100)..<(a * 100 + 100)); continue }
            for b in 0..<10 {
                let s2 = next(s1, b)
                if s2 == 0 { continue }
                if accepts(s2) { all((a * 100 + b * 10)..<(a * 100 + b * 10 + 10)); continue }
                for c in 0..<10 where next(s2, c) != 0 { masks[a * 100 + b * 10 + c] |= bit }
            }
        }
    }

    /// When the program at `offset` is SAVE 0, CLASS(one digit)*, SAVE 1, MATCH with no groups,
    /// its digits packed 4 bits each (first lowest) and their count; (0, 0) otherwise.
    static func literalDigits(_ offset: Int32) -> (UInt32, Int32) {
        guard offset >= 0 else { return (0, 0) }
        let base = Int(offset)
        let count = _Metadata.word(base)
        guard _Metadata.word(base + 1) == 0, count >= 4, count <= 10 else { return (0, 0) }
        var literal: UInt32 = 0
        for pc in 1..<(count - 2) {
            let op = _Metadata.word(base + 2 + 3 * pc), mask = _Metadata.word(base + 3 + 3 * pc)
            guard op == _PikeVM.opClass, mask.nonzeroBitCount == 1 else { return (0, 0) }
            literal |= UInt32(mask.trailingZeroBitCount) << (4 * UInt32(pc - 1))
        }
        return (literal, Int32(count - 3))
    }

    /// ``matchStarts(_:_:)`` of a plain digit prefix, from its packed digits (`literalDigits`).
    static func literalStarts(_ literal: UInt32, _ length: Int32) -> _DigitPairs {
        var pairs = _DigitPairs()
        let first = Int(literal & 0xF)
        if length == 1 {
            for second in 0..<10 { pairs.insert(first, second) }
        } else {
            pairs.insert(first, Int((literal >> 4) & 0xF))
        }
        return pairs
    }

    /// The two-digit strings an input of two or more digits must start with for the program
    /// whose leftmost-first DFA (`_LeftmostDFA`) is at `offset` to match a prefix of it, read off
    /// the DFA: a match after zero or one digit admits every continuation, and otherwise a pair
    /// is admitted when the DFA is still alive after it. Empty without a DFA.
    static func matchStarts(_ words: UnsafePointer<UInt16>, _ offset: Int32) -> _DigitPairs {
        guard offset >= 0 else { return _DigitPairs() }
        let rows = words + (Int(offset) + 1)
        func next(_ state: Int, _ digit: Int) -> Int { Int(rows[state * 11 + digit]) }
        func matches(_ state: Int) -> Bool { rows[state * 11 + 10] & _LeftmostDFA.match != 0 }
        let start = Int(words[Int(offset)])
        if matches(start) { return .all }
        var pairs = _DigitPairs()
        for first in 0..<10 {
            let afterFirst = next(start, first)
            guard afterFirst != 0 else { continue }
            let matchesAfterFirst = matches(afterFirst)
            for second in 0..<10 where matchesAfterFirst || next(afterFirst, second) != 0 {
                pairs.insert(first, second)
            }
        }
        return pairs
    }

    /// Whether `digits` start with the packed literal of `literalDigits` (`count` > 0).
    @inline(__always)
    static func startsWith(_ digits: UnsafeBufferPointer<UInt8>, literal: UInt32, count: Int32) -> Bool {
        let n = Int(count)
        guard digits.count >= n else { return false }
        for k in 0..<n where UInt32(digits[k] &- 0x30) != (literal >> (4 * UInt32(k))) & 0xF { return false }
        return true
    }

    /// The first three of at least three ASCII digits as a number 0...999: the index of the
    /// three-digit tables. Callers pass digits; other bytes give a meaningless value, which the
    /// tables check against 1,000 only to stay in bounds.
    @inline(__always)
    static func threeDigits(_ digits: UnsafeBufferPointer<UInt8>) -> Int {
        Int(digits[0] &- 0x30) &* 100 &+ Int(digits[1] &- 0x30) &* 10 &+ Int(digits[2] &- 0x30)
    }

    /// What decides a label's type, as an index 0..<48 into `typeByLabel`: the first of its type
    /// bits in libphonenumber's order (bit 1 premium rate ... bit 9 fixed line, bit 10 mobile,
    /// 11 for none), the mobile bit and the region's same-pattern flag; 0 when the general bit
    /// is clear (no type at all).
    @inline(__always)
    static func typeKey(_ bits: UInt16, sameMobileAndFixedLine: Bool) -> Int {
        let first = (UInt32(bits) & 0x7FE | 0x800).trailingZeroBitCount
        let key = first &* 4 &+ (sameMobileAndFixedLine ? 2 : 0) &+ Int(bits &>> 10 & 1)
        return bits & _TypeBits.general != 0 ? key : 0
    }

}

/// The plain memory the hot paths read, owned by a `_Store`, which engines reach through a plain
/// pointer (`PhoneNumberEngine.tables`) so that reading a table never touches the store object.
///
/// Valid as long as its store lives (`_Store.shared` lives as long as the process).
struct _Tables: @unchecked Sendable {
    /// The hot fields of the store's `regions`, same indices.
    let core: UnsafeMutablePointer<_RegionCore>
    /// Each region's code as a value, same indices (reading one copies no record).
    let regionCodes: UnsafeMutablePointer<RegionCode>
    /// For calling code c (0...999): start and count in `regionLists`, count 0 when unknown.
    /// These lookup tables, like the others the hot paths read, are plain memory rather than
    /// arrays: no bounds check and no retain of an array buffer per read.
    let callingCodeStart: UnsafeMutablePointer<UInt16>
    let callingCodeCount: UnsafeMutablePointer<UInt8>
    let regionLists: UnsafeMutablePointer<UInt16>
    /// Index of a geographic region by its two letters: (c0 - 65) * 26 + (c1 - 65); -1 when unknown.
    let regionByLetters: UnsafeMutablePointer<Int16>
    /// For a calling code shared by many regions told apart by leading digits (+1): the
    /// offset in `leadingFilter` of 1,000 masks, one per three-digit start of the national number
    /// (000...999), bit k set when the k-th region of the code's list may claim such a number
    /// (its leading digits may match, or it has none); -1 for other codes.
    let leadingFilterStart: UnsafeMutablePointer<Int32>
    let leadingFilter: UnsafeMutablePointer<UInt32>
    /// `_Metadata.words` decoded, one UInt16 per word (the literal spends two bytes and six
    /// instructions on each): what the DFA walks read.
    let words: UnsafeMutablePointer<UInt16>
    /// `_Metadata.typeRows` decoded: the transitions of the type DFAs' states before their tail
    /// states (`_TypeDFA`), a byte each, 10 a state (74 KiB for all of them). A walk
    /// touches less than half the cache lines of 16-bit rows with their labels inline.
    let typeRows: UnsafeMutablePointer<UInt8>
    /// For the first three digits after a `+` (000...999): the calling code they start with,
    /// as `code << 20 | length << 16 | index of its main region`, or 0 when none does.
    let callingCodeByPrefix: UnsafeMutablePointer<UInt32>
    /// The type for each `typeKey` of a DFA label: one load where libphonenumber's chain of
    /// tests costs a mispredicted branch on most numbers.
    let typeByLabel: UnsafeMutablePointer<PhoneNumberType>
    /// `_simpleKind(ascii:)` of each ASCII byte, digits included (`.digit`).
    let asciiKinds: UnsafeMutablePointer<_SimpleKind>
    /// Whether Strings of up to 15 ASCII bytes can be made in place (`_SmallString`), checked
    /// against the standard library once.
    let smallStringsVerified: Bool

    /// The calling code at the start of `digits` (ASCII digits, at least three) and its main region:
    /// code 0 when none is in use. One table lookup for what libphonenumber tries code by code.
    @inline(__always)
    func callingCode(startOf digits: UnsafeBufferPointer<UInt8>) -> (code: Int, length: Int, region: Int) {
        let p = _Store.threeDigits(digits)
        guard p < 1000 else { return (0, 0, 0) }
        let entry = callingCodeByPrefix[p]
        return (Int(entry &>> 20), Int(entry &>> 16 & 0xF), Int(entry & 0xFFFF))
    }

    /// Index of the main region (or non-geographic entity) for a calling code, or nil.
    @inline(__always)
    func mainRegion(forCallingCode code: Int) -> Int? {
        guard code > 0, code < 1000, callingCodeCount[code] > 0 else { return nil }
        return Int(regionLists[Int(callingCodeStart[code])])
    }

    /// Index of a geographic region, or nil ("001" and "ZZ" are not geographic regions).
    @inline(__always)
    func regionIndex(_ region: RegionCode) -> Int? {
        guard let letters = region.letterIndex else { return nil }
        let i = regionByLetters[letters]
        return i < 0 ? nil : Int(i)
    }
}

/// Reads the generated record tables: lines of '|'-separated fields (see generate_metadata.py),
/// straight from the literal's bytes.
struct _TableText {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Start and end of each field: a slice of one array shared by all lines (one allocation for
    /// the table, not one per line).
    let fields: ArraySlice<(Int, Int)>

    static func lines(_ text: StaticString) -> [_TableText] {
        let bytes = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        var all: [(Int, Int)] = []
        var lines: [Range<Int>] = []
        var lineStart = 0
        var fieldStart = 0
        for i in 0...bytes.count {
            let byte: UInt8 = i < bytes.count ? bytes[i] : 0x0A
            if byte == UInt8(ascii: "|") || byte == 0x0A {
                all.append((fieldStart, i))
                fieldStart = i + 1
                if byte == 0x0A {
                    // Not an empty line (one empty field).
                    if all.count - lineStart > 1 || all[lineStart].0 < all[lineStart].1 { lines.append(lineStart..<all.count) }
                    lineStart = all.count
                }
            }
        }
        return lines.map { _TableText(bytes: bytes, fields: all[$0]) }
    }

    /// Field `i` of the line.
    private func field(_ i: Int) -> (Int, Int) { fields[fields.startIndex + i] }

    /// A decimal field; `-1` is allowed.
    func int(_ i: Int) -> Int {
        var (p, end) = field(i)
        var sign = 1
        if p < end, bytes[p] == UInt8(ascii: "-") { sign = -1; p += 1 }
        var value = 0
        while p < end { value = value * 10 + Int(bytes[p] - 0x30); p += 1 }
        return sign * value
    }

    /// A string field (written with a leading '='), or nil when empty.
    func string(_ i: Int) -> String? {
        let (start, end) = field(i)
        guard start < end else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[(start + 1)..<end]), as: UTF8.self)
    }

    /// The raw text of a field.
    func raw(_ i: Int) -> UnsafeBufferPointer<UInt8> {
        let (start, end) = field(i)
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }
}
