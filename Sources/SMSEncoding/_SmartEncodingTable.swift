/// Lookalike replacements for smart encoding: a character that GSM 7-bit lacks, and the GSM
/// default-alphabet text that looks the same (empty: remove an invisible character). Sorted by
/// source; fullwidth ASCII (U+FF01-U+FF5E) is handled in code. Written for this project.
package let _smartReplacements: [(source: UInt32, replacement: (UInt8, UInt8, UInt8))] = [
    (0x0009, (0x20, 0, 0)),      // CHARACTER TABULATION -> space
    (0x0060, (0x27, 0, 0)),      // GRAVE ACCENT -> '
    (0x00A0, (0x20, 0, 0)),      // NO-BREAK SPACE
    (0x00AB, (0x22, 0, 0)),      // LEFT-POINTING DOUBLE ANGLE QUOTATION MARK -> "
    (0x00AD, (0, 0, 0)),         // SOFT HYPHEN -> removed
    (0x00B4, (0x27, 0, 0)),      // ACUTE ACCENT -> '
    (0x00BB, (0x22, 0, 0)),      // RIGHT-POINTING DOUBLE ANGLE QUOTATION MARK -> "
    (0x02BB, (0x27, 0, 0)),      // MODIFIER LETTER TURNED COMMA -> '
    (0x02BC, (0x27, 0, 0)),      // MODIFIER LETTER APOSTROPHE -> '
    (0x02C6, (0x5E, 0, 0)),      // MODIFIER LETTER CIRCUMFLEX ACCENT -> ^
    (0x02DC, (0x7E, 0, 0)),      // SMALL TILDE -> ~
    (0x1680, (0x20, 0, 0)),      // OGHAM SPACE MARK
    (0x2000, (0x20, 0, 0)),      // EN QUAD
    (0x2001, (0x20, 0, 0)),      // EM QUAD
    (0x2002, (0x20, 0, 0)),      // EN SPACE
    (0x2003, (0x20, 0, 0)),      // EM SPACE
    (0x2004, (0x20, 0, 0)),      // THREE-PER-EM SPACE
    (0x2005, (0x20, 0, 0)),      // FOUR-PER-EM SPACE
    (0x2006, (0x20, 0, 0)),      // SIX-PER-EM SPACE
    (0x2007, (0x20, 0, 0)),      // FIGURE SPACE
    (0x2008, (0x20, 0, 0)),      // PUNCTUATION SPACE
    (0x2009, (0x20, 0, 0)),      // THIN SPACE
    (0x200A, (0x20, 0, 0)),      // HAIR SPACE
    (0x200B, (0, 0, 0)),         // ZERO WIDTH SPACE -> removed
    (0x2010, (0x2D, 0, 0)),      // HYPHEN
    (0x2011, (0x2D, 0, 0)),      // NON-BREAKING HYPHEN
    (0x2012, (0x2D, 0, 0)),      // FIGURE DASH
    (0x2013, (0x2D, 0, 0)),      // EN DASH
    (0x2014, (0x2D, 0, 0)),      // EM DASH
    (0x2015, (0x2D, 0, 0)),      // HORIZONTAL BAR
    (0x2018, (0x27, 0, 0)),      // LEFT SINGLE QUOTATION MARK
    (0x2019, (0x27, 0, 0)),      // RIGHT SINGLE QUOTATION MARK
    (0x201A, (0x27, 0, 0)),      // SINGLE LOW-9 QUOTATION MARK
    (0x201B, (0x27, 0, 0)),      // SINGLE HIGH-REVERSED-9 QUOTATION MARK
    (0x201C, (0x22, 0, 0)),      // LEFT DOUBLE QUOTATION MARK
    (0x201D, (0x22, 0, 0)),      // RIGHT DOUBLE QUOTATION MARK
    (0x201E, (0x22, 0, 0)),      // DOUBLE LOW-9 QUOTATION MARK
    (0x201F, (0x22, 0, 0)),      // DOUBLE HIGH-REVERSED-9 QUOTATION MARK
    (0x2024, (0x2E, 0, 0)),      // ONE DOT LEADER
    (0x2026, (0x2E, 0x2E, 0x2E)), // HORIZONTAL ELLIPSIS -> ...
    (0x2028, (0x0A, 0, 0)),      // LINE SEPARATOR -> LF
    (0x2029, (0x0A, 0, 0)),      // PARAGRAPH SEPARATOR -> LF
    (0x202F, (0x20, 0, 0)),      // NARROW NO-BREAK SPACE
    (0x2032, (0x27, 0, 0)),      // PRIME
    (0x2033, (0x22, 0, 0)),      // DOUBLE PRIME
    (0x2039, (0x3C, 0, 0)),      // SINGLE LEFT-POINTING ANGLE QUOTATION MARK -> <
    (0x203A, (0x3E, 0, 0)),      // SINGLE RIGHT-POINTING ANGLE QUOTATION MARK -> >
    (0x2044, (0x2F, 0, 0)),      // FRACTION SLASH
    (0x205F, (0x20, 0, 0)),      // MEDIUM MATHEMATICAL SPACE
    (0x2060, (0, 0, 0)),         // WORD JOINER -> removed
    (0x2212, (0x2D, 0, 0)),      // MINUS SIGN
    (0x2215, (0x2F, 0, 0)),      // DIVISION SLASH
    (0x3000, (0x20, 0, 0)),      // IDEOGRAPHIC SPACE
    (0xFEFF, (0, 0, 0)),         // ZERO WIDTH NO-BREAK SPACE (BOM) -> removed
]

/// The smart-encoding replacement of `codePoint`: `count` is -1 when there is none, 0 for removal,
/// else 1 to 3 ASCII scalars packed in `bytes` (first in the low byte).
@inline(__always)
package func _smartReplacement(_ codePoint: UInt32) -> (count: Int, bytes: UInt32) {
    if codePoint >= 0xFF01 && codePoint <= 0xFF5E {
        // Fullwidth ASCII. Fullwidth grave accent maps like the grave accent.
        let ascii = codePoint - 0xFEE0
        return (1, ascii == 0x60 ? 0x27 : ascii)
    }
    if codePoint < 0x80 && codePoint != 0x09 && codePoint != 0x60 { return (-1, 0) }
    // CJK, Hangul and most other scripts: no entry between U+3000 and U+FEFF (the tests check).
    if codePoint > 0x3000 && codePoint < 0xFEFF { return (-1, 0) }
    var low = 0
    var high = _smartReplacements.count
    while low < high {
        let middle = (low &+ high) &>> 1
        let source = _smartReplacements[middle].source
        if source < codePoint {
            low = middle &+ 1
        } else if source > codePoint {
            high = middle
        } else {
            let (a, b, c) = _smartReplacements[middle].replacement
            let count = a == 0 ? 0 : (b == 0 ? 1 : (c == 0 ? 2 : 3))
            return (count, UInt32(a) | UInt32(b) << 8 | UInt32(c) << 16)
        }
    }
    return (-1, 0)
}

/// The canonical composition of `starter` and `mark` that leads towards a table character, or `nil`.
@inline(__always)
package func _nfcCompose(_ starter: UInt32, _ mark: UInt32) -> UInt32? {
    // Every mark in the table is in U+0300...U+0D57; skip the search for anything else.
    guard mark >= 0x0300 && mark <= 0x0D57 && starter <= 0xFFFF else { return nil }
    var low = 0
    var high = _nfcCompositions.count
    let key = starter << 16 | mark
    while low < high {
        let middle = (low &+ high) &>> 1
        let entry = _nfcCompositions[middle]
        let entryKey = UInt32(entry.0) << 16 | UInt32(entry.1)
        if entryKey < key {
            low = middle &+ 1
        } else if entryKey > key {
            high = middle
        } else {
            return UInt32(entry.2)
        }
    }
    return nil
}

/// The NFC singleton mapping of `codePoint` to a table character, or `nil`.
@inline(__always)
package func _nfcSingleton(_ codePoint: UInt32) -> UInt32? {
    guard codePoint >= 0x0340 && codePoint <= 0xFFFF else { return nil }
    for entry in _nfcSingletons where UInt32(entry.0) == codePoint { return UInt32(entry.1) }
    return nil
}
