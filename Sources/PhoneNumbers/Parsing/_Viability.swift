// `_is_viable_phone_number`: a full match of `_VALID_PHONE_NUMBER_PATTERN`, that is
//   \d{2} | [+＋]*(?:[P*]*\d){3,}[P*A-Za-z\d]* (extension)?
// under IGNORECASE, where P is libphonenumber's punctuation.

enum _Viability {
    static func isViable(_ s: _Scalars, _ count: Int) -> Bool {
        if count < 2 { return false }
        if count == 2, _UnicodeClasses.isDecimal(s[0]), _UnicodeClasses.isDecimal(s[1]) { return true }
        var i = 0
        while i < count, _Chars.isPlus(s[i]) { i += 1 }
        var digits = 0
        while i < count {
            let c = s[i]
            let isDigit = _UnicodeClasses.isDecimal(c)
            if digits < 3 {
                guard isDigit || c == "*" || _Chars.isPunctuation(c) else { return false }
            } else if !(isDigit || c == "*" || _Chars.isPunctuation(c) || _Chars.isAlphaIgnoringCase(c)) {
                // The main part ends here at the latest: the rest must be an extension, starting
                // at this character or at an earlier candidate.
                return extensionFollows(s, from: i, count: count)
            }
            if isDigit { digits += 1 }
            i += 1
        }
        if digits < 3 { return false }
        return true
    }

    /// Whether an extension matches `s[k..<count]` for some split `k` at or before `limit` where
    /// the main part (already known valid up to `limit`, with at least 3 digits) can end.
    private static func extensionFollows(_ s: _Scalars, from limit: Int, count: Int) -> Bool {
        // The main part must contain 3 digits: find where the third digit ends.
        var i = 0
        while i < count, _Chars.isPlus(s[i]) { i += 1 }
        var digits = 0
        var firstSplit = count
        while i < limit {
            if _UnicodeClasses.isDecimal(s[i]) {
                digits += 1
                if digits == 3 { firstSplit = i + 1; break }
            }
            i += 1
        }
        guard firstSplit <= limit else { return false }
        var k = limit
        while k >= firstSplit {
            if _Extension.match(s, k, count) != nil { return true }
            k -= 1
        }
        return false
    }
}
