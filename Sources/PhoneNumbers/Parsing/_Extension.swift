// libphonenumber's extension patterns for parsing (`_EXTN_PATTERNS_FOR_PARSING`), matched by hand
// over Unicode scalars with the same IGNORECASE semantics. Every alternative ends in a run of
// digits and an optional '#', so what is captured is always the trailing digit run; the
// alternatives differ in the label before it and in how many digits they allow.

typealias _Scalars = UnsafeBufferPointer<Unicode.Scalar>

enum _Extension {
    /// Whether one of the extension alternatives matches `s[start..<end]` entirely; returns the
    /// range of the captured digits.
    static func match(_ s: _Scalars, _ start: Int, _ end: Int) -> Range<Int>? {
        guard start < end else { return nil }
        return match(s, start, end, runStart: trailingRunStart(s, end))
    }

    /// Where the run of digits at the end of `s[..<end]` (before an optional final '#') starts:
    /// the same for every start a search tries, so found once.
    static func trailingRunStart(_ s: _Scalars, _ end: Int) -> Int {
        var i = end
        if i > 0, s[i - 1] == "#" { i -= 1 }
        while i > 0, _UnicodeClasses.isDecimal(s[i - 1]) { i -= 1 }
        return i
    }

    /// ``match(_:_:_:)`` with the trailing digit run's start already known.
    static func match(_ s: _Scalars, _ start: Int, _ end: Int, runStart: Int) -> Range<Int>? {
        guard start < end else { return nil }
        // The trailing digit run, before an optional final '#'.
        var digitsEnd = end
        let hashEnded = s[end - 1] == "#"
        if hashEnded { digitsEnd -= 1 }
        let digitsStart = max(runStart, start)
        let digitCount = digitsEnd - digitsStart
        guard digitCount > 0 else { return nil }
        let digits = digitsStart..<digitsEnd

        // 1. RFC 3966: ";ext=" digits{1,20}, no '#'.
        if !hashEnded, digitCount <= 20, digitsStart - start == 5,
           s[start] == ";", _Chars.fold(s[start + 1]) == 0x65, _Chars.fold(s[start + 2]) == 0x78,
           _Chars.fold(s[start + 3]) == 0x74, s[start + 4] == "=" {
            return digits
        }
        // 2. Explicit labels: separators, label, chars after label, digits{1,20}, '#'?
        if digitCount <= 20 {
            let j = skip(s, start, digitsStart, isSeparatorWithComma)
            if let k = explicitLabel(s, j, digitsStart), charsAfterLabel(s, k, digitsStart) { return digits }
        }
        // 3. Ambiguous labels: x ｘ # ＃ ~ ～ int ｉｎｔ, digits{1,9}, '#'?
        if digitCount <= 9 {
            let j = skip(s, start, digitsStart, isSeparatorWithComma)
            if let k = ambiguousLabel(s, j, digitsStart), charsAfterLabel(s, k, digitsStart) { return digits }
        }
        // 4. American style: [- ]+ digits{1,6} '#'.
        if hashEnded, digitCount <= 6, digitsStart > start {
            var allDashOrSpace = true
            for i in start..<digitsStart where s[i] != "-" && s[i] != " " { allDashOrSpace = false; break }
            if allDashOrSpace { return digits }
        }
        // 5. Auto-dialling: [ \u00A0\t]* (",," | ";") chars after label, digits{1,15}, '#'?
        // 6. Only commas: [ \u00A0\t]* ","+ chars after label, digits{1,9}, '#'?
        let j = skip(s, start, digitsStart, isSeparatorNoComma)
        if j < digitsStart {
            if digitCount <= 15 {
                if s[j] == ";", charsAfterLabel(s, j + 1, digitsStart) { return digits }
                if j + 1 < digitsStart, s[j] == ",", s[j + 1] == ",", charsAfterLabel(s, j + 2, digitsStart) { return digits }
            }
            if digitCount <= 9, s[j] == "," {
                var k = j
                while k < digitsStart, s[k] == "," { k += 1 }
                // The commas may also be taken by the chars after the label; either way this holds.
                if charsAfterLabel(s, k, digitsStart) { return digits }
            }
        }
        return nil
    }

    /// Finds the leftmost start from which an extension matches to the end (or to just before a
    /// final newline, as Python's `$` allows), as `_EXTN_PATTERN.search` does.
    static func search(_ s: _Scalars, _ count: Int) -> (start: Int, digits: Range<Int>)? {
        guard count > 0 else { return nil }
        let lastIsNewline = s[count - 1] == "\n"
        let end = lastIsNewline ? count - 1 : count
        // Every alternative ends with digits and an optional '#' and has a label or separator
        // before them: an extension can only start before the trailing digit run, at a character
        // that can begin an alternative.
        guard end > 0 else { return nil }
        let digitsEnd = s[end - 1] == "#" ? end - 1 : end
        let digitsStart = trailingRunStart(s, end)
        guard digitsStart < digitsEnd, digitsStart > 0 else { return nil }
        // No alternative has a decimal digit before its trailing run (labels, separators and
        // ';', ',', '#', '~', '=' only): an extension starts after the last digit before the run,
        // in the few characters between the number and the extension's digits.
        var first = digitsStart - 1  // not a digit: the run starts at digitsStart
        while first > 0, !_UnicodeClasses.isDecimal(s[first - 1]) { first -= 1 }
        // Every alternative but the '#'-ended American one has a label character (a letter of a
        // label, '#', '~', ';' or ','), not only separators: without one, nothing can match.
        if digitsEnd == end {
            var label = false
            for i in first..<digitsStart where canStart(s[i]) && !isSeparatorNoComma(s[i]) && s[i] != "-" {
                label = true
                break
            }
            if !label { return nil }
        }
        // With a final newline the whole input ends in no digit run (that match fails at once);
        // the run before the newline is the one found above.
        let run = lastIsNewline ? count : digitsStart
        for start in first..<digitsStart where canStart(s[start]) {
            if let digits = match(s, start, count, runStart: run) { return (start, digits) }
            if lastIsNewline, let digits = match(s, start, count - 1, runStart: digitsStart) { return (start, digits) }
        }
        return nil
    }

    /// Characters that can begin one of the alternatives (separators, ';', '-', label letters).
    @inline(__always)
    static func canStart(_ c: Unicode.Scalar) -> Bool {
        // ASCII by a bit mask: the switch below is an indirect jump, mispredicted on every
        // change of character class (a test checks the mask against it).
        let v = c.value
        if v < 0x40 { return (asciiCanStartLow &>> UInt64(v)) & 1 != 0 }
        if v < 0x80 { return (asciiCanStartHigh &>> UInt64(v &- 0x40)) & 1 != 0 }
        return canStartBySwitch(c)
    }

    /// `canStartBySwitch` of 0x00...0x3F (tab, space, `#`, `,`, `-`, `;`) and of 0x40...0x7F
    /// (`A` `E` `I` `X`, `a` `e` `i` `x`, `~`), one bit per character.
    static var asciiCanStartLow: UInt64 { 1 << 0x09 | 1 << 0x20 | 1 << 0x23 | 1 << 0x2C | 1 << 0x2D | 1 << 0x3B }
    static var asciiCanStartHigh: UInt64 {
        1 << 0x01 | 1 << 0x05 | 1 << 0x09 | 1 << 0x18 | 1 << 0x21 | 1 << 0x25 | 1 << 0x29 | 1 << 0x38 | 1 << 0x3E
    }

    @inline(__always)
    static func canStartBySwitch(_ c: Unicode.Scalar) -> Bool {
        switch _Chars.fold(c) {
        case 0x20, 0xA0, 0x09, 0x2C, 0x3B, 0x2D, 0x23, 0x7E,           // space nbsp tab , ; - # ~
             0x65, 0x78, 0x61, 0x69,                                   // e x a i
             0xFF45, 0xFF58, 0xFF03, 0xFF5E, 0xFF49, 0x434:            // ｅ ｘ ＃ ～ ｉ д
            return true
        default:
            return false
        }
    }

    @inline(__always)
    static func isSeparatorWithComma(_ c: Unicode.Scalar) -> Bool {
        c == " " || c == "\u{A0}" || c == "\t" || c == ","
    }

    @inline(__always)
    static func isSeparatorNoComma(_ c: Unicode.Scalar) -> Bool {
        c == " " || c == "\u{A0}" || c == "\t"
    }

    static func skip(_ s: _Scalars, _ from: Int, _ end: Int, _ predicate: (Unicode.Scalar) -> Bool) -> Int {
        var i = from
        while i < end, predicate(s[i]) { i += 1 }
        return i
    }

    /// `[:\.．]?[ \u00A0\t,-]*` must take everything in `from..<end`.
    static func charsAfterLabel(_ s: _Scalars, _ from: Int, _ end: Int) -> Bool {
        var i = from
        if i < end, s[i] == ":" || s[i] == "." || s[i] == "\u{FF0E}" { i += 1 }
        while i < end {
            let c = s[i]
            guard c == " " || c == "\u{A0}" || c == "\t" || c == "," || c == "-" else { return false }
            i += 1
        }
        return true
    }

    /// Matches three lower-case scalars at `i` case-insensitively; returns the end or nil.
    @inline(__always)
    static func literal3(_ s: _Scalars, _ i: Int, _ end: Int, _ a: UInt32, _ b: UInt32, _ c: UInt32) -> Int? {
        guard end - i >= 3, _Chars.fold(s[i]) == a, _Chars.fold(s[i + 1]) == b, _Chars.fold(s[i + 2]) == c else { return nil }
        return i + 3
    }

    /// `(?:e?xt(?:ensi(?:o\u0301?|\u00F3))?n?|\uFF45?\uFF58\uFF54\uFF4E?|\u0434\u043E\u0431|anexo)`
    static func explicitLabel(_ s: _Scalars, _ i: Int, _ end: Int) -> Int? {
        func at(_ k: Int) -> UInt32 { k < end ? _Chars.fold(s[k]) : 0 }
        // e?xt(ensi(o\u0301?|ó))?n?
        var k = i
        if at(k) == 0x65, at(k + 1) == 0x78 { k += 1 }
        if at(k) == 0x78, at(k + 1) == 0x74 {
            k += 2
            if at(k) == 0x65, at(k + 1) == 0x6E, at(k + 2) == 0x73, at(k + 3) == 0x69 {
                if at(k + 4) == 0x6F {
                    k += 5
                    if at(k) == 0x301 { k += 1 }
                } else if at(k + 4) == 0xF3 {
                    k += 5
                }
            }
            if at(k) == 0x6E { k += 1 }
            return k
        }
        // ｅ?ｘｔｎ?
        k = i
        if at(k) == 0xFF45, at(k + 1) == 0xFF58 { k += 1 }
        if at(k) == 0xFF58, at(k + 1) == 0xFF54 {
            k += 2
            if at(k) == 0xFF4E { k += 1 }
            return k
        }
        if let k = literal3(s, i, end, 0x434, 0x43E, 0x431) { return k }
        if let k = literal3(s, i, end, 0x61, 0x6E, 0x65), let m = literal3(s, k - 1, end, 0x65, 0x78, 0x6F) { return m }
        return nil
    }

    /// `(?:[x\uFF58#\uFF03~\uFF5E]|int|\uFF49\uFF4E\uFF54)`
    static func ambiguousLabel(_ s: _Scalars, _ i: Int, _ end: Int) -> Int? {
        guard i < end else { return nil }
        switch _Chars.fold(s[i]) {
        case 0x78, 0xFF58, 0x23, 0xFF03, 0x7E, 0xFF5E: return i + 1
        default: break
        }
        if let k = literal3(s, i, end, 0x69, 0x6E, 0x74) { return k }
        if let k = literal3(s, i, end, 0xFF49, 0xFF4E, 0xFF54) { return k }
        return nil
    }
}
