import Foundation
import Testing

/// Short numbers given with a calling code, end to end: `smskit validate` answers as
/// libphonenumber's ShortNumberInfo does for the number's region (a premium-rate short code
/// written `+91 1171627` is still one), and a plus sign never reaches an emergency service.
@Suite struct ValidateShortNumberCLITests {
    @Test func aShortCodeGivenWithItsCallingCode() throws {
        let input = "+91 1171627\n+911171627\n1171627\n+44 999\n+91 11716270\n"
        let result = try CLI.run(["validate", "--region", "IN", "--format", "csv", "--fields", "input,ok,valid,short_number,cost"],
                                 stdin: Data(input.utf8))
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.lines == [
            "input,ok,valid,short_number,cost",
            "+91 1171627,true,false,true,premium_rate",
            "+911171627,true,false,true,premium_rate",
            "1171627,true,false,true,premium_rate",
            // Of GB, the number's region; toll free, not an emergency call with a plus sign.
            "+44 999,true,false,true,toll_free",
            "+91 11716270,true,false,false,",
        ])
        let parse = try CLI.run(["parse", "+44 999", "--region", "US", "--format", "json"])
        let short = try #require((try parse.json() as? [String: Any])?["short_number"] as? [String: Any], "stdout: \(parse.stdout)")
        #expect(short["region"] as? String == "GB")
        #expect(short["emergency"] as? Bool == false)
    }
}
