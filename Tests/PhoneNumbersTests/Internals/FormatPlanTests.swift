import SMSKitTestSupport
import Testing

@testable import PhoneNumbers

/// `_FormatPlan` (formatting without the Pike VM) against the VM it stands in for: the same
/// captures for every planned pattern on inputs of every length around its own, and the same
/// formatted text for every region's example numbers.
@Suite("Format plans")
struct FormatPlanTests {
    static let engine = PhoneNumberEngine()
    static let store = _Store.shared

    /// What formatting takes from the VM: the first match from the start when the pattern also
    /// matches the whole input, else nil.
    static func vmWholeMatch(_ pattern: Int32, _ nsn: UnsafeBufferPointer<UInt8>) -> _Captures? {
        let words = _Metadata.words
        guard let first = _PikeVM.match(words, pattern, nsn, toEnd: false) else { return nil }
        if Int(first[1]) != nsn.count, _PikeVM.match(words, pattern, nsn, toEnd: true) == nil { return nil }
        return first
    }

    @Test("most format patterns have a plan")
    func coverage() {
        let formats = Self.store.formats
        let planned = formats.filter { $0.plan != nil }.count
        // 734 of the 964 formats are fixed-width and most of the rest one variable run.
        #expect(planned * 10 >= formats.count * 9, "\(planned) of \(formats.count)")
    }

    @Test("a plan's captures are the VM's for inputs of every length, narrow classes met or not")
    func capturesAgreeWithVM() {
        var random = SplitMix64(seed: 29)  // seeded: a failure can be reproduced
        var compared = 0, matched = 0
        for (index, record) in Self.store.formats.enumerated() {
            guard let plan = record.plan else { continue }
            let longest = plan.minimumLength + plan.optionalDigits
            for length in 0...(longest + 2) {
                for attempt in 0..<12 {
                    var digits = (0..<length).map { _ in UInt8(0x30 + random.below(10)) }
                    // Most attempts meet the narrow classes, so that matches are compared too.
                    if attempt < 9 {
                        for c in 0..<plan.checkCount where Int(plan.checkPositions[c]) < length {
                            let mask = plan.checkMasks[c]
                            let allowed = (0..<10).filter { mask & (1 << $0) != 0 }
                            if !allowed.isEmpty {
                                digits[Int(plan.checkPositions[c])] = UInt8(0x30 + allowed[random.below(allowed.count)])
                            }
                        }
                    }
                    digits.withUnsafeBufferPointer { nsn in
                        let expected = Self.vmWholeMatch(record.pattern, nsn)
                        let actual = plan.wholeMatch(nsn)
                        compared += 1
                        if expected != nil { matched += 1 }
                        #expect(
                            actual == expected,
                            "format \(index) \(record.format) on \(String(decoding: nsn, as: UTF8.self))")
                    }
                }
            }
        }
        #expect(matched * 10 > compared, "\(matched) matches in \(compared) comparisons")
    }

    @Test("every region's example numbers format the same with and without plans")
    func exampleNumbersAgree() {
        let types: [PhoneNumberType] = [
            .fixedLine, .mobile, .tollFree, .premiumRate, .sharedCost, .voip, .personalNumber, .pager, .uan,
            .voicemail,
        ]
        var numbers: [PhoneNumber] = []
        for region in Self.engine.supportedRegions {
            for type in types {
                if let number = Self.engine.exampleNumber(for: region, type: type) { numbers.append(number) }
            }
        }
        for code in [800, 808, 870, 878, 881, 882, 883, 888, 979] {
            if let number = Self.engine.exampleNumber(forNonGeographicCallingCode: code) { numbers.append(number) }
        }
        #expect(numbers.count > 1_000)
        for number in numbers {
            for format in [PhoneNumberFormat.national, .international, .rfc3966] {
                #expect(
                    Self.engine._format(number, as: format, usePlans: true)
                        == Self.engine._format(number, as: format, usePlans: false),
                    "\(Self.engine.formatE164(number)) \(format)")
            }
        }
    }
}
