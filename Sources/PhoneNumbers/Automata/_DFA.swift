// Walking the generated DFAs. Layout at a DFA's word offset: the start state, then per state ten
// transitions (one per digit, local state numbers) and one label word. State 0 is the dead state:
// its row sends every digit back to 0 and its label is 0, so a walk needs no test for it.
//
// The walks read the words in place in the binary's read-only data (`_Tables.words`, one UInt16
// per word), one load per digit. Type DFAs have their own layout (`_TypeDFA`): byte-wide rows in
// `_Tables.typeRows` and, in the words, the start state, the labels and the tail windows.

enum _DFA {
    /// Words in a tail window of a type DFA: labels after 0...15 more digits (generated from
    /// tools/metadata/schema.py).
    static let tailWindow = _MetadataLayout.tailWindow

    /// Whether some prefix of `digits` matches the DFA's pattern (libphonenumber's `lookingAt`).
    @inline(__always)
    static func prefixMatches(_ words: UnsafePointer<UInt16>, _ offset: Int32, _ digits: UnsafeBufferPointer<UInt8>) -> Bool {
        let rows = words + (Int(offset) &+ 1)
        var state = Int(words[Int(offset)])
        if rows[state &* 11 &+ 10] != 0 { return true }
        for byte in digits {
            let digit = Int(byte &- 0x30)
            guard digit < 10 else { return false }
            state = Int(rows[state &* 11 &+ digit])
            if state == 0 { return false }
            if rows[state &* 11 &+ 10] != 0 { return true }
        }
        return false
    }

    /// Whether all of `digits` matches the DFA's pattern (libphonenumber's `matches`): the label
    /// of the state after the last digit. False for a byte that is not an ASCII digit.
    static func fullyMatches(_ words: UnsafePointer<UInt16>, _ offset: Int32, _ digits: UnsafeBufferPointer<UInt8>) -> Bool {
        let rows = words + (Int(offset) &+ 1)
        var state = Int(words[Int(offset)])
        for byte in digits {
            let digit = Int(byte &- 0x30)
            guard digit < 10 else { return false }
            state = Int(rows[state &* 11 &+ digit])
            if state == 0 { return false }
        }
        return rows[state &* 11 &+ 10] != 0
    }
}

/// One region's type DFA as its walks read it (`PhoneNumberEngine._typeDFA(_:)` makes it from the
/// region's record): its rows, labels and tail windows in the store's tables.
///
/// A type DFA's states from `firstTail` on are its tail states: from one of them every digit
/// leads to one same state, so the label of the whole number depends only on how many digits are
/// left ("\d{7}" after the leading digits). A walk stops at the first it enters and reads that
/// label from the state's window of `_DFA.tailWindow` words, `tails[state * 16 + left]`; a
/// window's last word is 0, as is every label after its tail reaches the dead state, so `left` is
/// capped at 15. The states before `firstTail` have their transitions in `rows` (state 0's first,
/// 10 bytes a state) and their labels in `labels`. On E.164 numbers a walk reads 2.7 of 8.7 digits
/// on average: the rest of the chain of dependent loads is gone.
struct _TypeDFA {
    let rows: UnsafePointer<UInt8>
    let labels: UnsafePointer<UInt16>
    let tails: UnsafePointer<UInt16>
    let start: Int
    let firstTail: Int

    /// The label after `digits` (0 when the DFA died).
    ///
    /// `digits` must be ASCII digits, as every caller's are (parsed and normalized numbers): the
    /// walk does not test each byte. Any other byte would give a wrong label but still read only
    /// the store's tables: a state is a byte, so a read lands at most 2,757 bytes past the DFA's
    /// rows or 48 before them and 4,095 words past `tails`, which the store pads with zeros.
    ///
    /// - Complexity: O(n), at most one table lookup per digit.
    @inline(__always)
    func label(_ digits: UnsafeBufferPointer<UInt8>) -> UInt16 {
        assert(digits.allSatisfy { $0 &- 0x30 < 10 }, "a DFA walk over bytes that are not ASCII digits")
        guard var p = digits.baseAddress, !digits.isEmpty else { return labels[start] }
        let end = p + digits.count
        let rows = rows - 0x30  // indexed by the digit's byte, "0" is 0x30
        var state = start
        repeat {
            state = Int(rows[state &* 10 &+ Int(p.pointee)])
            p += 1
            if state >= firstTail { return tails[state &* 16 &+ min(end - p, 15)] }
        } while p < end
        return labels[state]
    }

    /// ``label(_:)-(UnsafeBufferPointer<UInt8>)`` over the digits of a `PhoneNumber` as it keeps
    /// them (`_NationalDigits`, 1 to 16 digits): read four bits at a time from the word instead of
    /// from 16 ASCII bytes made from it first.
    @inline(__always)
    func label(_ digits: _NationalDigits) -> UInt16 {
        var left = digits.count
        assert(left >= 1 && left <= 16)
        var rest = digits.packed &>> UInt64(4 &* (16 &- left))  // the first digit lowest
        var state = start
        repeat {
            state = Int(rows[state &* 10 &+ Int(rest & 0xF)])
            rest &>>= 4
            left &-= 1
            if state >= firstTail { return tails[state &* 16 &+ min(left, 15)] }
        } while left > 0
        return labels[state]
    }
}
