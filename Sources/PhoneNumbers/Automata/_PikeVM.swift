// A Pike VM over the generated programs (tools/metadata/regex_compiler.py): leftmost-first matching
// with captures in time linear in the input, for the few patterns whose captures matter (number
// formats, and a national prefix for parsing whose transform rule needs its groups). Validation
// never comes here: it uses DFAs; where a national or IDD prefix ends, _LeftmostDFA.swift finds.
//
// Program layout at a word offset: instruction count, group count, then three words per
// instruction: opcode, a, b.

/// Capture slots: slot 2g is the start and 2g+1 the end of group g (group 0 is the whole match);
/// -1 when the group did not take part in the match. Int8 positions: inputs are national numbers
/// of at most 64 digits, and 16 bytes per thread keep a list of 24 threads within one stack
/// allocation.
typealias _Captures = SIMD16<Int8>

enum _PikeVM {
    /// Opcodes (generated from tools/metadata/schema.py).
    static let opClass = _MetadataLayout.opClass, opSplit = _MetadataLayout.opSplit, opJump = _MetadataLayout.opJump
    static let opSave = _MetadataLayout.opSave, opEnd = _MetadataLayout.opEnd, opMatch = _MetadataLayout.opMatch

    /// Matches the program at the start of `input`.
    ///
    /// - Parameters:
    ///   - words: The metadata's words (`_Tables.words`).
    ///   - offset: The program's word offset.
    ///   - input: ASCII digits.
    ///   - toEnd: Require the match to end at the end of `input` (Java's `matches`); otherwise any
    ///     prefix (`lookingAt`).
    /// - Returns: The captures of the leftmost-first match, or `nil`.
    /// - Complexity: O(n·m) for n input digits and m instructions; no heap allocation.
    static func match(
        _ words: UnsafePointer<UInt16>, _ offset: Int32, _ input: UnsafeBufferPointer<UInt8>, toEnd: Bool
    ) -> _Captures? {
        guard input.count < 127 else { return nil }  // positions are Int8; callers pass at most 64 digits
        let count = Int(words[Int(offset)])
        // Thread lists of at most 24 entries keep every scratch buffer within the standard
        // library's stack allocation limit (1 KiB), even for Argentina's 305-instruction national
        // prefix; the heap is only used if a run ever needs more threads at once.
        let small = min(count, 24)
        let (matched, overflowed) = run(words, offset, count, threads: small, input, toEnd: toEnd)
        if !overflowed { return matched }
        return run(words, offset, count, threads: count, input, toEnd: toEnd).matched
    }

    /// One run with room for `threads` threads per list (`count` always suffices).
    static func run(
        _ words: UnsafePointer<UInt16>, _ offset: Int32, _ count: Int, threads: Int, _ input: UnsafeBufferPointer<UInt8>, toEnd: Bool
    ) -> (matched: _Captures?, overflowed: Bool) {
        withUnsafeTemporaryAllocation(of: _Captures.self, capacity: 2 &* threads) { caps in
            withUnsafeTemporaryAllocation(of: Int16.self, capacity: 2 &* threads) { pcs in
                withUnsafeTemporaryAllocation(of: Int8.self, capacity: count) { marks in
                    marks.initialize(repeating: -1)
                    var run = _PikeRun(
                        words: words, code: Int(offset) &+ 2, count: count, threads: threads, input: input, toEnd: toEnd,
                        caps: caps.baseAddress!, pcs: pcs.baseAddress!, marks: marks.baseAddress!)
                    let matched = run.run()
                    return (matched, run.overflowed)
                }
            }
        }
    }
}

private struct _PikeRun {
    let words: UnsafePointer<UInt16>
    let code: Int
    let count: Int
    /// Room for this many threads in each of the two lists.
    let threads: Int
    let input: UnsafeBufferPointer<UInt8>
    let toEnd: Bool
    let caps: UnsafeMutablePointer<_Captures>
    let pcs: UnsafeMutablePointer<Int16>
    /// The position at which each instruction was last added (positions are below 127).
    let marks: UnsafeMutablePointer<Int8>
    /// A list needed more than `threads` entries: the result is void.
    var overflowed = false

    @inline(__always)
    func op(_ pc: Int) -> (Int, Int, Int) {
        let at = code &+ 3 &* pc
        return (Int(words[at]), Int(words[at &+ 1]), Int(words[at &+ 2]))
    }

    /// Adds the thread at `pc` to the list starting at `list`, following jumps, splits (in
    /// priority order) and saves.
    mutating func add(_ list: Int, _ n: inout Int, _ pc: Int, _ slots: _Captures, _ pos: Int) {
        if marks[pc] == Int8(truncatingIfNeeded: pos) { return }
        marks[pc] = Int8(truncatingIfNeeded: pos)
        let (opcode, a, b) = op(pc)
        switch opcode {
        case _PikeVM.opJump:
            add(list, &n, a, slots, pos)
        case _PikeVM.opSplit:
            add(list, &n, a, slots, pos)
            add(list, &n, b, slots, pos)
        case _PikeVM.opSave:
            var saved = slots
            if a < 16 { saved[a] = Int8(truncatingIfNeeded: pos) }
            add(list, &n, pc &+ 1, saved, pos)
        case _PikeVM.opEnd:
            if pos == input.count { add(list, &n, pc &+ 1, slots, pos) }
        default:
            guard n < threads else { overflowed = true; return }
            pcs[list &+ n] = Int16(pc)
            caps[list &+ n] = slots
            n &+= 1
        }
    }

    mutating func run() -> _Captures? {
        var current = 0, next = threads
        var currentCount = 0
        var matched: _Captures? = nil
        add(current, &currentCount, 0, _Captures(repeating: -1), 0)
        var pos = 0
        while currentCount > 0 {
            var nextCount = 0
            let digit = pos < input.count ? Int(input[pos] &- 0x30) : 16
            var i = 0
            while i < currentCount {
                let pc = Int(pcs[current &+ i])
                let (opcode, mask, _) = op(pc)
                if opcode == _PikeVM.opMatch {
                    if !toEnd || pos == input.count {
                        matched = caps[current &+ i]
                        break  // lower-priority threads lose
                    }
                } else if digit < 10, mask & (1 << digit) != 0 {
                    add(next, &nextCount, pc &+ 1, caps[current &+ i], pos &+ 1)
                }
                i &+= 1
            }
            if overflowed { return nil }
            if pos >= input.count { break }
            swap(&current, &next)
            currentCount = nextCount
            pos &+= 1
        }
        return matched
    }
}
