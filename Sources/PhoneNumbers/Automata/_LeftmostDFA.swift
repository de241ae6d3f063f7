// Walking the leftmost-first DFAs of the national prefixes for parsing and the IDD prefixes
// (tools/metadata/regex_compiler.py, `build_leftmost_dfa`): where the Pike VM's `lookingAt` match
// of the same program ends, and whether it entered the program's last capture group, with one
// table lookup per digit instead of a thread list per digit. Layout as in _DFA.swift: the start
// state, then per state ten transitions and a label; state 0 is the dead state (no match can
// follow any more).

enum _LeftmostDFA {
    /// Label bits (generated from tools/metadata/schema.py): the Pike VM records a match at this
    /// state's position when more input follows, and whether the match entered the last group.
    static let match = _MetadataLayout.leftmostMatch, matchInLastGroup = _MetadataLayout.leftmostMatchInLastGroup
    /// The same when the input ends at this state's position (`$` holds only there).
    static let endMatch = _MetadataLayout.leftmostEndMatch
    static let endMatchInLastGroup = _MetadataLayout.leftmostEndMatchInLastGroup

    /// Where the leftmost-first match of a program at the start of `input` ends, as
    /// `_PikeVM.match(_:_:_:toEnd: false)` would find it.
    ///
    /// - Parameters:
    ///   - words: The metadata's words (`_Tables.words`).
    ///   - offset: The word offset of the program's leftmost-first DFA.
    ///   - input: ASCII digits (a match stops before any other byte, as in the Pike VM).
    /// - Returns: The match's end and whether it entered the program's last capture group
    ///   (`captures[2 * groups] >= 0`, false for a program without groups), or nil.
    /// - Complexity: O(n) for n digits, one table lookup per digit; it stops at the first digit
    ///   after which no match can follow.
    @inline(__always)
    static func match(
        _ words: UnsafePointer<UInt16>, _ offset: Int32, _ input: UnsafeBufferPointer<UInt8>
    ) -> (end: Int, enteredLastGroup: Bool)? {
        guard input.count < 127 else { return nil }  // as the Pike VM, whose positions are Int8
        let rows = words + (Int(offset) &+ 1)
        var state = Int(words[Int(offset)])
        // The last match found: its end shifted left once, the group bit below; -1 for none.
        var found = -1
        var position = 0
        while position < input.count {
            let label = Int(rows[state &* 11 &+ 10])
            if label & Int(match) != 0 { found = position &<< 1 | (label & Int(matchInLastGroup) != 0 ? 1 : 0) }
            let digit = Int(input[position] &- 0x30)
            guard digit < 10 else { break }
            state = Int(rows[state &* 11 &+ digit])
            if state == 0 { break }
            position &+= 1
        }
        if position == input.count {
            let label = Int(rows[state &* 11 &+ 10])
            if label & Int(endMatch) != 0 { found = position &<< 1 | (label & Int(endMatchInLastGroup) != 0 ? 1 : 0) }
        }
        return found < 0 ? nil : (found &>> 1, found & 1 != 0)
    }
}
