// The run-time view of the generated metadata (Generated/Metadata.swift and the C arrays of
// CPhoneNumberTables).
// Underscored names are internal plumbing, not API.

import CPhoneNumberTables

/// Namespace of the generated tables.
enum _Metadata {}

/// One region's (or non-geographic entity's) metadata, as generated.
struct _RegionRecord: Sendable {
    /// ISO 3166-1 alpha-2 code, or "001" for a non-geographic entity.
    let code: String
    let countryCode: UInt16
    let isMainCountryForCode: Bool
    /// Word offset of the type DFA (labels: `_TypeBits`): its start state, one label per state
    /// before `typeFirstTail`, then a window of `_DFA.tailWindow` labels per tail state
    /// (`_TypeDFA`).
    let typeDFA: Int32
    /// Offset in `_Metadata.typeRows` of the type DFA's transitions, 10 bytes a state, for the
    /// states before `typeFirstTail`.
    let typeRows: Int32
    /// The type DFA's number of states, the dead state and the tail states included.
    let typeStates: Int32
    /// The type DFA's first tail state: the states before it have transitions, the others windows.
    let typeFirstTail: Int32
    /// Bit n set when a national significant number of n digits is possible (general description).
    let possibleLengths: UInt32
    let localOnlyLengths: UInt32
    /// The general description's possible lengths are `[-1]` (no number of this entity is possible).
    let hasNoPossibleLength: Bool
    let sameMobileAndFixedLinePattern: Bool
    /// Word offset of a prefix DFA deciding between regions that share a calling code, or -1.
    let leadingDigits: Int32
    let nationalPrefix: String?
    /// Word offset of a Pike-VM program, or -1.
    let nationalPrefixForParsing: Int32
    let nationalPrefixTransformRule: String?
    /// Word offset of a Pike-VM program, or -1.
    let internationalPrefix: Int32
    let preferredInternationalPrefix: String?
    let preferredExtensionPrefix: String?
    /// Word offsets of the leftmost-first DFAs (_LeftmostDFA.swift) of the national prefix for
    /// parsing and of the IDD prefix, or -1 when there is no program.
    let nationalPrefixDFA: Int32
    let internationalPrefixDFA: Int32
    /// Indices into `_Store.formats` (the lines of `_Metadata.formatTable`).
    let nationalFormats: Range<Int>
    let intlFormats: Range<Int>
    /// Word offset of the full-match DFA (`_DFA.fullyMatches`) of the numbers that cannot be
    /// dialled from abroad, or -1; and the lengths such a number may have (bit n: n digits; 0:
    /// any).
    let noInternationalDiallingDFA: Int32
    let noInternationalDiallingLengths: UInt32
}

/// The fields of a region the hot paths read: plain values only, so reading one costs no
/// reference counting (`_Tables.core`). Everything parsing E.164 and classifying reads is in the
/// first 64 bytes and each record takes 128 (the store aligns them to 64), so a number touches
/// one cache line of its region's record, not two.
struct _RegionCore {
    var index: UInt16
    var countryCode: UInt16
    var sameMobileAndFixedLinePattern: Bool
    var hasNoPossibleLength: Bool
    /// The type DFA's start state and first tail state (`_TypeDFA`).
    var typeStart: UInt8
    var typeFirstTail: UInt8
    /// As in `_RegionRecord`.
    var typeDFA: Int32
    var typeRows: Int32
    /// Word offset of the type DFA's tail windows less 16 words per state before the first tail
    /// state: the window of tail state s is at `typeTails + 16 * s`.
    var typeTails: Int32
    var possibleLengths: UInt32
    var localOnlyLengths: UInt32
    var leadingDigits: Int32
    /// Word offset of the national prefix for parsing's leftmost-first DFA, or -1 when the
    /// region has none (its Pike-VM program, needed only to apply a transform rule, is in
    /// `_RegionRecord`).
    var nationalPrefixDFA: Int32
    /// When the national prefix for parsing is a plain digit string ("0", "1", "8", ...): its
    /// digits packed 4 bits each, first digit lowest, and its length; 0 otherwise.
    var literalPrefix: UInt32
    var literalPrefixLength: Int32
    /// The two-digit starts a match of the national prefix for parsing can have
    /// (`_Store.matchStarts`): numbers starting otherwise skip the DFA walk, which cannot match.
    var prefixStarts: _DigitPairs
    // Second cache line: the international (IDD) prefix, for national input only.
    /// Word offset of the IDD prefix's leftmost-first DFA, or -1 when the region has none.
    var internationalPrefixDFA: Int32
    /// The same for a pattern IDD prefix (every start for a literal one, compared directly).
    var iddStarts: _DigitPairs
    /// The same for the international (IDD) prefix: "00", "011", "810", ...
    var literalIDD: UInt32
    var literalIDDLength: Int32
    var _padding: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
}

/// A set of two-digit strings "00" ... "99" (bit 10·a + b), for inputs of two or more digits.
struct _DigitPairs {
    var low: UInt64 = 0
    var high: UInt64 = 0

    static var all: _DigitPairs { _DigitPairs(low: ~0, high: ~0) }

    @inline(__always)
    mutating func insert(_ first: Int, _ second: Int) {
        let p = first &* 10 &+ second
        if p < 64 { low |= 1 &<< UInt64(p) } else { high |= 1 &<< UInt64(p &- 64) }
    }

    /// Whether the ASCII digits `digits` may start a match; true for fewer than two digits.
    @inline(__always)
    func admits(_ digits: UnsafeBufferPointer<UInt8>) -> Bool {
        guard digits.count >= 2, digits[0] &- 0x30 < 10, digits[1] &- 0x30 < 10 else { return true }
        return admits(digits[0], digits[1])
    }

    /// Whether a number starting with the ASCII digits `first` and `second` may start a match:
    /// the set as one 128-bit word, shifted without a branch on which half holds the pair.
    @inline(__always)
    func admits(_ first: UInt8, _ second: UInt8) -> Bool {
        let p = UInt64(first &- 0x30) &* 10 &+ UInt64(second &- 0x30)
        assert(p < 100, "not two ASCII digits")
        return (UInt128(high) &<< 64 | UInt128(low)) &>> UInt128(p) & 1 != 0
    }

    /// Whether no pair is admitted.
    var isEmpty: Bool { low == 0 && high == 0 }
}

/// One number format, as generated (rules use libphonenumber's `$1`, `$NP`, `$FG`, `$CC` syntax).
struct _FormatRecord: Sendable {
    /// Word offset of a Pike-VM program (full match, captures the groups).
    let pattern: Int32
    let format: String
    /// Word offset of a prefix DFA for the last leading-digits pattern, or -1.
    let leadingDigits: Int32
    let nationalPrefixFormattingRule: String?
    let nationalPrefixOptionalWhenFormatting: Bool
    let domesticCarrierCodeFormattingRule: String?
    /// Where the pattern's groups fall when it needs no Pike VM (`_FormatPlan`), or nil.
    let plan: _FormatPlan?
}

// `_TypeBits`, the type DFA's label bits, is generated: Generated/MetadataLayout.swift.

extension _Metadata {
    /// The DFA and program words (12 bits each), in the binary's read-only data
    /// (`CPhoneNumberTables`), followed by zero padding.
    static var words: UnsafePointer<UInt16> { smskit_phone_words() }

    /// The type DFAs' row bytes, in the binary's read-only data, with zero padding before and after.
    static var typeRows: UnsafePointer<UInt8> { smskit_phone_type_rows() }

    /// The number of words and of row bytes, padding excluded.
    static var wordCount: Int { smskit_phone_word_count() }
    static var typeRowCount: Int { smskit_phone_type_row_count() }

    /// The zero padding around the tables that the type DFA walks rely on (`_TypeDFA`).
    static var wordsPadding: Int { Int(SMSKIT_PHONE_WORDS_PADDING) }
    static var typeRowsPaddingBefore: Int { Int(SMSKIT_PHONE_ROWS_PADDING_BEFORE) }
    static var typeRowsPaddingAfter: Int { Int(SMSKIT_PHONE_ROWS_PADDING_AFTER) }

    /// The word at `index`.
    @inline(__always)
    static func word(_ index: Int) -> Int { Int(words[index]) }
}
