// Walking the generated DFAs. Layout at a DFA's word offset: the start state, then per state ten
// transitions (one per digit, local state numbers, 0 = dead) and one label word.

enum _DFA {
    /// Runs the DFA over ASCII digits and returns the label of the final state (0 when it died).
    ///
    /// - Complexity: O(n), one table lookup per digit.
    @inline(__always)
    static func fullMatchLabel(_ offset: Int32, _ digits: UnsafeBufferPointer<UInt8>) -> UInt16 {
        let base = Int(offset) &+ 1
        var state = _Metadata.word(Int(offset))
        for byte in digits {
            let digit = Int(byte &- 0x30)
            guard state != 0, digit < 10 else { return 0 }
            state = _Metadata.word(base &+ state &* 11 &+ digit)
        }
        return UInt16(truncatingIfNeeded: _Metadata.word(base &+ state &* 11 &+ 10))
    }

    /// Whether some prefix of `digits` matches the DFA's pattern (libphonenumber's `lookingAt`).
    @inline(__always)
    static func prefixMatches(_ offset: Int32, _ digits: UnsafeBufferPointer<UInt8>) -> Bool {
        let base = Int(offset) &+ 1
        var state = _Metadata.word(Int(offset))
        if _Metadata.word(base &+ state &* 11 &+ 10) != 0 { return true }
        for byte in digits {
            let digit = Int(byte &- 0x30)
            guard digit < 10 else { return false }
            state = _Metadata.word(base &+ state &* 11 &+ digit)
            if state == 0 { return false }
            if _Metadata.word(base &+ state &* 11 &+ 10) != 0 { return true }
        }
        return false
    }
}
