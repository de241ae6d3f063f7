import Foundation
@testable import PhoneNumbers
import SMSKitTestSupport
import Testing

/// Parsing skips the DFA walk for national prefixes and IDD prefixes when the input's first two
/// digits cannot start a match (`_Store.matchStarts`, read off the DFA). That set may be too
/// large, never too small: whenever the program matches an input (the Pike VM says), the set must
/// admit it.
@Suite struct MatchStartsTests {
    @Test func everyMatchIsAdmitted() {
        let store = _Store.shared
        var random = SplitMix64(seed: 0x57A7_75)
        var programs = 0
        var matches = 0
        var refusals = 0
        for index in store.regions.indices {
            let core = store.tables.pointee.core[index], record = store.regions[index]
            for (program, starts) in [(record.nationalPrefixForParsing, core.prefixStarts),
                                      (record.internationalPrefix, core.literalIDDLength > 0 ? nil : core.iddStarts)] {
                guard program >= 0, let starts else { continue }
                programs += 1
                for pair in 0..<100 {
                    for _ in 0..<12 {
                        // The pair, then 0 to 12 digits; half of them copy the program's own
                        // literal-looking prefixes by chance only, so also try repeated digits.
                        var digits: [UInt8] = [UInt8(0x30 + pair / 10), UInt8(0x30 + pair % 10)]
                        let extra = random.below(13)
                        let repeated = random.below(3) == 0 ? UInt8(0x30 + random.below(10)) : nil
                        for _ in 0..<extra { digits.append(repeated ?? UInt8(0x30 + random.below(10))) }
                        let matched = digits.withUnsafeBufferPointer { _PikeVM.match(store.tables.pointee.words, program, $0, toEnd: false) } != nil
                        let admitted = digits.withUnsafeBufferPointer { starts.admits($0) }
                        if matched { matches += 1 }
                        if !admitted { refusals += 1 }
                        #expect(!matched || admitted, "region \(store.regions[index].code) program \(program): \(String(decoding: digits, as: UTF8.self))")
                    }
                }
            }
        }
        #expect(programs > 60)
        #expect(matches > 10_000)
        #expect(refusals > 100_000)  // the set does refuse most starts
    }

    /// The word path asks `admits(first, second)` alone, with no test of whether the region has
    /// a national prefix at all: that form must agree with the buffer form on every pair, and a
    /// region without a national prefix must admit none.
    @Test func pairFormAgreesAndNoPrefixAdmitsNothing() {
        let store = _Store.shared
        var withoutPrefix = 0
        for index in store.regions.indices {
            let core = store.tables.pointee.core[index]
            for starts in [core.prefixStarts, core.iddStarts] {
                for pair in 0..<100 {
                    let digits: [UInt8] = [UInt8(0x30 + pair / 10), UInt8(0x30 + pair % 10)]
                    let buffer = digits.withUnsafeBufferPointer { starts.admits($0) }
                    #expect(starts.admits(digits[0], digits[1]) == buffer, "region \(store.regions[index].code) pair \(pair)")
                }
            }
            if core.nationalPrefixDFA < 0 {
                withoutPrefix += 1
                #expect(core.prefixStarts.isEmpty, "region \(store.regions[index].code)")
            }
        }
        #expect(withoutPrefix > 50)
    }

    @Test func literalAndPatternPrefixes() {
        func starts(_ region: RegionCode) -> _DigitPairs {
            _Store.shared.tables.pointee.core[_Store.shared.tables.pointee.regionIndex(region)!].prefixStarts
        }
        func admits(_ pairs: _DigitPairs, _ text: String) -> Bool {
            Array(text.utf8).withUnsafeBufferPointer { pairs.admits($0) }
        }
        // GB "0|180020": "0x" and "18" only.
        #expect(admits(starts("GB"), "0207"))
        #expect(admits(starts("GB"), "1800"))
        #expect(!admits(starts("GB"), "2079"))
        #expect(!admits(starts("GB"), "1900"))
        // AR "0?(?:(11|...)15)?" matches the empty string: everything goes to the DFA walk.
        #expect(admits(starts("AR"), "99"))
        // US "1".
        #expect(admits(starts("US"), "16"))
        #expect(!admits(starts("US"), "65"))
    }

    /// The three-digit masks that spare +1 numbers most leading-digit walks
    /// (`_Tables.leadingFilter`) may keep a region that cannot match, never drop one that can.
    @Test func leadingDigitFilterNeverHidesARegion() {
        let store = _Store.shared
        var random = SplitMix64(seed: 0x1EAD_D1)
        var filtered = 0
        var matches = 0
        var skipped = 0
        for code in 1..<1000 where store.tables.pointee.leadingFilterStart[code] >= 0 {
            filtered += 1
            let start = Int(store.tables.pointee.callingCodeStart[code]), count = Int(store.tables.pointee.callingCodeCount[code])
            for k in 0..<count {
                let leading = store.tables.pointee.core[Int(store.tables.pointee.regionLists[start + k])].leadingDigits
                guard leading >= 0 else { continue }
                for p in 0..<1000 {
                    let admitted = store.tables.pointee.leadingFilter[Int(store.tables.pointee.leadingFilterStart[code]) + p] & (1 << UInt32(k)) != 0
                    for _ in 0..<4 {
                        var digits = Array(String(format: "%03d", p).utf8)
                        for _ in 0..<random.below(9) { digits.append(UInt8(0x30 + random.below(10))) }
                        let matched = digits.withUnsafeBufferPointer { _DFA.prefixMatches(store.tables.pointee.words, leading, $0) }
                        if matched { matches += 1 }
                        if !admitted { skipped += 1 }
                        #expect(!matched || admitted, "+\(code) region \(k): \(String(decoding: digits, as: UTF8.self))")
                    }
                }
            }
        }
        #expect(filtered >= 1)        // +1 at least
        #expect(matches >= 100)       // the NANP members' area codes, four numbers each
        #expect(skipped > 50_000)     // and it does spare walks
    }
}

/// The Pike VM first runs with thread lists of at most 24 entries (stack scratch) and reruns with
/// room for every instruction only when a list overflows: both give the same match.
@Suite struct PikeVMScratchTests {
    @Test func smallThreadListsGiveTheFullResult() {
        let store = _Store.shared
        var random = SplitMix64(seed: 0x91CE)
        var programs = Set<Int32>()
        for index in store.regions.indices {
            let record = store.regions[index]
            for program in [record.nationalPrefixForParsing, record.internationalPrefix] where program >= 0 {
                programs.insert(program)
            }
        }
        for format in store.formats { programs.insert(format.pattern) }
        var matches = 0
        for program in programs.sorted() {
            let count = _Metadata.word(Int(program))
            for _ in 0..<300 {
                var digits = (0..<(1 + random.below(18))).map { _ in UInt8(0x30 + random.below(10)) }
                if random.below(3) == 0 { digits.insert(contentsOf: Array("0".utf8), at: 0) }
                for toEnd in [false, true] {
                    digits.withUnsafeBufferPointer { buffer in
                        let small = _PikeVM.match(store.tables.pointee.words, program, buffer, toEnd: toEnd)
                        let full = _PikeVM.run(store.tables.pointee.words, program, count, threads: count, buffer, toEnd: toEnd)
                        #expect(!full.overflowed)
                        if small != nil { matches += 1 }
                        #expect(small == full.matched, "program \(program): \(String(decoding: digits, as: UTF8.self))")
                    }
                }
            }
        }
        #expect(matches > 1_000)
    }
}
