// Where a number format's capture groups fall, worked out once per pattern so that formatting
// needs no Pike VM for the patterns that are runs of digits: about three quarters of the
// metadata's format patterns are fixed-width groups ("(\d{3})(\d{3})(\d{4})") and most of the
// others differ by one variable run ("(\d{3})(\d{3,4})").

/// The capture positions of a format pattern made of digit classes and greedy bounded runs of
/// `\d`, as a function of the input's length.
///
/// A pattern has a plan when its program (tools/metadata/regex_compiler.py) is a sequence of
/// saves, digit classes and greedy optional `\d`s (`\d{m,n}` compiles to m classes then n - m
/// `split; class` pairs), with at most four classes narrower than `\d`, all before the first
/// optional digit. Then a match is decided by the length and those few classes, and
/// leftmost-first priority gives each optional run, in order, as many digits as are left: the
/// captures the Pike VM would find. Anything else (alternation, `$`, loops, a narrow class after
/// a variable run) has no plan and goes through the VM.
struct _FormatPlan: Sendable {
    /// Digits every match has, and the optional digits of all runs together.
    var minimumLength: Int
    var optionalDigits: Int
    /// The positions and class masks (bit d: digit d) of the narrow classes, `count` of them.
    var checkPositions: SIMD4<Int8> = .zero
    var checkMasks: SIMD4<UInt16> = .zero
    var checkCount = 0
    /// The optional digits of each run, in order (at most four runs).
    var runDigits: SIMD4<Int8> = .zero
    var runCount = 0
    /// For each capture slot: its position when every run is empty (-1 for a slot the pattern
    /// has no save for), and how many runs precede it (0 for such a slot).
    var slotOffsets = _Captures(repeating: -1)
    var slotRuns = _Captures(repeating: 0)

    /// The plan of the program at `offset`, or nil when it needs the VM.
    init?(_ words: UnsafePointer<UInt16>, _ offset: Int32) {
        let count = Int(words[Int(offset)])
        let code = Int(offset) &+ 2
        func op(_ pc: Int) -> (Int, Int, Int) {
            let at = code &+ 3 &* pc
            return (Int(words[at]), Int(words[at &+ 1]), Int(words[at &+ 2]))
        }
        let allDigits = 0x3FF
        minimumLength = 0
        optionalDigits = 0
        var pc = 0
        while pc < count {
            let (opcode, a, b) = op(pc)
            switch opcode {
            case _PikeVM.opClass:
                if a & allDigits != allDigits {
                    guard runCount == 0, checkCount < 4 else { return nil }
                    checkPositions[checkCount] = Int8(minimumLength)
                    checkMasks[checkCount] = UInt16(a & allDigits)
                    checkCount += 1
                }
                minimumLength += 1
                pc += 1
            case _PikeVM.opSave:
                if a < _Captures.scalarCount {
                    slotOffsets[a] = Int8(minimumLength)
                    slotRuns[a] = Int8(runCount)
                }
                pc += 1
            case _PikeVM.opSplit:
                // A run of optional digits: `split(pc+1, end); class \d` up to `end`.
                let end = b
                guard runCount < 4, end > pc else { return nil }
                var digits = 0
                while pc < end {
                    let (split, body, out) = op(pc)
                    let (next, mask, _) = op(pc + 1)
                    guard split == _PikeVM.opSplit, body == pc + 1, out == end, next == _PikeVM.opClass,
                          mask & allDigits == allDigits else { return nil }
                    digits += 1
                    pc += 2
                }
                guard pc == end else { return nil }
                runDigits[runCount] = Int8(digits)
                runCount += 1
                optionalDigits += digits
            case _PikeVM.opMatch:
                // Positions are Int8 and an empty match would need the VM's stepping rules.
                guard pc == count - 1, minimumLength > 0, minimumLength + optionalDigits < 64 else { return nil }
                return
            default:
                return nil  // jump (a loop or alternation) or `$`
            }
        }
        return nil
    }

    /// The captures of the pattern's match at the start of `nsn` when that match covers all of
    /// it (what formatting needs: a format is chosen only when its pattern matches the whole
    /// number), or nil when the pattern does not match all of `nsn`.
    ///
    /// - Complexity: O(1): at most four class checks and four runs.
    @inline(__always)
    func wholeMatch(_ nsn: UnsafeBufferPointer<UInt8>) -> _Captures? {
        var extra = nsn.count &- minimumLength
        guard extra >= 0, extra <= optionalDigits else { return nil }
        for i in 0..<checkCount {
            let digit = nsn[Int(checkPositions[i])] &- 0x30
            guard digit < 10, checkMasks[i] & (1 &<< UInt16(digit)) != 0 else { return nil }
        }
        // Leftmost-first: each run in turn takes as many of the extra digits as it can, and
        // moves every slot after it (whole-vector adds: no per-slot stores and reloads).
        var captures = slotOffsets
        var r = 0
        while extra > 0, r < runCount {
            let digits = min(Int8(extra), runDigits[r])
            captures &+= _Captures.zero.replacing(with: digits, where: slotRuns .> Int8(r))
            extra &-= Int(digits)
            r &+= 1
        }
        return captures
    }
}
