// `_is_viable_phone_number`: a full match of `_VALID_PHONE_NUMBER_PATTERN`, that is
//   \d{2} | [+＋]*(?:[P*]*\d){3,}[P*A-Za-z\d]* (extension)?
// under IGNORECASE, where P is libphonenumber's punctuation.

enum _Viability {
    static func isViable(_ s: _Scalars, _ count: Int) -> Bool {
        var scan = Scan()
        return isViable(s, count, scan: &scan)
    }

    /// What a viability scan that read the whole number learnt on the way; -1 for each when it
    /// stopped before the end (an extension, or not viable).
    struct Scan {
        /// The characters with the letter bit of ``classBits(_:)`` (for ASCII exactly the ASCII
        /// letters).
        var letters = -1
        /// Where the main part's third digit ends.
        var afterThirdDigit = -1
    }

    /// ``isViable(_:_:)``, also filling in `scan`.
    @inline(__always)
    static func isViable(_ s: _Scalars, _ count: Int, scan: inout Scan) -> Bool {
        guard let (stop, thirdDigitEnd) = scanMainPart(s, count, scan: &scan) else { return false }
        return stop == count || extensionFollows(s, from: stop, thirdDigitEnd: thirdDigitEnd, count: count)
    }

    /// ``isViable(_:_:scan:)`` and, when `searchExtension`, the extension (`_Extension.search`),
    /// kept only when the number before it is viable (``prefixIsViable(_:_:scan:)``): what the
    /// parse needs. A number whose main part stops before its end is viable only with an
    /// extension; the leftmost one, found by the search anyway, mostly settles that too.
    /// `ascii` says that every scalar of `s` is ASCII (``_InputFlags``): the scan then reads the
    /// class table without testing each scalar's range.
    @inline(__always)
    static func check(
        _ s: _Scalars, _ count: Int, searchExtension: Bool, scan: inout Scan, ascii: Bool = false
    ) -> (viable: Bool, extension: (start: Int, digits: Range<Int>)?) {
        guard let (stop, thirdDigitEnd) = scanMainPart(s, count, scan: &scan, ascii: ascii) else { return (false, nil) }
        // An ASCII number read whole without a letter (`x` included) has no label character but
        // perhaps `~` (`#`, `,`, `;` and a line feed end the main part): without one, no
        // alternative can match. Typically a `tel:` URI whose letters were in the parts cut off.
        var search = searchExtension
        if search, ascii, stop == count, scan.letters == 0 {
            search = false
            for i in 0..<count where s[i] == "~" { search = true; break }
        }
        let found = search ? _Extension.search(s, count) : nil
        if stop == count {
            guard let found, prefixIsViable(s, found.start, scan: scan) else { return (true, nil) }
            return (true, found)
        }
        // Viable when an extension starts at a split after the third digit and at or before
        // `stop`. Without a final line feed (after which the search also tries the end before
        // it) the search tried the same starts and ends: none found, or the leftmost after
        // `stop`, means no split has one; the leftmost in that range is a split that has one,
        // and the number before it is viable.
        if searchExtension, s[count - 1] != "\n" {
            guard let found, found.start <= stop else { return (false, nil) }
            if found.start >= thirdDigitEnd { return (true, found) }
        }
        guard extensionFollows(s, from: stop, thirdDigitEnd: thirdDigitEnd, count: count) else { return (false, nil) }
        guard let found, isViable(s, found.start) else { return (true, nil) }
        return (true, found)
    }

    /// The pattern's main part from the start: nil when it fails before its third digit,
    /// else where it stops (`count` when it takes everything, filling in `scan`) and where its
    /// third digit ends.
    @inline(__always)
    private static func scanMainPart(
        _ s: _Scalars, _ count: Int, scan: inout Scan, ascii: Bool = false
    ) -> (stop: Int, thirdDigitEnd: Int)? {
        if ascii { return scanMainPartASCII(s, count, scan: &scan) }
        scan = Scan()
        if count < 2 { return nil }
        if count == 2, _UnicodeClasses.isDecimal(s[0]), _UnicodeClasses.isDecimal(s[1]) { return (count, count) }
        var i = 0
        while i < count, _Chars.isPlus(s[i]) { i += 1 }
        // Up to the third digit: digits, '*' and punctuation (which has the letters 'x' and 'X').
        var digits = 0
        var seen = 0
        while digits < 3 {
            guard i < count else { return nil }
            let bits = classBits(s[i])
            if bits & 0b0111 == 0 { return nil }
            digits &+= Int(bits & 1)
            seen &+= Int(bits &>> 3 & 1)
            i += 1
        }
        let thirdDigitEnd = i
        // After it letters too (two loops: no test of the digit count per character).
        while i < count {
            let bits = classBits(s[i])
            // The main part ends here at the latest: the rest must be an extension, starting
            // at this character or at an earlier candidate.
            if bits & 0b1111 == 0 { return (i, thirdDigitEnd) }
            seen &+= Int(bits &>> 3 & 1)
            i += 1
        }
        scan.letters = seen
        scan.afterThirdDigit = thirdDigitEnd
        return (count, thirdDigitEnd)
    }

    /// ``scanMainPart(_:_:scan:ascii:)`` for all-ASCII `s`: the same loops over the table's raw
    /// bytes ("@" plus the bits; the tests mask the bits, and a letter adds 8 plus its bit to
    /// the shifted sum), with no test of each scalar's range and no subtraction, which ASCII
    /// cannot need.
    @inline(__always)
    private static func scanMainPartASCII(_ s: _Scalars, _ count: Int, scan: inout Scan) -> (stop: Int, thirdDigitEnd: Int)? {
        scan = Scan()
        if count < 2 { return nil }
        if count == 2, _UnicodeClasses.isDecimal(s[0]), _UnicodeClasses.isDecimal(s[1]) { return (count, count) }
        let table = asciiClassBits.utf8Start
        var i = 0
        while i < count, s[i] == "+" { i += 1 }
        var digits = 0
        var shifted = 0  // the sum of raw >> 3: 8 per character read plus its letter bit
        let first = i
        while digits < 3 {
            guard i < count else { return nil }
            let raw = table[Int(s[i].value)]
            if raw & 0b0111 == 0 { return nil }
            digits &+= Int(raw & 1)
            shifted &+= Int(raw &>> 3)
            i += 1
        }
        let thirdDigitEnd = i
        while i < count {
            let raw = table[Int(s[i].value)]
            if raw & 0b1111 == 0 { return (i, thirdDigitEnd) }
            shifted &+= Int(raw &>> 3)
            i += 1
        }
        scan.letters = shifted &- 8 &* (count &- first)
        scan.afterThirdDigit = thirdDigitEnd
        return (count, thirdDigitEnd)
    }

    /// Whether `s[..<end]` is viable, `end` not beyond the whole number that `scan` read: its
    /// characters passed the same tests in the same places, so only the digits count (at least
    /// three, or exactly two characters that are both digits).
    @inline(__always)
    static func prefixIsViable(_ s: _Scalars, _ end: Int, scan: Scan) -> Bool {
        if scan.afterThirdDigit < 0 { return isViable(s, end) }
        if end == 2 { return _UnicodeClasses.isDecimal(s[0]) && _UnicodeClasses.isDecimal(s[1]) }
        return end >= scan.afterThirdDigit
    }

    /// What the pattern asks of a character, as bits: 1 a decimal digit, 2 `*`, 4 punctuation
    /// (`_Chars.isPunctuation`), 8 a letter (`_Chars.isAlphaIgnoringCase`). ASCII from a table:
    /// one load where the tests are a branch each.
    @inline(__always)
    static func classBits(_ c: Unicode.Scalar) -> UInt8 {
        if c.value < 0x80 { return asciiClassBits.utf8Start[Int(c.value)] &- 0x40 }
        return (_UnicodeClasses.isDecimal(c) ? 1 : 0) | (_Chars.isPunctuation(c) ? 4 : 0)
            | (_Chars.isAlphaIgnoringCase(c) ? 8 : 0)
    }

    /// `classBits` of the ASCII characters 0x00...0x7F, each as "@" (0x40) plus its bits
    /// (a test compares it with the tests it replaces).
    static var asciiClassBits: StaticString {
        "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@D@@@@@@@DDB@@DDDAAAAAAAAAA@@@@@@@HHHHHHHHHHHHHHHHHHHHHHHLHHD@D@@@HHHHHHHHHHHHHHHHHHHHHHHLHH@@@D@"
    }

    /// Whether an extension matches `s[k..<count]` for some split `k` at or before `limit` where
    /// the main part (already known valid up to `limit`) can end: after its third digit, which
    /// ends at `thirdDigitEnd`.
    private static func extensionFollows(_ s: _Scalars, from limit: Int, thirdDigitEnd firstSplit: Int, count: Int) -> Bool {
        var k = limit
        let run = _Extension.trailingRunStart(s, count)
        // As in `_Extension.search`: an alternative starts at a character that can begin one and
        // has no decimal digit before the trailing run, so a digit before the run ends the search.
        while k >= firstSplit {
            let c = s[k]
            if k < run, _UnicodeClasses.isDecimal(c) { return false }
            if _Extension.canStart(c), _Extension.match(s, k, count, runStart: run) != nil { return true }
            k -= 1
        }
        return false
    }
}
