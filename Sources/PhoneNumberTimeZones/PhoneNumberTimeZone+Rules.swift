import CSMSKitICUTime

extension PhoneNumberTimeZone {
    /// The zone's offset from UTC at `instant`, in seconds east of UTC, daylight saving
    /// included, from the system ICU's tz database (see ``tzDataVersion``); nil when ICU does
    /// not know the zone or the instant is beyond ICU's range.
    ///
    /// ```swift
    /// PhoneNumberTimeZone("America/New_York")!.utcOffset(at: UTCInstant(secondsSince1970: 1_782_864_000))
    /// // -14400 (EDT, July 2026)
    /// ```
    /// - Complexity: O(log *t*) in the zone's transitions; allocates only on the zone's first use
    ///   in the process (ICU opens it once).
    public func utcOffset(at instant: UTCInstant) -> Int? {
        guard let zone = rules else { return nil }
        var offset: Int32 = 0
        guard smskit_icu_time_zone_offset(zone, Double(instant.secondsSince1970) * 1000, &offset) != 0 else { return nil }
        return Int(offset) / 1000
    }

    /// The zone's first offset change strictly after `instant` (a daylight-saving transition, or
    /// a change of standard time), rounded up to the second; nil when there is none or ICU does
    /// not know the zone.
    ///
    /// ```swift
    /// PhoneNumberTimeZone("Europe/Paris")!.nextTransition(after: UTCInstant(secondsSince1970: 1_767_225_600))
    /// // 2026-03-29T01:00:00Z
    /// ```
    public func nextTransition(after instant: UTCInstant) -> UTCInstant? {
        guard let zone = rules else { return nil }
        var transition = 0.0
        guard smskit_icu_time_zone_next_transition(zone, Double(instant.secondsSince1970) * 1000, &transition) != 0 else {
            return nil
        }
        return UTCInstant(secondsSince1970: Int64((transition / 1000).rounded(.up)))
    }

    /// The local date and time at `instant` with its offset, ISO 8601, e.g.
    /// "2026-03-15T01:00:00-04:00"; nil when ICU does not know the zone.
    public func localTime(at instant: UTCInstant) -> String? {
        guard let offset = utcOffset(at: instant) else { return nil }
        return CivilTime(instant.secondsSince1970, offset: offset).iso8601
    }

    /// The version of the tz database in the system ICU that gives the rules, e.g. "2022e".
    public static var tzDataVersion: String { String(cString: smskit_icu_tz_data_version()) }

    /// The zone's rules, opened once per process in the ICU shim's cache slot for this index.
    var rules: OpaquePointer? {
        let name = utf8
        return name.withMemoryRebound(to: CChar.self) { smskit_icu_time_zone_shared(UInt32(index), $0.baseAddress, Int32($0.count)) }
    }
}
