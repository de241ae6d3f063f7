#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An instant on the UTC time line, to the second: what the sending window is asked about.
/// (No Foundation here: `Date(timeIntervalSince1970:)` converts with ``secondsSince1970``.)
///
/// ```swift
/// let instant = UTCInstant(secondsSince1970: 1_773_550_800)   // 2026-03-15T05:00:00Z
/// ```
public struct UTCInstant: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z (negative before).
    public var secondsSince1970: Int64

    /// The instant `secondsSince1970` seconds after 1970-01-01T00:00:00Z.
    public init(secondsSince1970: Int64) { self.secondsSince1970 = secondsSince1970 }

    /// The system clock's current instant (`CLOCK_REALTIME`), truncated to the second.
    public static func now() -> UTCInstant {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return UTCInstant(secondsSince1970: Int64(time.tv_sec))
    }

    public static func < (a: UTCInstant, b: UTCInstant) -> Bool { a.secondsSince1970 < b.secondsSince1970 }

    /// ISO 8601 in UTC, e.g. "2026-03-15T05:00:00Z".
    public var description: String { CivilTime(secondsSince1970, offset: 0).iso8601 }
}

/// A proleptic Gregorian date and time of day at a UTC offset, for descriptions.
struct CivilTime {
    var year: Int64, month: Int, day: Int, hour: Int, minute: Int, second: Int, offset: Int

    init(_ seconds: Int64, offset: Int) {
        let local = seconds &+ Int64(offset)
        var days = local / 86_400
        var rest = local % 86_400
        if rest < 0 { rest += 86_400; days -= 1 }
        hour = Int(rest / 3600)
        minute = Int(rest % 3600 / 60)
        second = Int(rest % 60)
        self.offset = offset
        // Days since 1970-01-01 to a civil date, counting in 400-year eras of 146,097 days that
        // start on March 1 (so that the leap day ends a year).
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        day = Int(dayOfYear - (153 * monthFromMarch + 2) / 5 + 1)
        month = Int(monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9)
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    var iso8601: String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        var text = "\(year)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))"
        if offset == 0 {
            text += "Z"
        } else {
            let magnitude = abs(offset)
            text += (offset < 0 ? "-" : "+") + two(magnitude / 3600) + ":" + two(magnitude % 3600 / 60)
        }
        return text
    }
}
