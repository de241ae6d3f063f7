import Testing

@testable import PhoneNumbers

/// ``PhoneNumberEngine/fictionalRange(of:)`` on parsed numbers, valid or not.
@Suite("Fictional ranges: parsed numbers")
struct FictionalPhoneNumberTests {
    let engine = PhoneNumberEngine()

    struct Case: CustomTestStringConvertible, Sendable {
        var e164: String
        var kind: FictionalKind?
        var testDescription: String { "\(e164) → \(kind?.rawValue ?? "not fictional")" }
    }

    static let cases: [Case] = [
        Case(e164: "+16505553434", kind: .nanp555Convention),  // Firebase's example, code 654321
        Case(e164: "+16505554567", kind: .nanp555Convention),  // Firebase's example, code 123456
        Case(e164: "+12125550100", kind: .reservedForFiction),
        Case(e164: "+12125550199", kind: .reservedForFiction),
        Case(e164: "+12125551212", kind: nil),
        Case(e164: "+16502530000", kind: nil),
        Case(e164: "+18005550199", kind: .reported),
        Case(e164: "+447700900123", kind: .reservedForFiction),  // invalid for libphonenumber
        Case(e164: "+441632960999", kind: .reservedForFiction),
        Case(e164: "+441632961000", kind: nil),
        Case(e164: "+61491570156", kind: .reservedForFiction),
        Case(e164: "+61255501234", kind: .reservedForFiction),
        Case(e164: "+493023125500", kind: .reservedForFiction),
        Case(e164: "+46701740605", kind: .reported),
    ]

    @Test("E.164 input", arguments: cases)
    func e164(_ testCase: Case) throws {
        let number = try engine.parse(e164: testCase.e164)
        #expect(engine.fictionalRange(of: number)?.kind == testCase.kind)
    }

    @Test("validity does not matter")
    func validityIndependent() throws {
        let drama = try engine.parse(e164: "+447700900123")
        #expect(!engine.isValid(drama))
        #expect(engine.fictionalRange(of: drama) != nil)
        let reserved = try engine.parse(e164: "+12125550150")
        #expect(engine.isValid(reserved))
        #expect(engine.fictionalRange(of: reserved)?.kind == .reservedForFiction)
    }

    @Test("leading zeros count as digits, and odd values match nothing")
    func builtNumbers() {
        // +1 000-555-0150: the national number is 5550150 with three leading zeros.
        let zeros = PhoneNumber(countryCode: 1, nationalNumber: 5_550_150, leadingZeros: 3)
        #expect(engine.fictionalRange(of: zeros)?.kind == .reservedForFiction)
        let short = PhoneNumber(countryCode: 1, nationalNumber: 5_550_150)
        #expect(engine.fictionalRange(of: short) == nil)
        #expect(engine.fictionalRange(of: PhoneNumber(countryCode: 44, nationalNumber: 7_700_900_123, leadingZeros: -1)) == nil)
        #expect(engine.fictionalRange(of: PhoneNumber(countryCode: 44, nationalNumber: 7_700_900_123, leadingZeros: .max)) == nil)
        #expect(engine.fictionalRange(of: PhoneNumber(countryCode: 44, nationalNumber: .max)) == nil)
        #expect(engine.fictionalRange(of: PhoneNumber(countryCode: -1, nationalNumber: 7_700_900_123)) == nil)
        #expect(engine.fictionalRange(of: PhoneNumber(countryCode: 44, nationalNumber: 0)) == nil)
    }

    @Test("the extension of a number is ignored")
    func extensionIgnored() {
        let number = PhoneNumber(countryCode: 44, nationalNumber: 2_079_460_123, extension: "12")
        #expect(engine.fictionalRange(of: number)?.kind == .reservedForFiction)
    }

    @Test("digit count")
    func digitCount() {
        #expect(_decimalDigitCount(0) == 1)
        #expect(_decimalDigitCount(9) == 1)
        #expect(_decimalDigitCount(10) == 2)
        #expect(_decimalDigitCount(9_999_999_999) == 10)
        #expect(_decimalDigitCount(10_000_000_000) == 11)
        #expect(_decimalDigitCount(99_999_999_999_999_999) == 17)
        #expect(_decimalDigitCount(100_000_000_000_000_000) == 18)
        #expect(_decimalDigitCount(10_000_000_000_000_000_000) == 20)
        #expect(_decimalDigitCount(UInt64.max) == 20)
        for exponent in 1...19 {
            let power = _powerOfTen(exponent)
            #expect(_decimalDigitCount(power - 1) == exponent)
            #expect(_decimalDigitCount(power) == exponent + 1)
        }
    }
}

/// First, last, one below and one above every row, written nationally, internationally and in E.164,
/// parsed by the engine: the fictional range must not depend on the input form.
@Suite("Fictional ranges: input forms")
struct FictionalInputFormTests {
    let engine = PhoneNumberEngine()

    static let edgeCases = FictionalRangesMatchTests.edgeCases

    /// The region to parse national input in, and its trunk prefix.
    static func national(_ row: FictionalTable.Row) -> (region: RegionCode, trunk: String) {
        switch row.region {
        case "NANP": ("US", "1")
        default: (RegionCode(row.region)!, "0")
        }
    }

    @Test("national, international and E.164 forms agree with the oracle", arguments: edgeCases)
    func forms(_ edge: FictionalRangesMatchTests.EdgeCase) throws {
        let row = try #require(FictionalTable.rows.first { $0.line == edge.line })
        let (region, trunk) = Self.national(row)
        var checked = 0
        for digits in edge.numbers {
            let expected = FictionalTable.expected(countryCode: edge.countryCode, digits: digits)
            let split = digits.count > 4 ? "\(digits.prefix(3)) \(digits.dropFirst(3))" : digits
            let inputs: [(String, RegionCode?)] = [
                ("+\(edge.countryCode)\(digits)", nil),
                ("+\(edge.countryCode) \(split)", nil),
                ("\(trunk)\(digits)", region),
                ("00\(edge.countryCode) \(split)", region == "US" ? "GB" : region),
            ]
            for (text, inputRegion) in inputs {
                guard let number = try? engine.parse(text, defaultRegion: inputRegion) else {
                    // Only numbers the engine cannot read at all may fail to parse (e.g. NPA 0xx).
                    #expect(digits.hasPrefix("0") || digits.hasPrefix("1"), "\(text) did not parse")
                    continue
                }
                guard number.countryCode == edge.countryCode,
                    number.leadingZeros + String(number.nationalNumber).count == digits.count
                else {
                    // libphonenumber reads some invalid inputs differently (e.g. strips what looks like
                    // a national prefix); then the digits are not these digits, so there is nothing to check.
                    continue
                }
                #expect(
                    engine.fictionalRange(of: number).map(FictionalTable.Fields.init) == expected,
                    "\(text) [\(inputRegion?.identifier ?? "-")]")
                checked += 1
            }
        }
        // Most forms must have been checked, not skipped.
        #expect(checked * 2 >= edge.numbers.count * 4, "only \(checked) of \(edge.numbers.count * 4) inputs checked")
    }
}
