import PhoneNumbers

/// The match result: whether two inputs are the same phone number, as libphonenumber's
/// `isNumberMatch` says, with the dedupe key of each input. The document of `smskit match` and
/// of the service's `POST /v1/numbers/match`.
///
/// Without a region both inputs are texts (the first one with a country code is read, the other
/// compared with it). With a region the first input is parsed in it (a first input that does
/// not parse so is `not_a_number`) and the second compared with that number.
package struct NumberMatchResult: Sendable {
    package var first: String
    package var second: String
    /// The region the first input is read in; nil for none (`ZZ`).
    package var region: RegionCode?
    package var match: PhoneNumberMatchType
    /// The inputs' dedupe keys (E.164 and `;ext=`) when they parse with ``region`` (or none).
    package var firstKey: String?
    package var secondKey: String?

    package init(first: String, second: String, region: RegionCode?, engine: PhoneNumberEngine) {
        self.first = first
        self.second = second
        self.region = region
        if let region {
            if let number = try? engine.parse(first, defaultRegion: region) {
                match = engine.match(number, second)
            } else {
                match = .notANumber
            }
        } else {
            match = engine.match(first, second)
        }
        firstKey = (try? engine.parse(first, defaultRegion: region))?.dedupeKey
        secondKey = (try? engine.parse(second, defaultRegion: region))?.dedupeKey
    }

    /// The JSON document, fields in this order: `first`, `second`, `region`, `match`,
    /// `is_match`, `first_key`, `second_key`.
    package var json: JSONValue {
        .object([
            ("first", .string(first)),
            ("second", .string(second)),
            ("region", .optional(region?.identifier)),
            ("match", .string(match.rawValue)),
            ("is_match", .bool(match.isMatch)),
            ("first_key", .optional(firstKey)),
            ("second_key", .optional(secondKey)),
        ])
    }

    /// The text form: the match's name and a line end.
    package var text: String { match.rawValue + "\n" }
}
