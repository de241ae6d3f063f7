extension PhoneNumberEngine {
    /// The number of candidates ``findNumbers(in:defaultRegion:leniency:maxTries:)`` tries by
    /// default before it gives up on a text (libphonenumber's default, 65,535).
    public static var defaultMaxTries: Int { 65_535 }

    /// Finds the phone numbers in a text, as libphonenumber's `PhoneNumberMatcher` does.
    ///
    /// The text is scanned for runs of digits with the punctuation of phone numbers between them
    /// (at most 20 blocks), optionally led by `+` or an opening bracket and followed by an
    /// extension. A run is cut before a second number (`/ x...`); slash-separated dates,
    /// timestamps (`2012-01-02 08:00`) and publication pages (`211-227 (2003)`) are skipped;
    /// brackets must pair up. A run that does not parse or pass `leniency` is split at slashes,
    /// brackets, dashes, dots and spaces, and the parts tried in turn. From `.valid` on, a number
    /// right after or before a Latin letter, `%` or a currency sign is refused ("$650 253 0000",
    /// "abc650 253 0000").
    ///
    /// ```swift
    /// let engine = PhoneNumberEngine()
    /// let text = "Call +1 650-253-0000 or (650) 253 0000 before 2023/11/05."
    /// for match in engine.findNumbers(in: text, defaultRegion: "US") {
    ///     print(match.range, match.rawString, engine.formatE164(match.number))
    /// }
    /// // 5..<20 +1 650-253-0000 +16502530000
    /// // 24..<38 (650) 253 0000 +16502530000
    /// ```
    ///
    /// Differences from the oracle: the alternate formats libphonenumber also accepts when it
    /// checks grouping (`PhoneNumberAlternateFormats`, data this package does not ship) are not
    /// tried, so `.strictGrouping` and `.exactGrouping` can refuse a number the oracle finds
    /// (the oracle fixture marks those rows: 16 of its 22,936 matches at those levels).
    ///
    /// - Parameters:
    ///   - text: Any text. Offsets in the result count its Unicode scalars and its UTF-8 bytes.
    ///   - defaultRegion: The region of numbers written without an international prefix; `nil`
    ///     (or an unknown region) finds only numbers written with `+` and the country code.
    ///   - leniency: How strictly candidates are checked (default `.valid`).
    ///   - maxTries: How many candidates may fail before the search stops (default 65,535,
    ///     negative values count as 0): the bound that keeps the work linear on hostile text.
    /// - Returns: The matches in text order; they never overlap.
    /// - Complexity: O(n) in the length of the text: each candidate is at most about 550
    ///   scalars, and each character is scanned a bounded number of times.
    public func findNumbers(
        in text: String, defaultRegion: RegionCode?, leniency: PhoneNumberLeniency = .valid,
        maxTries: Int = PhoneNumberEngine.defaultMaxTries
    ) -> [PhoneNumberMatch] {
        let scalars = Array(text.unicodeScalars)
        var matcher = _NumberMatcher(engine: self, text: scalars, region: defaultRegion, leniency: leniency,
                                     maxTries: max(maxTries, 0))
        var found: [(Range<Int>, PhoneNumber)] = []
        var index = 0
        while let (range, number) = matcher.find(from: index) {
            found.append((range, number))
            index = range.upperBound
        }
        // UTF-8 offsets: one walk over the text up to the last match.
        var result: [PhoneNumberMatch] = []
        result.reserveCapacity(found.count)
        var scalarIndex = 0, byteIndex = 0
        func advance(to target: Int) -> Int {
            while scalarIndex < target {
                byteIndex += UTF8.width(scalars[scalarIndex])
                scalarIndex += 1
            }
            return byteIndex
        }
        for (range, number) in found {
            let start = advance(to: range.lowerBound), end = advance(to: range.upperBound)
            var raw = String.UnicodeScalarView()
            raw.append(contentsOf: scalars[range])
            result.append(PhoneNumberMatch(range: range, utf8Range: start..<end, rawString: String(raw), number: number))
        }
        return result
    }

    /// ``findNumbers(in:defaultRegion:leniency:maxTries:)`` over UTF-8 bytes; invalid UTF-8 is
    /// read as U+FFFD (one scalar, three bytes in ``PhoneNumberMatch/utf8Range``, which then
    /// counts the repaired text), and can never be part of a number.
    public func findNumbers(
        inUTF8 bytes: some Collection<UInt8>, defaultRegion: RegionCode?, leniency: PhoneNumberLeniency = .valid,
        maxTries: Int = PhoneNumberEngine.defaultMaxTries
    ) -> [PhoneNumberMatch] {
        findNumbers(in: String(decoding: bytes, as: UTF8.self), defaultRegion: defaultRegion, leniency: leniency,
                    maxTries: maxTries)
    }
}

/// libphonenumber's `PhoneNumberMatcher` over a text held as Unicode scalars (Python's string
/// model, so that offsets are the oracle's). The candidate pattern and the other regular
/// expressions are hand-written scanners (_MatcherPatterns.swift) that give what Python's `re`
/// gives for them; the checks per leniency are in _MatcherVerification.swift.
struct _NumberMatcher {
    let engine: PhoneNumberEngine
    let text: [Unicode.Scalar]
    let region: RegionCode?
    let leniency: PhoneNumberLeniency
    /// Candidates that may still fail before the search gives up.
    var triesLeft: Int
    /// The last run of spaces `_InnerPattern.afterSpaces` read and the group after it.
    var spaceRun: (run: Range<Int>, group: Range<Int>) = (0..<0, 0..<0)

    init(engine: PhoneNumberEngine, text: [Unicode.Scalar], region: RegionCode?, leniency: PhoneNumberLeniency, maxTries: Int) {
        self.engine = engine
        self.text = text
        self.region = region
        self.leniency = leniency
        self.triesLeft = maxTries
    }

    /// `_find`: the next match at or after `index`.
    mutating func find(from index: Int) -> (Range<Int>, PhoneNumber)? {
        var index = index
        while triesLeft > 0, let found = nextCandidate(from: index) {
            let end = trimAfterSecondNumberStart(found)
            if end > found.lowerBound {
                if let match = extractMatch(found.lowerBound..<end) { return match }
                triesLeft -= 1
            }
            index = max(end, found.lowerBound + 1)
        }
        return nil
    }

    /// `_extract_match`: dates and timestamps are skipped; the whole candidate is tried, then
    /// its parts.
    mutating func extractMatch(_ candidate: Range<Int>) -> (Range<Int>, PhoneNumber)? {
        if containsSlashSeparatedDate(candidate) { return nil }
        if endsWithTimeStamp(candidate), followedByMinutes(candidate.upperBound) { return nil }
        if let match = parseAndVerify(candidate) { return match }
        return extractInnerMatch(candidate)
    }

    /// `_extract_inner_match`: the parts of a candidate split by each of the inner patterns in
    /// turn (the part before the first split point, then each part after one).
    mutating func extractInnerMatch(_ candidate: Range<Int>) -> (Range<Int>, PhoneNumber)? {
        spaceRun = (0..<0, 0..<0)
        for pattern in _InnerPattern.allCases {
            var isFirst = true
            var found = innerMatch(pattern, in: candidate, from: candidate.lowerBound)
            while let (matchStart, group) = found, triesLeft > 0 {
                if isFirst {
                    let before = trimUnwantedEnd(candidate.lowerBound..<matchStart)
                    if let match = parseAndVerify(before) { return match }
                    triesLeft -= 1
                    isFirst = false
                }
                if let match = parseAndVerify(trimUnwantedEnd(group)) { return match }
                triesLeft -= 1
                found = innerMatch(pattern, in: candidate, from: matchStart + 1)
            }
        }
        return nil
    }

    /// `_parse_and_verify`: brackets pair up, no publication pages, (from `.valid`) no Latin
    /// letter or currency sign right before or after, it parses and passes the leniency.
    func parseAndVerify(_ candidate: Range<Int>) -> (Range<Int>, PhoneNumber)? {
        // Longer input never parses (the parser refuses it as too long): not worth a look.
        guard candidate.count <= PhoneNumberEngine.maxInputLength else { return nil }
        guard hasMatchingBrackets(candidate), !containsPublicationPages(candidate) else { return nil }
        if leniency >= .valid {
            if candidate.lowerBound > 0, !_MatchChars.isLead(text[candidate.lowerBound]) {
                let previous = text[candidate.lowerBound - 1]
                if _MatchChars.isInvalidPunctuation(previous) || _MatchChars.isLatinLetter(previous) { return nil }
            }
            if candidate.upperBound < text.count {
                let next = text[candidate.upperBound]
                if _MatchChars.isInvalidPunctuation(next) || _MatchChars.isLatinLetter(next) { return nil }
            }
        }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: text[candidate])
        guard let number = try? engine.parse(String(view), defaultRegion: region) else { return nil }
        return verify(number, candidate) ? (candidate, number) : nil
    }
}
