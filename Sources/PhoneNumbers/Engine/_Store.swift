/// The one shared, immutable index over the generated metadata, built on first use.
final class _Store: Sendable {
    static let shared = _Store()

    let regions: [_RegionRecord]
    let formats: [_FormatRecord]
    /// For calling code c (0...999): start and count in `regionLists`, count 0 when unknown.
    let callingCodeStart: [UInt16]
    let callingCodeCount: [UInt8]
    let regionLists: [UInt16]
    /// Index of a geographic region by its two letters: (c0 - 65) * 26 + (c1 - 65); -1 when unknown.
    let regionByLetters: [Int16]

    private init() {
        regions = _TableText.lines(_Metadata.regionTable).map { f in
            _RegionRecord(
                code: f.string(0) ?? "", countryCode: UInt16(f.int(1)), isMainCountryForCode: f.int(2) != 0,
                typeDFA: Int32(f.int(3)), lengthTypes: Int32(f.int(4)),
                possibleLengths: UInt32(f.int(5)), localOnlyLengths: UInt32(f.int(6)),
                hasNoPossibleLength: f.int(7) != 0, sameMobileAndFixedLinePattern: f.int(8) != 0,
                leadingDigits: Int32(f.int(9)), nationalPrefix: f.string(10),
                nationalPrefixForParsing: Int32(f.int(11)), nationalPrefixTransformRule: f.string(12),
                internationalPrefix: Int32(f.int(13)), preferredInternationalPrefix: f.string(14),
                preferredExtensionPrefix: f.string(15),
                nationalFormats: f.int(16)..<f.int(17), intlFormats: f.int(18)..<f.int(19))
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
            let text = line.fields[0]
            let parts = text.split(separator: ":")
            let code = Int(parts[0])!
            let indices = parts[1].split(separator: ",").map { UInt16($0)! }
            start[code] = UInt16(lists.count)
            count[code] = UInt8(indices.count)
            lists.append(contentsOf: indices)
        }
        callingCodeStart = start
        callingCodeCount = count
        regionLists = lists
        var byLetters = [Int16](repeating: -1, count: 26 * 26)
        for (i, region) in regions.enumerated() where region.code.utf8.count == 2 {
            let u = Array(region.code.utf8)
            byLetters[Int(u[0] - 65) * 26 + Int(u[1] - 65)] = Int16(i)
        }
        regionByLetters = byLetters
    }

    /// Index of the main region (or non-geographic entity) for a calling code, or nil.
    @inline(__always)
    func mainRegion(forCallingCode code: Int) -> Int? {
        guard code > 0, code < 1000, callingCodeCount[code] > 0 else { return nil }
        return Int(regionLists[Int(callingCodeStart[code])])
    }

    /// Index of a geographic region, or nil ("001" and "ZZ" are not geographic regions).
    func regionIndex(_ region: RegionCode) -> Int? {
        let u = Array(region.identifier.utf8)
        guard u.count == 2 else { return nil }
        let i = regionByLetters[Int(u[0] - 65) * 26 + Int(u[1] - 65)]
        return i < 0 ? nil : Int(i)
    }
}

/// Reads the generated record tables: lines of '|'-separated fields (see generate_metadata.py).
struct _TableText {
    let fields: [Substring]

    static func lines(_ text: StaticString) -> [_TableText] {
        let all = text.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
        return all.split(separator: "\n").map {
            _TableText(fields: $0.split(separator: "|", omittingEmptySubsequences: false))
        }
    }

    func int(_ i: Int) -> Int { Int(fields[i])! }

    func string(_ i: Int) -> String? {
        let field = fields[i]
        return field.isEmpty ? nil : String(field.dropFirst())
    }
}
