@testable import PhoneNumbers
import SMSKitTestSupport
import Testing

/// Parsing finds where a national prefix for parsing or an IDD prefix ends with a leftmost-first
/// DFA (`_LeftmostDFA`) rather than the Pike VM, and asks the VM only for the group spans of a
/// transform rule. Both must agree, for every program in the metadata, on whether a prefix of the
/// input matches, where the match ends and whether it entered the program's last group.
@Suite struct LeftmostDFATests {
    /// One program and its DFA, named after the first region that uses them.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let program: Int32
        let dfa: Int32
        var testDescription: String { name }
    }

    /// Every national prefix for parsing and IDD prefix program, each once.
    static let cases: [Case] = {
        let store = _Store.shared
        var seen = Set<Int32>()
        var cases: [Case] = []
        for record in store.regions {
            for (kind, program, dfa) in [("national prefix", record.nationalPrefixForParsing, record.nationalPrefixDFA),
                                         ("IDD", record.internationalPrefix, record.internationalPrefixDFA)]
            where program >= 0 && seen.insert(program).inserted {
                cases.append(Case(name: "\(record.code) \(kind)", program: program, dfa: dfa))
            }
        }
        return cases
    }()

    /// What the Pike VM and the DFA found over a set of inputs.
    struct Tally {
        var inputs = 0, matches = 0, lastGroupEntered = 0, disagreements = 0

        /// Compares both on `digits` and records a disagreement as an issue (the first few only).
        mutating func compare(_ digits: UnsafeBufferPointer<UInt8>, _ c: Case) {
            let store = _Store.shared
            let groups = Int(store.tables.pointee.words[Int(c.program) + 1])
            let captures = _PikeVM.match(store.tables.pointee.words, c.program, digits, toEnd: false)
            let found = _LeftmostDFA.match(store.tables.pointee.words, c.dfa, digits)
            inputs += 1
            if let captures {
                matches += 1
                let entered = groups > 0 && captures[2 * groups] >= 0
                if entered { lastGroupEntered += 1 }
                if found?.end == Int(captures[1]), found?.enteredLastGroup == entered { return }
            } else if found == nil {
                return
            }
            disagreements += 1
            if disagreements <= 5 {
                let expected = captures.map { "end \($0[1]), group start \(groups > 0 ? $0[2 * groups] : -1)" } ?? "no match"
                Issue.record("\(c.name) on \(String(decoding: digits, as: UTF8.self)): Pike VM \(expected), DFA \(String(describing: found))")
            }
        }

        mutating func compare(_ digits: [UInt8], _ c: Case) {
            digits.withUnsafeBufferPointer { compare($0, c) }
        }
    }

    @Test(arguments: cases) func agreesWithThePikeVM(_ c: Case) {
        #expect(c.dfa >= 0)
        var tally = Tally()
        Self.compareAllShort(c, upTo: 7, &tally)
        var random = SplitMix64(seed: 0x1EF7_D5A + UInt64(c.program))
        // Longer random strings, now and then with a byte that is not a digit.
        for _ in 0..<2_000 {
            var digits = (0..<(7 + random.below(18))).map { _ in UInt8(0x30 + random.below(10)) }
            if random.below(8) == 0 { digits[random.below(digits.count)] = UInt8(ascii: "#") }
            tally.compare(digits, c)
        }
        // Strings the pattern itself spells out (random paths through the program), cut short or
        // continued with random digits: these reach its long alternatives and `$` ends.
        for _ in 0..<3_000 {
            let spelled = Self.spell(c.program, &random)
            tally.compare(spelled, c)
            tally.compare(Array(spelled.prefix(random.below(spelled.count + 1))), c)
            tally.compare(spelled + (0..<(1 + random.below(8))).map { _ in UInt8(0x30 + random.below(10)) }, c)
        }
        #expect(tally.disagreements == 0)
        #expect(tally.inputs > 11_000)
        #expect(tally.matches > 0, "\(c.name): no input matched")
        if _Store.shared.tables.pointee.words[Int(c.program) + 1] > 0 {
            #expect(tally.lastGroupEntered > 0, "\(c.name): no match entered the last group")
        }
    }

    /// Compares every digit string of up to `limit` digits. Digits that every class instruction
    /// of the program and every state of the DFA treat alike give both the same answer, so one
    /// digit stands for each such group ("([2-9]\d{6})$|1" has three: 0, 1 and 2...9). Strings
    /// whose answer a shorter one settles are left out: after a prefix at which the program has
    /// no instruction left that reads a digit, the Pike VM's answer for every longer string is its
    /// answer for the prefix plus one digit, so those are compared, and the DFA must be in its
    /// dead state after them (its walk then stops, so it answers every longer string the same).
    static func compareAllShort(_ c: Case, upTo limit: Int, _ tally: inout Tally) {
        let program = _Program(c.program)
        let words = _Store.shared.tables.pointee.words
        func next(_ state: Int, _ digit: Int) -> Int { Int(words[Int(c.dfa) + 1 + state * 11 + digit]) }
        // The DFA's states, from its start.
        var states = [Int(words[Int(c.dfa)])], known: Swift.Set = [states[0]]
        var k = 0
        while k < states.count {
            for digit in 0..<10 where known.insert(next(states[k], digit)).inserted { states.append(next(states[k], digit)) }
            k += 1
        }
        // Each digit's column through all class masks and DFA transitions; a digit whose column
        // an earlier digit has is represented by that one.
        var columns: [[Int]] = []
        var representatives: [Int] = []
        for digit in 0..<10 {
            var column = states.map { next($0, digit) }
            for pc in 0..<program.count where program.op(pc).0 == _PikeVM.opClass { column.append(program.op(pc).1 >> digit & 1) }
            if !columns.contains(column) { columns.append(column); representatives.append(digit) }
        }
        var digits = [UInt8](repeating: 0, count: limit)
        func visit(_ length: Int, _ threads: _Program.Set, _ state: Int) {
            digits.withUnsafeBufferPointer { tally.compare(UnsafeBufferPointer(rebasing: $0[..<length]), c) }
            guard length < limit else { return }
            let reading = program.reads(threads)
            for digit in representatives {
                digits[length] = UInt8(0x30 + digit)
                if reading {
                    visit(length + 1, program.step(threads, digit), next(state, digit))
                } else {
                    digits.withUnsafeBufferPointer { tally.compare(UnsafeBufferPointer(rebasing: $0[...length]), c) }
                    #expect(next(state, digit) == 0, "\(c.name): the DFA lives on after \(String(decoding: digits[...length], as: UTF8.self))")
                }
            }
        }
        var first = _Program.Set()
        _Program.insert(&first, 0)
        visit(0, program.closure(first), Int(words[Int(c.dfa)]))
    }

    /// A program's instructions, and the set of instructions alive after some digits, without
    /// priorities or captures: what may still read a digit or match.
    struct _Program {
        /// A set of instructions, bit pc (programs have fewer than 512).
        typealias Set = SIMD8<UInt64>

        let offset: Int32
        let count: Int

        init(_ offset: Int32) {
            self.offset = offset
            count = Int(_Store.shared.tables.pointee.words[Int(offset)])
            precondition(count <= 512)
        }

        func op(_ pc: Int) -> (Int, Int, Int) {
            let words = _Store.shared.tables.pointee.words, at = Int(offset) + 2 + 3 * pc
            return (Int(words[at]), Int(words[at + 1]), Int(words[at + 2]))
        }

        static func contains(_ set: Set, _ pc: Int) -> Bool { set[pc >> 6] >> UInt64(pc & 63) & 1 != 0 }
        static func insert(_ set: inout Set, _ pc: Int) { set[pc >> 6] |= 1 << UInt64(pc & 63) }

        /// The class, match and end-of-input instructions reachable from `pcs` without reading.
        func closure(_ pcs: Set) -> Set {
            var seen = Set(), out = Set()
            func visit(_ pc: Int) {
                guard !Self.contains(seen, pc) else { return }
                Self.insert(&seen, pc)
                let (opcode, a, b) = op(pc)
                switch opcode {
                case _PikeVM.opJump: visit(a)
                case _PikeVM.opSplit: visit(a); visit(b)
                case _PikeVM.opSave: visit(pc + 1)
                default: Self.insert(&out, pc)
                }
            }
            for pc in 0..<count where Self.contains(pcs, pc) { visit(pc) }
            return out
        }

        /// Whether some instruction of `threads` reads a digit.
        func reads(_ threads: Set) -> Bool {
            (0..<count).contains { Self.contains(threads, $0) && op($0).0 == _PikeVM.opClass }
        }

        func step(_ threads: Set, _ digit: Int) -> Set {
            var moved = Set()
            for pc in 0..<count where Self.contains(threads, pc) {
                let (opcode, mask, _) = op(pc)
                if opcode == _PikeVM.opClass, mask & (1 << digit) != 0 { Self.insert(&moved, pc + 1) }
            }
            return closure(moved)
        }
    }

    /// Digits along a random path through the program at `offset`, from its start to its match
    /// (or a dead end), choosing each split's branch and each class's digit at random.
    static func spell(_ offset: Int32, _ random: inout SplitMix64) -> [UInt8] {
        let words = _Store.shared.tables.pointee.words
        func op(_ pc: Int) -> (Int, Int, Int) {
            let at = Int(offset) + 2 + 3 * pc
            return (Int(words[at]), Int(words[at + 1]), Int(words[at + 2]))
        }
        var digits: [UInt8] = []
        var pc = 0
        for _ in 0..<400 {
            let (opcode, a, b) = op(pc)
            switch opcode {
            case _PikeVM.opClass:
                let allowed = (0..<10).filter { a & (1 << $0) != 0 }
                guard !allowed.isEmpty else { return digits }
                digits.append(UInt8(0x30 + random.pick(allowed)))
                pc += 1
            case _PikeVM.opSplit: pc = random.below(2) == 0 ? a : b
            case _PikeVM.opJump: pc = a
            case _PikeVM.opSave, _PikeVM.opEnd: pc += 1
            default: return digits
            }
        }
        return digits
    }

    /// Known answers, so that the comparison above cannot pass with both sides wrong alike.
    @Test func knownPrefixes() throws {
        let store = _Store.shared
        /// "none", or the match's end, followed by "+" when it entered the last group.
        func match(_ region: RegionCode, _ text: String, idd: Bool = false) throws -> String {
            let record = store.regions[try #require(store.tables.pointee.regionIndex(region))]
            let found = Array(text.utf8).withUnsafeBufferPointer {
                _LeftmostDFA.match(store.tables.pointee.words, idd ? record.internationalPrefixDFA : record.nationalPrefixDFA, $0)
            }
            guard let found else { return "none" }
            return "\(found.end)" + (found.enteredLastGroup ? "+" : "")
        }
        // AG "([457]\d{6})$|1": seven local digits enter the group (the transform adds "268").
        #expect(try match("AG", "4601234") == "7+")
        #expect(try match("AG", "12684601234") == "1")
        #expect(try match("AG", "46012345") == "none")
        // GB "0|180020": the first alternative wins; "18002" is not yet a match.
        #expect(try match("GB", "02079460000") == "1")
        #expect(try match("GB", "18002012345") == "6")
        #expect(try match("GB", "18002") == "none")
        // AU "(183[12])|0" and IDD "001[14-689]|14(?:...)0011".
        #expect(try match("AU", "18312345678") == "4+")
        #expect(try match("AU", "0298765432") == "1")
        #expect(try match("AU", "0011441234", idd: true) == "4")
        #expect(try match("AU", "14110011441234", idd: true) == "8")
        #expect(try match("AU", "0021234", idd: true) == "none")
    }
}
