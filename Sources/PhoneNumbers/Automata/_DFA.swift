// Walking the generated DFAs. Layout at a DFA's word offset: the start state, then per state ten
// transitions (one per digit, local state numbers) and one label word. State 0 is the dead state:
// its row sends every digit back to 0 and its label is 0, so a walk needs no test for it.
//
// The walks read the store's decoded copy of the words (`_Store.words`, one UInt16 per word),
// one load per digit. Type DFAs of fewer than 256 states have their transitions apart, a byte
// each (`_Store.typeRows`, 10 bytes a state), and in the words only the start state and the
// labels.

enum _DFA {
    /// Runs the DFA over ASCII digits and returns the label of the final state (0 when it died
    /// or when a byte is not a digit).
    ///
    /// - Complexity: O(n), one table lookup per digit.
    @inline(__always)
    static func fullMatchLabel(_ words: UnsafePointer<UInt16>, _ offset: Int32, _ digits: UnsafeBufferPointer<UInt8>) -> UInt16 {
        let rows = words + (Int(offset) &+ 1)
        var state = Int(words[Int(offset)])
        for byte in digits {
            let digit = Int(byte &- 0x30)
            guard digit < 10 else { return 0 }
            state = Int(rows[state &* 11 &+ digit])
        }
        return rows[state &* 11 &+ 10]
    }

    /// `fullMatchLabel` over a type DFA with byte-wide rows: `rows` points at its state 0's
    /// transitions in `_Store.typeRows`, `labels` at state 0's label in `_Store.words`.
    ///
    /// `digits` must be ASCII digits, as every caller's are (parsed and normalized numbers, the
    /// digits of a `PhoneNumber`): unlike the other walks this one does not test each byte, two
    /// instructions a digit on the hottest loop. Any other byte would give a wrong label but still
    /// read only the store's tables: a state is a byte, so a read lands at most 2,805 bytes past
    /// the DFA's rows and 255 words past its labels, which the store pads with zeros.
    @inline(__always)
    static func fullMatchLabel(
        _ rows: UnsafePointer<UInt8>, _ labels: UnsafePointer<UInt16>, start: Int, _ digits: UnsafeBufferPointer<UInt8>
    ) -> UInt16 {
        assert(digits.allSatisfy { $0 &- 0x30 < 10 }, "a DFA walk over bytes that are not ASCII digits")
        var state = start
        for byte in digits {
            state = Int(rows[state &* 10 &+ Int(byte &- 0x30)])
        }
        return labels[state]
    }

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
}
