import PhoneNumberCarriers
import PhoneNumberTimeZones
import PhoneNumbers
import SMSKitJSON

/// `smskit parse`'s time zone, local time, sending window and carrier facts from
/// PhoneNumberTimeZones and PhoneNumberCarriers. Local times and the sending window are for the
/// moment the command runs; the window is the default 08:00-21:00; carrier names are English.
extension ParseCommand {
    /// At most this many zones get a `local time` line in the text output (a +1 toll-free number
    /// has 42); JSON lists them all.
    static var localTimeLines: Int { 3 }

    /// The JSON fields: time_zones (array, null when the input did not parse), local_times
    /// (array of zone, local_time, utc_offset_seconds), sending_window (the window, decision and
    /// not_before), carrier (string or null), mobile_number_portable_region (bool or null).
    static func extraFields(_ check: PhoneNumberCheck, engine: PhoneNumberEngine) -> [(String, JSONValue)] {
        let now = UTCInstant.now()
        guard let number = check.number else {
            return [("time_zones", .null), ("local_times", .null), ("sending_window", .null), ("carrier", .null),
                    ("mobile_number_portable_region", .null)]
        }
        let zones = engine.timeZones(of: number)
        let decision = zones.sendingDecision(at: now)
        var notBefore: JSONValue = .null
        if case .notBefore(let instant) = decision { notBefore = .string(instant.description) }
        return [
            ("time_zones", .array(zones.map { zone -> JSONValue in .string(zone.identifier) })),
            ("local_times", .array(zones.map { zone -> JSONValue in
                .object([
                    ("zone", .string(zone.identifier)),
                    ("local_time", .optional(zone.localTime(at: now))),
                    ("utc_offset_seconds", zone.utcOffset(at: now).map { offset -> JSONValue in .int(offset) } ?? .null),
                ])
            })),
            ("sending_window", .object([
                ("window", .string(LocalTimeWindow.daytime.description)),
                ("decision", .string(Self.decisionName(decision))),
                ("not_before", notBefore),
            ])),
            ("carrier", .optional(engine.carrierName(of: number, locale: .english)?.text)),
            ("mobile_number_portable_region", check.region.map { region -> JSONValue in .bool(engine.isMobileNumberPortable(region)) } ?? .null),
        ]
    }

    /// The text lines (labels no longer than the command's other labels, which set the column).
    static func extraLines(_ check: PhoneNumberCheck, engine: PhoneNumberEngine) -> [(String, String)] {
        let now = UTCInstant.now()
        guard let number = check.number else { return [] }
        let zones = engine.timeZones(of: number)
        var lines: [(String, String)] = [("time zones", zones.isEmpty ? "-" : zones.map(\.identifier).joined(separator: ", "))]
        if zones.count <= localTimeLines {
            for zone in zones { lines.append(("local time", "\(zone.localTime(at: now) ?? "unknown") \(zone.identifier)")) }
        }
        var window = "\(LocalTimeWindow.daytime) "
        switch zones.sendingDecision(at: now) {
        case .allowed: window += "allowed now"
        case .notBefore(let instant): window += "not before \(instant)"
        case .unknownTimeZone: window += "unknown (no time zone)"
        case .noCommonWindow: window += "no common window"
        }
        lines.append(("sending window", window))
        if let carrier = engine.carrierName(of: number, locale: .english) {
            let portable = check.region.map { engine.isMobileNumberPortable($0) } ?? false
            lines.append(("carrier", carrier.text + (portable ? " (original; the number may have moved)" : "")))
        } else {
            lines.append(("carrier", "-"))
        }
        return lines
    }

    static func decisionName(_ decision: SendingDecision) -> String {
        switch decision {
        case .allowed: "allowed"
        case .notBefore: "not_before"
        case .unknownTimeZone: "unknown_time_zone"
        case .noCommonWindow: "no_common_window"
        }
    }
}
