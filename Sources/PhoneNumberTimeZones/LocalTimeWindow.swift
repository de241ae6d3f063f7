/// A daily window of local wall-clock time in which messages may be sent, such as the US TCPA's
/// 08:00 to 21:00 at the recipient's location. The start is included, the end is not; a window
/// whose end is before its start runs over midnight (22:00 to 06:00).
///
/// ```swift
/// let window = LocalTimeWindow.daytime                                  // 08:00 to 21:00
/// let strict = LocalTimeWindow(startHour: 8, startMinute: 0, endHour: 20, endMinute: 0)!
/// ```
public struct LocalTimeWindow: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The first minute of the window, in minutes after local midnight (0 ..< 1440).
    public let startMinute: Int
    /// The first minute after the window, in minutes after local midnight (0 ..< 1440).
    public let endMinute: Int

    /// A window from `startMinute` up to (not including) `endMinute`, in minutes after local
    /// midnight; nil unless both are in 0 ..< 1440 and differ.
    public init?(startMinute: Int, endMinute: Int) {
        guard (0 ..< 1440).contains(startMinute), (0 ..< 1440).contains(endMinute), startMinute != endMinute else {
            return nil
        }
        self.startMinute = startMinute
        self.endMinute = endMinute
    }

    /// A window from `startHour:startMinute` up to `endHour:endMinute`; nil for hours outside
    /// 0 ..< 24, minutes outside 0 ..< 60, or an empty window.
    public init?(startHour: Int, startMinute: Int, endHour: Int, endMinute: Int) {
        guard (0 ..< 24).contains(startHour), (0 ..< 60).contains(startMinute),
              (0 ..< 24).contains(endHour), (0 ..< 60).contains(endMinute) else { return nil }
        self.init(startMinute: startHour * 60 + startMinute, endMinute: endHour * 60 + endMinute)
    }

    /// 08:00 to 21:00, the US TCPA's hours for marketing messages.
    public static let daytime = LocalTimeWindow(startMinute: 8 * 60, endMinute: 21 * 60)!

    /// Whether a local time of day, in seconds after midnight, is in the window.
    @inline(__always)
    func contains(secondOfDay: Int64) -> Bool {
        let start = Int64(startMinute) * 60, end = Int64(endMinute) * 60
        return start < end ? (secondOfDay >= start && secondOfDay < end) : (secondOfDay >= start || secondOfDay < end)
    }

    /// Seconds from a local time of day to the window's next start (1 ... 86,400 when outside).
    @inline(__always)
    func secondsToStart(from secondOfDay: Int64) -> Int64 {
        let wait = (Int64(startMinute) * 60 - secondOfDay) % 86_400
        return wait <= 0 ? wait + 86_400 : wait
    }

    /// "08:00-21:00".
    public var description: String {
        func hhmm(_ minutes: Int) -> String {
            let h = minutes / 60, m = minutes % 60
            return (h < 10 ? "0\(h)" : "\(h)") + ":" + (m < 10 ? "0\(m)" : "\(m)")
        }
        return hhmm(startMinute) + "-" + hhmm(endMinute)
    }
}
