import PhoneNumbers

/// The one place where `smskit` asks the engine about numbers, so that every subcommand reports
/// the same things the same way.
enum _Checker {
    /// One number (`parse`).
    static func check(_ engine: PhoneNumberEngine, _ text: String, defaultRegion: RegionCode?) -> PhoneNumberCheck {
        engine.check(text, defaultRegion: defaultRegion)
    }

    /// A chunk of `validate` on all cores; one result per input, in order.
    static func checkBatch(_ engine: PhoneNumberEngine, _ inputs: [PhoneNumberInput]) -> [PhoneNumberCheck] {
        engine.checkBatch(inputs)
    }

    /// A parsed number in one of the four formats.
    static func format(_ engine: PhoneNumberEngine, _ number: PhoneNumber, as format: PhoneNumberFormat) -> String? {
        engine.format(number, as: format)
    }
}
