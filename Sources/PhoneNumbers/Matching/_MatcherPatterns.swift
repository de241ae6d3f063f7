// The regular expressions of libphonenumber's matcher (phonenumbermatcher.py), each as a scanner
// over the text's scalars that finds what Python's `re` finds for it: the same leftmost match,
// greedy quantifiers backtracking in the same order. Each says which expression it stands for.

/// The character classes of the matcher's expressions.
enum _MatchChars {
    /// `\d` (Unicode Nd).
    @inline(__always)
    static func isDigit(_ c: Unicode.Scalar) -> Bool { _UnicodeClasses.isDecimal(c) }

    /// `_LEAD_CLASS`: opening brackets and plus signs.
    @inline(__always)
    static func isLead(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x28, 0x5B, 0xFF08, 0xFF3B, 0x2B, 0xFF0B: true
        default: false
        }
    }

    @inline(__always)
    static func isOpening(_ c: Unicode.Scalar) -> Bool {
        c.value == 0x28 || c.value == 0x5B || c.value == 0xFF08 || c.value == 0xFF3B
    }

    @inline(__always)
    static func isClosing(_ c: Unicode.Scalar) -> Bool {
        c.value == 0x29 || c.value == 0x5D || c.value == 0xFF09 || c.value == 0xFF3D
    }

    /// `_VALID_PUNCTUATION` under IGNORECASE (the parser's set).
    @inline(__always)
    static func isPunctuation(_ c: Unicode.Scalar) -> Bool { _Chars.isPunctuation(c) }

    /// `\s`: `str.isspace`.
    static func isSpace(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x09...0x0D, 0x1C...0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
            true
        default: false
        }
    }

    /// `\w`: `str.isalnum` or `_`.
    @inline(__always)
    static func isWord(_ c: Unicode.Scalar) -> Bool { c == "_" || _UnicodeClasses.isAlnum(c) }

    /// `_is_invalid_punctuation_symbol`: `%` or a currency sign (Sc).
    static func isInvalidPunctuation(_ c: Unicode.Scalar) -> Bool {
        c == "%" || (c.value >= 0x24 && c.properties.generalCategory == .currencySymbol)
    }

    /// `_is_latin_letter`: a letter or non-spacing mark of the Latin blocks.
    static func isLatinLetter(_ c: Unicode.Scalar) -> Bool {
        let v = c.value
        guard v < 0x0250 || (0x0300...0x036F).contains(v) || (0x1E00...0x1EFF).contains(v) else { return false }
        if v < 0x80 { return (v | 0x20) &- 0x61 < 26 }
        switch c.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .nonspacingMark: return true
        default: return false
        }
    }

    /// The separators before an extension label: `[ \u00A0\t,]`.
    @inline(__always)
    static func isExtensionSeparator(_ c: Unicode.Scalar) -> Bool {
        c == " " || c == "\u{A0}" || c == "\t" || c == ","
    }

    /// The separators after an extension label: `[ \u00A0\t,-]`.
    @inline(__always)
    static func isAfterLabel(_ c: Unicode.Scalar) -> Bool { isExtensionSeparator(c) || c == "-" }

    /// `[0-9]` in ASCII, for the date and time patterns' `[0-3]`-style classes.
    @inline(__always)
    static func isASCII(_ c: Unicode.Scalar, in range: ClosedRange<UInt32>) -> Bool { range.contains(c.value) }
}

/// The inner patterns (`_INNER_MATCHES`), in the order they are tried.
enum _InnerPattern: CaseIterable {
    /// `/+(.*)`
    case afterSlashes
    /// `(\([^(]*)`
    case fromBracket
    /// `(?:\s-|-\s)\s*(.+)`
    case afterSpacedDash
    /// `[\u2012-\u2015\uFF0D]\s*(.+)`
    case afterLongDash
    /// `\.+\s*([^.]+)`
    case afterDots
    /// `\s+(\S+)`
    case afterSpaces
}

extension _NumberMatcher {
    /// At most this many digits per block, and this many blocks after the first
    /// (`_DIGIT_BLOCK_LIMIT`: the longest national number plus the longest country code).
    static var digitBlockLimit: Int { 20 }

    /// How many of the scalars from `i` (at most `limit`) satisfy `test`.
    @inline(__always)
    func run(from i: Int, limit: Int, _ test: (Unicode.Scalar) -> Bool) -> Int {
        var j = i
        while j < text.count, j - i < limit, test(text[j]) { j += 1 }
        return j - i
    }

    @inline(__always)
    func isDigit(at i: Int, below end: Int? = nil) -> Bool {
        i < (end ?? text.count) && _MatchChars.isDigit(text[i])
    }

    // MARK: - The candidate pattern

    /// `_PATTERN.search(text, index)`: the leftmost candidate at or after `index`.
    func nextCandidate(from index: Int) -> Range<Int>? {
        var p = index
        while p < text.count {
            let c = text[p]
            if _MatchChars.isLead(c) || _MatchChars.isDigit(c), let end = candidateEnd(at: p) { return p..<end }
            p += 1
        }
        return nil
    }

    /// Where `_PATTERN` matched at `p` ends, or nil when it does not match there:
    /// `(?:[lead][punct]{0,4}){0,2}\d{1,20}(?:[punct]{0,4}\d{1,20}){0,20}(?:extension)?`.
    func candidateEnd(at p: Int) -> Int? {
        guard let first = firstDigit(at: p) else { return nil }
        let limit = Self.digitBlockLimit
        var end = first + run(from: first, limit: limit, _MatchChars.isDigit)
        var blocks = 0
        while blocks < limit {
            // Punctuation and digits are disjoint: only the longest run of up to 4 can be
            // followed by a digit.
            let punctuation = end + run(from: end, limit: 4, _MatchChars.isPunctuation)
            guard isDigit(at: punctuation) else { break }
            end = punctuation + run(from: punctuation, limit: limit, _MatchChars.isDigit)
            blocks += 1
        }
        return extensionEnd(at: end) ?? end
    }

    /// Where the first digit block starts when the candidate pattern starts at `p`: the lead
    /// groups `(?:[lead][punct]{0,4}){0,2}` tried as the regex tries them (two groups before
    /// one, longer punctuation first), then no group.
    func firstDigit(at p: Int) -> Int? {
        if _MatchChars.isLead(text[p]) {
            let first = run(from: p + 1, limit: 4, _MatchChars.isPunctuation)
            for k1 in stride(from: first, through: 0, by: -1) {
                let second = p + 1 + k1
                if second < text.count, _MatchChars.isLead(text[second]) {
                    let more = run(from: second + 1, limit: 4, _MatchChars.isPunctuation)
                    for k2 in stride(from: more, through: 0, by: -1) where isDigit(at: second + 1 + k2) {
                        return second + 1 + k2
                    }
                }
                if isDigit(at: second) { return second }
            }
        }
        return isDigit(at: p) ? p : nil
    }

    // MARK: - Extensions (`_EXTN_PATTERNS_FOR_MATCHING`, case-insensitive)

    /// Where the extension that starts at `i` ends, or nil: the RFC 3966 form, an explicit
    /// label, an ambiguous label, then the American "- 503#", in that order.
    func extensionEnd(at i: Int) -> Int? {
        if matches(";ext=", at: i), isDigit(at: i + 5) {
            return i + 5 + run(from: i + 5, limit: 20, _MatchChars.isDigit)
        }
        let label = i + run(from: i, limit: .max, _MatchChars.isExtensionSeparator)
        for end in explicitLabelEnds(at: label) {
            if let e = afterLabel(end, digits: 20) { return e }
        }
        for end in ambiguousLabelEnds(at: label) {
            if let e = afterLabel(end, digits: 9) { return e }
        }
        let dashes = run(from: i, limit: .max) { $0 == "-" || $0 == " " }
        if dashes > 0, isDigit(at: i + dashes) {
            let e = i + dashes + run(from: i + dashes, limit: 6, _MatchChars.isDigit)
            if e < text.count, text[e] == "#" { return e + 1 }
        }
        return nil
    }

    /// `[:\.\uFF0E]?[ \u00A0\t,-]*(\d{1,digits})#?` after a label ending at `i`.
    func afterLabel(_ i: Int, digits: Int) -> Int? {
        var starts = [i]
        if i < text.count, text[i] == ":" || text[i] == "." || text[i] == "\u{FF0E}" { starts.insert(i + 1, at: 0) }
        for start in starts {
            let d = start + run(from: start, limit: .max, _MatchChars.isAfterLabel)
            if isDigit(at: d) {
                let e = d + run(from: d, limit: digits, _MatchChars.isDigit)
                return e < text.count && text[e] == "#" ? e + 1 : e
            }
        }
        return nil
    }

    /// Whether `literal` (lowercase) is at `i`, case-insensitively.
    func matches(_ literal: String, at i: Int) -> Bool {
        var j = i
        for scalar in literal.unicodeScalars {
            guard j < text.count, _Chars.fold(text[j]) == scalar.value else { return false }
            j += 1
        }
        return true
    }

    /// The ends of `(?:e?xt(?:ensi(?:o\u0301?|\u00F3))?n?|\uFF45?\uFF58\uFF54\uFF4E?|\u0434\u043E\u0431|anexo)`
    /// at `i`, in the order backtracking tries them.
    func explicitLabelEnds(at i: Int) -> [Int] {
        var ends: [Int] = []
        func optionalN(_ j: Int, _ n: String) {
            if matches(n, at: j) { ends.append(j + 1) }
            ends.append(j)
        }
        for start in matches("e", at: i) ? [i + 1, i] : [i] where matches("xt", at: start) {
            let g = start + 2
            if matches("ensi", at: g) {
                let h = g + 4
                var groupEnds: [Int] = []
                if matches("o", at: h) {
                    if h + 1 < text.count, text[h + 1] == "\u{301}" { groupEnds.append(h + 2) }
                    groupEnds.append(h + 1)
                }
                if matches("\u{F3}", at: h) { groupEnds.append(h + 1) }
                for end in groupEnds { optionalN(end, "n") }
            }
            optionalN(g, "n")
        }
        for start in matches("\u{FF45}", at: i) ? [i + 1, i] : [i] where matches("\u{FF58}\u{FF54}", at: start) {
            optionalN(start + 2, "\u{FF4E}")
        }
        if matches("\u{434}\u{43E}\u{431}", at: i) { ends.append(i + 3) }
        if matches("anexo", at: i) { ends.append(i + 5) }
        return ends
    }

    /// The ends of `(?:[x\uFF58#\uFF03~\uFF5E]|int|\uFF49\uFF4E\uFF54)` at `i`.
    func ambiguousLabelEnds(at i: Int) -> [Int] {
        guard i < text.count else { return [] }
        switch _Chars.fold(text[i]) {
        case 0x78, 0xFF58, 0x23, 0xFF03, 0x7E, 0xFF5E: return [i + 1]
        default: break
        }
        if matches("int", at: i) || matches("\u{FF49}\u{FF4E}\u{FF54}", at: i) { return [i + 3] }
        return []
    }

    // MARK: - Trimming

    /// `_SECOND_NUMBER_START_PATTERN` (`[\\/] *x`): the candidate's end, cut where a second
    /// number starts.
    func trimAfterSecondNumberStart(_ candidate: Range<Int>) -> Int {
        var i = candidate.lowerBound
        while i < candidate.upperBound {
            if text[i] == "/" || text[i] == "\\" {
                var j = i + 1
                while j < candidate.upperBound, text[j] == " " { j += 1 }
                if j < candidate.upperBound, text[j] == "x" { return i }
            }
            i += 1
        }
        return candidate.upperBound
    }

    /// `_UNWANTED_END_CHAR_PATTERN` (`(?:_|[^#\w])+$`): the range without its trailing
    /// characters that are neither letters, digits nor `#`.
    func trimUnwantedEnd(_ range: Range<Int>) -> Range<Int> {
        var end = range.upperBound
        while end > range.lowerBound {
            let c = text[end - 1]
            guard c == "_" || (c != "#" && !_MatchChars.isWord(c)) else { break }
            end -= 1
        }
        return range.lowerBound..<end
    }

    // MARK: - Exclusions

    /// `_SLASH_SEPARATED_DATES.search`: `(?:(?:[0-3]?\d/[01]?\d)|(?:[01]?\d/[0-3]?\d))/(?:[12]\d)?\d{2}`,
    /// which, unanchored, is a digit, `/`, one digit or `[0-3]` and a digit, `/`, two digits.
    func containsSlashSeparatedDate(_ c: Range<Int>) -> Bool {
        var i = c.lowerBound
        while i + 1 < c.upperBound {
            if text[i + 1] == "/", _MatchChars.isDigit(text[i]) {
                let y = i + 2
                var slash: Int? = nil
                if isDigit(at: y, below: c.upperBound), y + 1 < c.upperBound, text[y + 1] == "/" {
                    slash = y + 1
                } else if y + 2 < c.upperBound, _MatchChars.isASCII(text[y], in: 0x30...0x33),
                          _MatchChars.isDigit(text[y + 1]), text[y + 2] == "/" {
                    slash = y + 2
                }
                if let slash, isDigit(at: slash + 1, below: c.upperBound), isDigit(at: slash + 2, below: c.upperBound) {
                    return true
                }
            }
            i += 1
        }
        return false
    }

    /// `_TIME_STAMPS.search`: the candidate ends in `[12]\d{3}[-/]?[01]\d[-/]?[0-3]\d +[0-2]\d`.
    func endsWithTimeStamp(_ c: Range<Int>) -> Bool {
        let lo = c.lowerBound
        var e = c.upperBound
        /// A digit after `first` (`[0-3]`-style, or nil for `\d`), ending at `e`.
        func digitPair(_ first: ClosedRange<UInt32>?) -> Bool {
            guard e - 2 >= lo, _MatchChars.isDigit(text[e - 1]) else { return false }
            let leading = text[e - 2]
            guard first.map({ _MatchChars.isASCII(leading, in: $0) }) ?? _MatchChars.isDigit(leading) else { return false }
            e -= 2
            return true
        }
        func optionalSeparator() { if e - 1 >= lo, text[e - 1] == "-" || text[e - 1] == "/" { e -= 1 } }
        guard digitPair(0x30...0x32) else { return false }
        let spaces = e
        while e > lo, text[e - 1] == " " { e -= 1 }
        guard e < spaces, digitPair(0x30...0x33) else { return false }
        optionalSeparator()
        guard digitPair(0x30...0x31) else { return false }
        optionalSeparator()
        guard digitPair(nil), digitPair(0x31...0x32) else { return false }
        return true
    }

    /// `_TIME_STAMPS_SUFFIX.match` on the text after the candidate: `:[0-5]\d`.
    func followedByMinutes(_ i: Int) -> Bool {
        i + 2 < text.count && text[i] == ":" && _MatchChars.isASCII(text[i + 1], in: 0x30...0x35) && _MatchChars.isDigit(text[i + 2])
    }

    /// `_PUB_PAGES.search`: `\d{1,5}-+\d{1,5}\s{0,4}\(\d{1,4}`.
    func containsPublicationPages(_ c: Range<Int>) -> Bool {
        var i = c.lowerBound + 1
        while i < c.upperBound {
            if text[i] == "-", text[i - 1] != "-", _MatchChars.isDigit(text[i - 1]) {
                var j = i
                while j < c.upperBound, text[j] == "-" { j += 1 }
                var digits = 0
                while j < c.upperBound, _MatchChars.isDigit(text[j]) { j += 1; digits += 1 }
                var spaces = 0
                while j < c.upperBound, _MatchChars.isSpace(text[j]) { j += 1; spaces += 1 }
                if (1...5).contains(digits), spaces <= 4, j + 1 < c.upperBound, text[j] == "(",
                   _MatchChars.isDigit(text[j + 1]) {
                    return true
                }
            }
            i += 1
        }
        return false
    }

    /// `fullmatch(_MATCHING_BRACKETS, candidate)`: an optional opening bracket, an optional
    /// bracketed-off start, text, at most three bracketed groups and more text; brackets never
    /// nest.
    func hasMatchingBrackets(_ c: Range<Int>) -> Bool {
        // The candidate as tokens: O (opening), C (closing), N (a run of anything else).
        enum Token { case open, close, text }
        var tokens: [Token] = []
        var i = c.lowerBound
        while i < c.upperBound {
            let ch = text[i]
            if _MatchChars.isOpening(ch) {
                tokens.append(.open)
            } else if _MatchChars.isClosing(ch) {
                tokens.append(.close)
            } else if tokens.last != .text {
                tokens.append(.text)
            }
            i += 1
        }
        var k = 0
        func take(_ expected: Token...) -> Bool {
            guard k + expected.count <= tokens.count, Array(tokens[k..<(k + expected.count)]) == expected else { return false }
            k += expected.count
            return true
        }
        _ = take(.open)
        if k + 1 < tokens.count, tokens[k] == .text, tokens[k + 1] == .close { k += 2 }
        guard take(.text) else { return false }
        var groups = 0
        while groups < 3, take(.open, .text, .close) { groups += 1 }
        _ = take(.text)
        return k == tokens.count
    }

    // MARK: - Inner patterns

    /// `pattern.search(candidate, from)`: where the match starts and its group, or nil.
    mutating func innerMatch(_ pattern: _InnerPattern, in c: Range<Int>, from: Int) -> (Int, Range<Int>)? {
        let end = c.upperBound
        var p = from
        while p < end {
            if let group = innerGroup(pattern, at: p, end: end) { return (p, group) }
            p += 1
        }
        return nil
    }

    /// The group of `pattern` matched at `p` (the candidate ends at `end`), or nil.
    mutating func innerGroup(_ pattern: _InnerPattern, at p: Int, end: Int) -> Range<Int>? {
        let space = _MatchChars.isSpace
        /// `\s*(.+)` from `i`: the spaces are given back one when nothing follows them.
        func spacesThenRest(_ i: Int) -> Range<Int>? {
            var j = i
            while j < end, space(text[j]) { j += 1 }
            if j < end { return j..<end }
            return j > i ? (j - 1)..<end : nil
        }
        switch pattern {
        case .afterSlashes:
            guard text[p] == "/" else { return nil }
            var j = p
            while j < end, text[j] == "/" { j += 1 }
            return j..<end
        case .fromBracket:
            guard text[p] == "(" else { return nil }
            var j = p + 1
            while j < end, text[j] != "(" { j += 1 }
            return p..<j
        case .afterSpacedDash:
            guard p + 1 < end, (space(text[p]) && text[p + 1] == "-") || (text[p] == "-" && space(text[p + 1])) else { return nil }
            return spacesThenRest(p + 2)
        case .afterLongDash:
            guard (0x2012...0x2015).contains(text[p].value) || text[p] == "\u{FF0D}" else { return nil }
            return spacesThenRest(p + 1)
        case .afterDots:
            guard text[p] == "." else { return nil }
            var dots = p
            while dots < end, text[dots] == "." { dots += 1 }
            var j = dots
            while j < end, space(text[j]) { j += 1 }
            // `[^.]+` from the end of the spaces, or from a space given back.
            for start in [j, j - 1] where start >= dots && start < end && text[start] != "." {
                var k = start
                while k < end, text[k] != "." { k += 1 }
                return start..<k
            }
            return nil
        case .afterSpaces:
            guard space(text[p]) else { return nil }
            // Every position of a run of spaces matches with the same group: the run and the
            // group are found once per run (`spaceRun`), so that a long run (extension
            // separators are unbounded) costs no more than its length.
            if !spaceRun.run.contains(p) || spaceRun.run.upperBound > end {
                var j = p
                while j < end, space(text[j]) { j += 1 }
                var k = j
                while k < end, !space(text[k]) { k += 1 }
                spaceRun = (p..<j, j..<k)
            }
            return spaceRun.group.isEmpty ? nil : spaceRun.group
        }
    }
}
