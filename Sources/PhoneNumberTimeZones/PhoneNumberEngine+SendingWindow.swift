import PhoneNumbers

extension PhoneNumberEngine {
    /// Whether a message may be sent to `number` at `instant` under a daily local-time window,
    /// and if not, the earliest instant it may: the strictest answer over all of the number's
    /// time zones (``timeZones(of:)``), so that a +1 toll-free number must be inside the window
    /// from Hawaii to Newfoundland at once.
    ///
    /// Offsets and daylight-saving transitions come from the system ICU's tz database
    /// (``PhoneNumberTimeZone/tzDataVersion``). When the window's start falls in a skipped hour
    /// (a spring-forward gap), the first instant after the gap is the answer.
    ///
    /// ```swift
    /// let number = try engine.parse(e164: "+12015550123")                       // New Jersey
    /// engine.sendingDecision(for: number, at: UTCInstant(secondsSince1970: 1_773_550_800))
    /// // .notBefore(2026-03-15T12:00:00Z): 01:00 EDT there, 08:00 EDT is 12:00 UTC
    /// ```
    /// - Parameters:
    ///   - number: The recipient.
    ///   - instant: When the message would go out, usually ``UTCInstant/now()``.
    ///   - window: The local hours allowed, 08:00 to 21:00 unless given.
    /// - Returns: ``SendingDecision/allowed``, ``SendingDecision/notBefore(_:)``, or why no
    ///   answer can be given.
    /// - Complexity: a few ICU offset lookups per zone; allocates when a zone is used for the
    ///   first time in the process, and when a window opening is across a transition (ICU's
    ///   transition search copies rules).
    public func sendingDecision(
        for number: PhoneNumber, at instant: UTCInstant, window: LocalTimeWindow = .daytime
    ) -> SendingDecision {
        timeZones(of: number).sendingDecision(at: instant, window: window)
    }
}

extension PhoneNumberTimeZoneList {
    /// The strictest ``SendingDecision`` over these zones: allowed when `instant` is inside the
    /// window in every zone, else the earliest later instant inside it in all of them.
    ///
    /// ```swift
    /// engine.timeZones(of: number).sendingDecision(at: .now(), window: .daytime)
    /// ```
    public func sendingDecision(at instant: UTCInstant, window: LocalTimeWindow = .daytime) -> SendingDecision {
        if isEmpty { return .unknownTimeZone }
        let horizon = instant.secondsSince1970 &+ 8 * 86_400
        var candidate = instant.secondsSince1970
        // Each round moves the candidate to the latest of the zones' earliest allowed instants;
        // it stops when every zone allows the candidate, or past the horizon.
        for _ in 0 ..< 64 {
            var latest = candidate
            for zone in self {
                guard let allowed = zone.earliestAllowed(from: candidate, window: window) else { return .unknownTimeZone }
                if allowed > latest { latest = allowed }
            }
            if latest == candidate {
                return candidate == instant.secondsSince1970 ? .allowed : .notBefore(UTCInstant(secondsSince1970: candidate))
            }
            if latest > horizon { return .noCommonWindow }
            candidate = latest
        }
        return .noCommonWindow
    }
}

extension PhoneNumberTimeZone {
    /// The ``SendingDecision`` for this zone alone.
    ///
    /// ```swift
    /// PhoneNumberTimeZone("Asia/Kolkata")!.sendingDecision(at: .now())
    /// ```
    public func sendingDecision(at instant: UTCInstant, window: LocalTimeWindow = .daytime) -> SendingDecision {
        guard let allowed = earliestAllowed(from: instant.secondsSince1970, window: window) else { return .unknownTimeZone }
        return allowed == instant.secondsSince1970 ? .allowed : .notBefore(UTCInstant(secondsSince1970: allowed))
    }

    /// The earliest second at or after `start` whose local time in this zone is in the window;
    /// nil when ICU does not know the zone.
    ///
    /// Between two transitions the offset is constant, so local time runs with UTC and the
    /// window's next start is a subtraction; when a transition comes first, the walk restarts
    /// there under the new offset (and a start skipped by a spring-forward gap resolves to the
    /// end of the gap).
    func earliestAllowed(from start: Int64, window: LocalTimeWindow) -> Int64? {
        var instant = start
        for _ in 0 ..< 16 {
            guard let offset = utcOffset(at: UTCInstant(secondsSince1970: instant)) else { return nil }
            var secondOfDay = (instant &+ Int64(offset)) % 86_400
            if secondOfDay < 0 { secondOfDay += 86_400 }
            if window.contains(secondOfDay: secondOfDay) { return instant }
            let opening = instant &+ window.secondsToStart(from: secondOfDay)
            // The same offset at both ends: local time ran with UTC (offsets do not change and
            // change back within a day), so the window opens at `opening`. Only then is ICU's
            // transition search, which allocates (it copies the transition's rules), needed.
            guard let offsetThen = utcOffset(at: UTCInstant(secondsSince1970: opening)) else { return nil }
            if offsetThen == offset { return opening }
            if let transition = nextTransition(after: UTCInstant(secondsSince1970: instant)),
               transition.secondsSince1970 <= opening {
                instant = transition.secondsSince1970
                continue
            }
            return opening
        }
        return nil
    }
}
