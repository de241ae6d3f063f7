import PhoneNumbers
import Testing

/// Agreement with the oracle (PyPI phonenumbers' ShortNumberInfo, same metadata version) on every
/// row and field of Fixtures/short_numbers.tsv and Fixtures/short_emergency.tsv
/// (tools/oracle/gen_short_number_fixture.py).
@Suite struct ShortNumberFixtureTests {
    let engine = PhoneNumberEngine()

    static func flag(_ value: Bool) -> String { value ? "true" : "false" }

    /// The number of a row: calling code and national significant number with its leading zeros
    /// ("000" is 0 after two zeros, as the oracle's number).
    static func number(_ cc: String, _ nsn: String) -> PhoneNumber {
        var zeros = nsn.prefix(while: { $0 == "0" }).count
        if zeros == nsn.count { zeros -= 1 }
        return PhoneNumber(countryCode: Int(cc)!, nationalNumber: UInt64(nsn.dropFirst(zeros))!, leadingZeros: zeros)
    }

    @Test func everyNumberRowAgreesWithTheOracle() throws {
        let fixture = try Fixture("short_numbers.tsv")
        #expect(fixture.header == ["cc", "nsn", "region", "possible", "possible_region", "valid", "valid_region",
                                   "cost", "cost_region", "carrier", "carrier_region", "sms_region"])
        #expect(fixture.rows.count >= 20_000)
        var mismatches: [String] = []
        var agreeing = 0
        for row in fixture.rows {
            let number = Self.number(row[0], row[1])
            #expect(number.nationalSignificantNumber == row[1])
            let region = RegionCode(row[2])!
            let got = [
                Self.flag(engine.isPossibleShortNumber(number)),
                Self.flag(engine.isPossibleShortNumber(number, forRegion: region)),
                Self.flag(engine.isValidShortNumber(number)),
                Self.flag(engine.isValidShortNumber(number, forRegion: region)),
                engine.expectedCost(of: number).rawValue,
                engine.expectedCost(of: number, forRegion: region).rawValue,
                Self.flag(engine.isCarrierSpecific(number)),
                Self.flag(engine.isCarrierSpecific(number, forRegion: region)),
                Self.flag(engine.isSMSServiceNumber(number, forRegion: region)),
            ]
            let want = Array(row[3...11])
            if got == want {
                agreeing += 1
            } else if mismatches.count < 20 {
                mismatches.append("+\(row[0]) \(row[1]) in \(row[2]): got \(got) want \(want)")
            }
        }
        #expect(agreeing == fixture.rows.count, "\(mismatches.joined(separator: "\n"))")
    }

    /// Inputs given with their calling code ("+91 1171627" in IN): `check`'s short-number facts
    /// are the oracle's ShortNumberInfo answers for the number's region (Fixtures/short_given.tsv).
    @Test func everyInputGivenWithItsCallingCodeAgreesWithTheOracle() throws {
        let fixture = try Fixture("short_given.tsv")
        #expect(fixture.header == ["text", "region", "short_region", "valid", "cost", "carrier", "sms"])
        #expect(fixture.rows.count >= 5_000)
        #expect(fixture.rows.contains { $0[0] == "+91 1171627" && $0[1] == "IN" && $0[2] == "IN" && $0[4] == "premium_rate" })
        var mismatches: [String] = []
        var agreeing = 0
        var short = 0
        for row in fixture.rows {
            let check = engine.check(row[0], defaultRegion: RegionCode(row[1])!)
            let got = check.shortNumber.map {
                [$0.region.identifier, Self.flag($0.isValid), $0.cost.rawValue, Self.flag($0.isCarrierSpecific), Self.flag($0.isSMSService)]
            } ?? ["-", "-", "-", "-", "-"]
            #expect(check.shortNumber?.isEmergency != true, "\(row[0]) in \(row[1])")
            if got != ["-", "-", "-", "-", "-"] { short += 1 }
            if got == Array(row[2...6]) {
                agreeing += 1
            } else if mismatches.count < 20 {
                mismatches.append("\(row[0]) in \(row[1]): got \(got) want \(Array(row[2...6]))")
            }
        }
        #expect(agreeing == fixture.rows.count, "\(mismatches.joined(separator: "\n"))")
        #expect(short >= 1_000)
    }

    @Test func everyEmergencyRowAgreesWithTheOracle() throws {
        let fixture = try Fixture("short_emergency.tsv")
        #expect(fixture.header == ["text", "region", "is_emergency", "connects"])
        #expect(fixture.rows.count >= 10_000)
        var mismatches: [String] = []
        var agreeing = 0
        for row in fixture.rows {
            let region = RegionCode(row[1])!
            let got = [Self.flag(engine.isEmergencyNumber(row[0], region: region)),
                       Self.flag(engine.connectsToEmergencyNumber(row[0], region: region))]
            if got == [row[2], row[3]] {
                agreeing += 1
            } else if mismatches.count < 20 {
                mismatches.append("\(row[0].debugDescription) in \(row[1]): got \(got) want \([row[2], row[3]])")
            }
        }
        #expect(agreeing == fixture.rows.count, "\(mismatches.joined(separator: "\n"))")
    }

    /// The examples of the API's documentation say what the engine says.
    @Test func documentationExamples() {
        #expect(engine.isPossibleShortNumber(PhoneNumber(countryCode: 33, nationalNumber: 123456)))
        #expect(engine.isPossibleShortNumber(PhoneNumber(countryCode: 1, nationalNumber: 911), forRegion: "US"))
        #expect(engine.isValidShortNumber(PhoneNumber(countryCode: 1, nationalNumber: 911)))
        #expect(engine.isValidShortNumber(PhoneNumber(countryCode: 33, nationalNumber: 112), forRegion: "FR"))
        #expect(engine.expectedCost(of: PhoneNumber(countryCode: 1, nationalNumber: 24280), forRegion: "US") == .premiumRate)
        #expect(engine.expectedCost(of: PhoneNumber(countryCode: 1, nationalNumber: 112)) == .unknownCost)
        #expect(engine.expectedCost(of: PhoneNumber(countryCode: 1, nationalNumber: 112), forRegion: "US") == .tollFree)
        #expect(engine.isEmergencyNumber("911", region: "US"))
        #expect(!engine.isEmergencyNumber("9110", region: "US"))
        #expect(engine.connectsToEmergencyNumber("9116", region: "US"))
        #expect(!engine.connectsToEmergencyNumber("1900", region: "BR"))
        #expect(engine.isCarrierSpecific(PhoneNumber(countryCode: 1, nationalNumber: 33669)))
        #expect(engine.isCarrierSpecific(PhoneNumber(countryCode: 1, nationalNumber: 33669), forRegion: "US"))
        #expect(engine.isSMSServiceNumber(PhoneNumber(countryCode: 1, nationalNumber: 21234), forRegion: "US"))
    }

    /// Every question about a short number in a region whose data does not exist ("001", "ZZ")
    /// or of an unknown calling code is answered "no" or unknown cost.
    @Test(arguments: [RegionCode.nonGeographic, RegionCode.unknown, "AQ"])
    func regionsWithoutShortNumberData(region: RegionCode) {
        let number = PhoneNumber(countryCode: 1, nationalNumber: 911)
        #expect(!engine.isPossibleShortNumber(number, forRegion: region))
        #expect(!engine.isValidShortNumber(number, forRegion: region))
        #expect(engine.expectedCost(of: number, forRegion: region) == .unknownCost)
        #expect(!engine.isEmergencyNumber("911", region: region))
        let unknownCode = PhoneNumber(countryCode: 999, nationalNumber: 112)
        #expect(!engine.isValidShortNumber(unknownCode))
        #expect(engine.expectedCost(of: unknownCode) == .unknownCost)
    }

    /// Long and odd inputs end with an answer: a 1 MB string of digits, a long national number.
    @Test func largeInputs() {
        let digits = String(repeating: "9", count: 1 << 20)
        #expect(!engine.isEmergencyNumber("911" + digits, region: "US"))
        #expect(engine.connectsToEmergencyNumber("911" + digits, region: "US"))
        let long = PhoneNumber(countryCode: 1, nationalNumber: 12_345_678_901_234_567_890 as UInt64)
        #expect(!engine.isPossibleShortNumber(long))
        #expect(!engine.isValidShortNumber(long, forRegion: "US"))
        #expect(engine.expectedCost(of: long) == .unknownCost)
    }
}
