import Foundation
import Testing

/// `smskit parse`'s time zone, local time, sending window and carrier lines.
@Suite("smskit parse: time zones and carrier")
struct ParseExtrasCLITests {
    @Test func jsonHasZonesLocalTimesWindowAndCarrier() throws {
        let result = try CLI.run(["parse", "+40721234567", "--format", "json"])
        #expect(result.status == 0)
        let object = try #require(try result.json() as? [String: Any])
        #expect(object["time_zones"] as? [String] == ["Europe/Bucharest"])
        let local = try #require((object["local_times"] as? [[String: Any]])?.first)
        #expect(local["zone"] as? String == "Europe/Bucharest")
        let offset = try #require(local["utc_offset_seconds"] as? Int)
        #expect(offset == 7200 || offset == 10_800)  // EET or EEST
        #expect((local["local_time"] as? String)?.hasSuffix(offset == 7200 ? "+02:00" : "+03:00") == true)
        let window = try #require(object["sending_window"] as? [String: Any])
        #expect(window["window"] as? String == "08:00-21:00")
        #expect(["allowed", "not_before"].contains(window["decision"] as? String ?? ""))
        #expect(object["carrier"] as? String == "Vodafone")
        #expect(object["mobile_number_portable_region"] as? Bool == true)
        #expect((object["metadata_version"] as? String)?.hasPrefix("9.") == true)
    }

    @Test func textLinesKeepTheColumn() throws {
        let result = try CLI.run(["parse", "+1 650-253-0000"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("time zones:      America/Los_Angeles\n"))
        #expect(result.stdout.contains("local time:      20"))
        #expect(result.stdout.contains("sending window:  08:00-21:00 "))
        #expect(result.stdout.contains("carrier:         -\n"))
        #expect(result.stdout.contains("international:   +1 650-253-0000\n"))
    }

    @Test func aNumberWithManyZonesListsThemWithoutLocalTimeLines() throws {
        let result = try CLI.run(["parse", "+1 800 555 0123"])
        #expect(result.stdout.contains("Pacific/Guam"))
        #expect(!result.stdout.contains("local time:"))
    }

    @Test func failuresHaveNullFields() throws {
        let result = try CLI.run(["parse", "hello", "--format", "json"])
        #expect(result.status == 0)
        let object = try #require(try result.json() as? [String: Any])
        #expect(object["time_zones"] is NSNull)
        #expect(object["carrier"] is NSNull)
        let invalid = try CLI.run(["parse", "+1 201 555 012", "--format", "json"])
        let fields = try #require(try invalid.json() as? [String: Any])
        #expect(fields["time_zones"] as? [String] == [])
        #expect((fields["sending_window"] as? [String: Any])?["decision"] as? String == "unknown_time_zone")
    }
}
