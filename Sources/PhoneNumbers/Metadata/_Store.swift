/// The one shared, immutable index over the generated metadata, built on first use.
///
/// `@unchecked Sendable`: every property is written once in `init` and only read afterwards;
/// `tables` points to memory that is never written again, freed only when the store is (never, for
/// `shared`).
final class _Store: @unchecked Sendable {
    static let shared = _Store()

    let regions: [_RegionRecord]

    /// The number formats, which only national, international and RFC 3966 formatting read:
    /// built on the first of those calls rather than with the store, since reading them was
    /// more than half the time a new process spent making the store.
    var formats: [_FormatRecord] { Self.formatRecords }

    private static let formatRecords = buildFormats()

    /// Reads the number formats from the generated table (`formats` keeps the first reading).
    static func buildFormats() -> [_FormatRecord] {
        _TableText.map(_Metadata.formatTable, lines: _Metadata.formatTableLines,
                       fields: _MetadataLayout.formatFields) { (f: _TableText) -> _FormatRecord in
            typealias F = _FormatField
            let pattern = Int32(f.int(F.pattern))
            return _FormatRecord(
                pattern: pattern, format: f.string(F.format) ?? "",
                leadingDigits: Int32(f.int(F.leadingDigits)),
                nationalPrefixFormattingRule: f.string(F.nationalPrefixFormattingRule),
                nationalPrefixOptionalWhenFormatting: f.bool(F.nationalPrefixOptionalWhenFormatting),
                domesticCarrierCodeFormattingRule: f.string(F.domesticCarrierCodeFormattingRule),
                plan: _FormatPlan(_Metadata.words, pattern))
        }
    }
    /// The tables the hot paths read (`_Tables`), freed with the store.
    let tables: UnsafeMutablePointer<_Tables>

    /// Builds an index; `shared` is the one everything uses (a second one is only for measuring
    /// how long building takes).
    init() {
        let words = _Metadata.words
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
        regions = _TableText.map(_Metadata.regionTable, lines: _Metadata.regionTableLines,
                                 fields: _MetadataLayout.regionFields) { (f: _TableText) -> _RegionRecord in
            typealias F = _RegionField
            return _RegionRecord(
                code: f.string(F.code) ?? "", countryCode: UInt16(f.int(F.countryCode)),
                isMainCountryForCode: f.bool(F.isMainCountryForCode),
                typeDFA: Int32(f.int(F.typeDFA)), typeRows: Int32(f.int(F.typeRows)),
                typeStates: Int32(f.int(F.typeStates)), typeFirstTail: Int32(f.int(F.typeFirstTail)),
                possibleLengths: UInt32(f.int(F.possibleLengths)), localOnlyLengths: UInt32(f.int(F.localOnlyLengths)),
                hasNoPossibleLength: f.bool(F.hasNoPossibleLength),
                sameMobileAndFixedLinePattern: f.bool(F.sameMobileAndFixedLinePattern),
                leadingDigits: Int32(f.int(F.leadingDigits)), nationalPrefix: f.string(F.nationalPrefix),
                nationalPrefixForParsing: Int32(f.int(F.nationalPrefixForParsing)),
                nationalPrefixTransformRule: f.string(F.nationalPrefixTransformRule),
                internationalPrefix: Int32(f.int(F.internationalPrefix)),
                preferredInternationalPrefix: f.string(F.preferredInternationalPrefix),
                preferredExtensionPrefix: f.string(F.preferredExtensionPrefix),
                nationalPrefixDFA: Int32(f.int(F.nationalPrefixDFA)),
                internationalPrefixDFA: Int32(f.int(F.internationalPrefixDFA)),
                nationalFormats: f.int(F.nationalFormatsStart)..<f.int(F.nationalFormatsEnd),
                intlFormats: f.int(F.intlFormatsStart)..<f.int(F.intlFormatsEnd),
                noInternationalDiallingDFA: Int32(f.int(F.noInternationalDiallingDFA)),
                noInternationalDiallingLengths: UInt32(f.int(F.noInternationalDiallingLengths)))
        }
        let regionCodes = Self.table(regions.map { RegionCode(unchecked: $0.code) })
        let typeRows = _Metadata.typeRows
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
        var start = [UInt16](repeating: 0, count: 1000)
        var count = [UInt8](repeating: 0, count: 1000)
        var lists: [UInt16] = []
        lists.reserveCapacity(regions.count)
        _TableText.forEach(_Metadata.callingCodeTable) { line in
            // "cc:i,j,k" arrives as one field; split it by hand, straight into `lists`.
            let first = lists.count
            var code = 0
            var value = 0
            var seenColon = false
            for byte in line.raw(0) {
                switch byte {
                case UInt8(ascii: ":"): code = value; value = 0; seenColon = true
                case UInt8(ascii: ","): lists.append(UInt16(value)); value = 0
                default: value = value * 10 + Int(byte - 0x30)
                }
            }
            if seenColon { lists.append(UInt16(value)) }
            // The region loops keep one bit per region of a code in a UInt32 (+1 has 25).
            precondition(lists.count - first <= 32, "more than 32 regions share calling code \(code)")
            start[code] = UInt16(first)
            count[code] = UInt8(lists.count - first)
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
            asciiKinds: asciiKinds))
    }

    /// `shared` is never released; the stores the metadata-ready benchmark builds are.
    deinit {
        let t = tables.move()
        tables.deallocate()
        t.core.deallocate()
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
    /// `_Metadata.words`, in the binary's read-only data: what the DFA walks read.
    let words: UnsafePointer<UInt16>
    /// `_Metadata.typeRows`, in the binary's read-only data: the transitions of the type DFAs'
    /// states before their tail states (`_TypeDFA`), a byte each, 10 a state. A walk touches
    /// fewer cache lines than it would with 16-bit rows that hold their labels inline.
    let typeRows: UnsafePointer<UInt8>
    /// For the first three digits after a `+` (000...999): the calling code they start with,
    /// as `code << 20 | length << 16 | index of its main region`, or 0 when none does.
    let callingCodeByPrefix: UnsafeMutablePointer<UInt32>
    /// The type for each `typeKey` of a DFA label: one load where libphonenumber's chain of
    /// tests costs a mispredicted branch on most numbers.
    let typeByLabel: UnsafeMutablePointer<PhoneNumberType>
    /// `_simpleKind(ascii:)` of each ASCII byte, digits included (`.digit`).
    let asciiKinds: UnsafeMutablePointer<_SimpleKind>

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

/// One line of the generated record tables: '|'-separated fields, read straight from the literal's
/// bytes by the names the generator wrote with them (`_RegionField`, `_FormatField` in
/// Generated/MetadataLayout.swift, from tools/metadata/schema.py).
struct _TableText {
    private let bytes: UnsafePointer<UInt8>
    /// Where each field starts, and one past the end of the line: field i is
    /// `bytes[starts[i] ..< starts[i + 1] - 1]`.
    private let starts: UnsafePointer<Int32>

    /// Fields a line may have (the region table has 24).
    private static let maxFields = 32

    /// The number of fields of the line.
    private let fieldCount: Int

    /// `transform` of each non-empty line of `text`, in order; `lines` is their number (the
    /// generator's count, so that the array is allocated once) and `fields` the number of fields
    /// every line has (the schema's, `_MetadataLayout`).
    static func map<T>(_ text: StaticString, lines: Int, fields: Int, _ transform: (_TableText) -> T) -> [T] {
        var result: [T] = []
        result.reserveCapacity(lines)
        forEach(text) { line in
            precondition(line.fieldCount == fields, "a generated table line does not have the schema's \(fields) fields")
            result.append(transform(line))
        }
        return result
    }

    /// Calls `body` with each non-empty line of `text`, in order: one pass over the bytes with no
    /// memory allocated (an array of every field of every table cost more page faults in a new
    /// process than the rest of building the store).
    static func forEach(_ text: StaticString, _ body: (_TableText) -> Void) {
        let bytes = text.utf8Start
        let count = text.utf8CodeUnitCount
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: maxFields + 1) { starts in
            var fields = 0
            starts[0] = 0
            for i in 0...count {
                let byte: UInt8 = i < count ? bytes[i] : 0x0A
                guard byte == UInt8(ascii: "|") || byte == 0x0A else { continue }
                precondition(fields < maxFields, "a generated table line has more than \(maxFields) fields")
                fields &+= 1
                starts[fields] = Int32(i &+ 1)
                guard byte == 0x0A else { continue }
                // Not an empty line (one empty field).
                if fields > 1 || i > Int(starts[0]) {
                    body(_TableText(bytes: bytes, starts: UnsafePointer(starts.baseAddress!), fieldCount: fields))
                }
                starts[0] = Int32(i &+ 1)
                fields = 0
            }
        }
    }

    /// Field `i` of the line.
    private func field(_ i: Int) -> (Int, Int) { (Int(starts[i]), Int(starts[i &+ 1]) &- 1) }

    /// A decimal field; `-1` is allowed.
    func int<Field: RawRepresentable>(_ field: Field) -> Int where Field.RawValue == Int { int(field.rawValue) }

    /// A flag field (`0` or `1`).
    func bool<Field: RawRepresentable>(_ field: Field) -> Bool where Field.RawValue == Int { int(field.rawValue) != 0 }

    /// A string field (written with a leading '='), or nil when empty.
    func string<Field: RawRepresentable>(_ field: Field) -> String? where Field.RawValue == Int {
        string(field.rawValue)
    }

    private func int(_ i: Int) -> Int {
        var (p, end) = field(i)
        var sign = 1
        if p < end, bytes[p] == UInt8(ascii: "-") { sign = -1; p += 1 }
        var value = 0
        while p < end { value = value &* 10 &+ Int(bytes[p] &- 0x30); p &+= 1 }
        return sign &* value
    }

    private func string(_ i: Int) -> String? {
        let (start, end) = field(i)
        guard start < end else { return nil }
        return String(decoding: UnsafeBufferPointer(start: bytes + start + 1, count: end - start - 1), as: UTF8.self)
    }

    /// The raw text of a field.
    func raw(_ i: Int) -> UnsafeBufferPointer<UInt8> {
        let (start, end) = field(i)
        return UnsafeBufferPointer(start: bytes + start, count: end - start)
    }
}
