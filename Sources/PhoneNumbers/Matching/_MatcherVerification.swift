// The checks of libphonenumber's leniency levels (phonenumbermatcher.py `_verify` and helpers),
// over the engine's parse, validation and format internals.

/// How the country code of a parsed candidate was written (libphonenumber's
/// `CountryCodeSource`), which the parse itself does not keep.
enum _CountryCodeSource {
    case plusSign, idd, withoutPlusSign, defaultCountry
}

extension _NumberMatcher {
    /// `_verify`: whether `number`, parsed from `candidate`, passes the leniency.
    func verify(_ number: PhoneNumber, _ candidate: Range<Int>) -> Bool {
        if leniency == .possible {
            let possibility = engine.possibility(of: number)
            return possibility == .isPossible || possibility == .isPossibleLocalOnly
        }
        guard engine.isValid(number), containsOnlyValidXChars(number, candidate) else { return false }
        let source = countryCodeSource(number, candidate)
        if leniency >= .strictGrouping, containsMoreThanOneSlashInNationalNumber(number, candidate, source) { return false }
        guard isNationalPrefixPresentIfRequired(number, candidate, source) else { return false }
        if leniency == .valid { return true }
        return isGroupingValid(number, candidate, source, exact: leniency == .exactGrouping)
    }

    /// The candidate's scalars with every digit as its ASCII digit (`normalize_digits_only`);
    /// other characters kept when `keepOthers`.
    func normalizedDigits(_ range: Range<Int>, keepOthers: Bool) -> [Unicode.Scalar] {
        var out: [Unicode.Scalar] = []
        out.reserveCapacity(range.count)
        for c in text[range] {
            if let d = _UnicodeClasses.digitValue(c) {
                out.append(Unicode.Scalar(0x30 + d))
            } else if keepOthers {
                out.append(c)
            }
        }
        return out
    }

    /// `numobj.country_code_source` of libphonenumber's parse of `candidate`.
    func countryCodeSource(_ number: PhoneNumber, _ candidate: Range<Int>) -> _CountryCodeSource {
        // The number starts at the first plus sign or digit (`_extract_possible_number`).
        guard let first = text[candidate].first(where: { _Chars.isPlus($0) || _UnicodeClasses.isDecimal($0) }) else {
            return .defaultCountry
        }
        if _Chars.isPlus(first) { return .plusSign }
        guard let region, let regionIndex = engine.tables.regionIndex(region) else { return .defaultCountry }
        // The digits before the extension (candidates have no letters: no vanity numbers).
        var digits = normalizedDigits(candidate, keepOthers: false).map { UInt8($0.value) }
        if let ext = number.extension { digits.removeLast(min(ext.unicodeScalars.count, digits.count)) }
        let found = digits.withUnsafeBufferPointer { buffer in
            try? engine._extractCountryCode(buffer, overlong: false, afterPlus: false, regionIndex: regionIndex)
        }
        guard let found, found.code != 0 else { return .defaultCountry }
        let own = String(engine.tables.core[regionIndex].countryCode).utf8
        return found.code == Int(engine.tables.core[regionIndex].countryCode) && digits.starts(with: own)
            ? .withoutPlusSign : .idd
    }

    /// `_contains_only_valid_x_chars`: an `x` starts the extension, and `xx` a carrier code.
    func containsOnlyValidXChars(_ number: PhoneNumber, _ candidate: Range<Int>) -> Bool {
        var i = candidate.lowerBound
        while i < candidate.upperBound - 1 {
            if text[i] == "x" || text[i] == "X" {
                if text[i + 1] == "x" || text[i + 1] == "X" {
                    i += 1
                    guard isNationalNumberMatch(number, i..<candidate.upperBound) else { return false }
                } else {
                    let digits = String(String.UnicodeScalarView(normalizedDigits(i..<candidate.upperBound, keepOthers: false)))
                    guard digits == number.extension else { return false }
                }
            }
            i += 1
        }
        return true
    }

    /// `is_number_match(numobj, text) == NSN_MATCH`: the text has no country code and, read in
    /// the number's region, is the number.
    func isNationalNumberMatch(_ number: PhoneNumber, _ range: Range<Int>) -> Bool {
        let string = String(String.UnicodeScalarView(text[range]))
        do {
            _ = try engine.parse(string, defaultRegion: nil)
            return false  // a country code: at best an exact match, never an NSN match
        } catch where error.code == .invalidCountryCode {
            guard let region = engine.mainRegion(forCountryCode: number.countryCode), region.identifier != "001",
                  let other = try? engine.parse(string, defaultRegion: region) else { return false }
            return other == number
        } catch {
            return false
        }
    }

    /// `_contains_more_than_one_slash_in_national_number`.
    func containsMoreThanOneSlashInNationalNumber(
        _ number: PhoneNumber, _ candidate: Range<Int>, _ source: _CountryCodeSource
    ) -> Bool {
        guard let firstSlash = text[candidate].firstIndex(of: "/") else { return false }
        guard let secondSlash = text[(firstSlash + 1)..<candidate.upperBound].firstIndex(of: "/") else { return false }
        if source == .plusSign || source == .withoutPlusSign,
           String(String.UnicodeScalarView(normalizedDigits(candidate.lowerBound..<firstSlash, keepOthers: false)))
               == String(number.countryCode) {
            return text[(secondSlash + 1)..<candidate.upperBound].contains("/")
        }
        return true
    }

    /// `_is_national_prefix_present_if_required`: a number written nationally has the national
    /// prefix when its format's rule writes one and does not say it is optional.
    func isNationalPrefixPresentIfRequired(
        _ number: PhoneNumber, _ candidate: Range<Int>, _ source: _CountryCodeSource
    ) -> Bool {
        guard source == .defaultCountry, let index = engine.tables.mainRegion(forCallingCode: number.countryCode) else {
            return true
        }
        let record = engine.store.regions[index]
        guard record.code != "001" else { return true }
        let format = number.withNationalSignificantNumber { engine._chooseNationalFormat($0, record) }
        guard let format, let rule = format.nationalPrefixFormattingRule, !rule.isEmpty else { return true }
        if format.nationalPrefixOptionalWhenFormatting { return true }
        if rule == "$1" || rule == "($1" || rule == "$1)" || rule == "($1)" { return true }  // `\(?\$1\)?`
        let digits = normalizedDigits(candidate, keepOthers: false).map { UInt8($0.value) }
        var transformed = _DigitString()
        return digits.withUnsafeBufferPointer {
            engine._stripNationalPrefix($0, engine.tables.core[index], transformed: &transformed) != nil
        }
    }

    // MARK: - Grouping

    /// `_check_number_grouping_is_valid` with the number's own format (alternate formats are
    /// not shipped; see ``PhoneNumberEngine/findNumbers(in:defaultRegion:leniency:maxTries:)``).
    func isGroupingValid(_ number: PhoneNumber, _ candidate: Range<Int>, _ source: _CountryCodeSource, exact: Bool) -> Bool {
        let normalized = normalizedDigits(candidate, keepOthers: true)
        // The groups of the RFC 3966 format: after the first "-", before ";ext=".
        let rfc = Array(engine.format(number, as: .rfc3966).unicodeScalars)
        let end = rfc.firstIndex(of: ";") ?? rfc.count
        let start = rfc.firstIndex(of: "-").map { $0 + 1 } ?? 0
        let groups = rfc[start..<max(start, end)].split(separator: "-", omittingEmptySubsequences: false).map(Array.init)
        return exact
            ? allGroupsExactlyPresent(number, normalized, groups)
            : allGroupsRemainGrouped(number, normalized, groups, source)
    }

    /// `_all_number_groups_remain_grouped`.
    func allGroupsRemainGrouped(
        _ number: PhoneNumber, _ normalized: [Unicode.Scalar], _ groups: [[Unicode.Scalar]], _ source: _CountryCodeSource
    ) -> Bool {
        var from = 0
        if source != .defaultCountry {
            let code = Array(String(number.countryCode).unicodeScalars)
            from = (Self.find(code, in: normalized, from: 0) ?? -1) + code.count
        }
        for (i, group) in groups.enumerated() {
            guard let at = Self.find(group, in: normalized, from: from) else { return false }
            from = at + group.count
            if i == 0, from < normalized.count {
                if let index = engine.tables.mainRegion(forCallingCode: number.countryCode),
                   engine.store.regions[index].code != "001",
                   let prefix = engine.store.regions[index].nationalPrefix, !prefix.isEmpty,
                   normalized[from].value &- 0x30 < 10 {
                    let nsn = Array(number.nationalSignificantNumber.unicodeScalars)
                    return normalized[(from - group.count)...].starts(with: nsn)
                }
            }
        }
        guard let ext = number.extension, !ext.isEmpty else { return true }
        return Self.find(Array(ext.unicodeScalars), in: normalized, from: from) != nil
    }

    /// `_all_number_groups_are_exactly_present`.
    func allGroupsExactlyPresent(_ number: PhoneNumber, _ normalized: [Unicode.Scalar], _ groups: [[Unicode.Scalar]]) -> Bool {
        let candidateGroups = Self.splitOnNonDigits(normalized)
        if candidateGroups.count == 1 { return true }
        var index = number.extension != nil ? candidateGroups.count - 2 : candidateGroups.count - 1
        let nsn = Array(number.nationalSignificantNumber.unicodeScalars)
        if Self.find(nsn, in: candidateGroups[index], from: 0) != nil { return true }
        var formatted = groups.count - 1
        while formatted > 0, index >= 0 {
            guard candidateGroups[index] == groups[formatted] else { return false }
            formatted -= 1
            index -= 1
        }
        return index >= 0 && candidateGroups[index].reversed().starts(with: groups[0].reversed())
    }

    /// Python's `re.split(r"(?:\D+)", s)`: the runs of ASCII digits between runs of anything
    /// else, with an empty part first or last when `s` starts or ends with a non-digit.
    static func splitOnNonDigits(_ s: [Unicode.Scalar]) -> [[Unicode.Scalar]] {
        var parts: [[Unicode.Scalar]] = [[]]
        var inSeparator = false
        for c in s {
            if c.value &- 0x30 < 10 {
                if inSeparator { parts.append([]); inSeparator = false }
                parts[parts.count - 1].append(c)
            } else {
                inSeparator = true
            }
        }
        if inSeparator { parts.append([]) }
        return parts
    }

    /// `str.find`: where `needle` first occurs in `haystack` at or after `from`.
    static func find(_ needle: [Unicode.Scalar], in haystack: [Unicode.Scalar], from: Int) -> Int? {
        guard from <= haystack.count else { return needle.isEmpty && from == haystack.count ? from : nil }
        if needle.isEmpty { return from }
        var i = max(from, 0)
        while i + needle.count <= haystack.count {
            if haystack[i] == needle[0], haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}

extension PhoneNumberEngine {
    /// libphonenumber's `choose_formatting_pattern_for_number` over a region's national formats:
    /// the first whose leading digits and whole pattern match the national significant number.
    func _chooseNationalFormat(_ nsn: UnsafeBufferPointer<UInt8>, _ record: _RegionRecord) -> _FormatRecord? {
        let formats = store.formats
        for i in record.nationalFormats {
            let format = formats[i]
            if format.leadingDigits >= 0, !_DFA.prefixMatches(tables.words, format.leadingDigits, nsn) { continue }
            if _PikeVM.match(tables.words, format.pattern, nsn, toEnd: true) != nil { return format }
        }
        return nil
    }
}
