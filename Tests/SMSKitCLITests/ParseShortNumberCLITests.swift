import Foundation
import Testing

/// `smskit parse` shows when an invalid input is a short or emergency number of --region.
@Suite("smskit parse: short numbers")
struct ParseShortNumberCLITests {
    @Test func jsonHasShortNumberFacts() throws {
        let result = try CLI.run(["parse", "911", "--region", "US", "--format", "json"])
        #expect(result.status == 0)
        let object = try #require(try result.json() as? [String: Any])
        #expect(object["valid"] as? Bool == false)
        let short = try #require(object["short_number"] as? [String: Any])
        #expect(short["region"] as? String == "US")
        #expect(short["valid"] as? Bool == true)
        #expect(short["cost"] as? String == "toll_free")
        #expect(short["emergency"] as? Bool == true)
        #expect(short["carrier_specific"] as? Bool == false)
        #expect(short["sms_service"] as? Bool == false)
        let valid = try CLI.run(["parse", "+1 650-253-0000", "--format", "json"])
        #expect((try valid.json() as? [String: Any])?["short_number"] is NSNull)
    }

    @Test func textLine() throws {
        let emergency = try CLI.run(["parse", "112", "--region", "DE"])
        #expect(emergency.stdout.contains("short number:    DE toll_free, valid, EMERGENCY\n"))
        let premium = try CLI.run(["parse", "24280", "--region", "US"])
        #expect(premium.stdout.contains("short number:    US premium_rate, valid, SMS service\n"))
        let valid = try CLI.run(["parse", "+1 650-253-0000"])
        #expect(!valid.stdout.contains("short number:"))
    }
}
