import PhoneNumbers

/// The one place where `smskit` asks the engine about numbers, so that every subcommand reports
/// the same things the same way.
enum _Checker {
    /// One number (`parse`).
    static func check(_ engine: PhoneNumberEngine, _ text: String, defaultRegion: RegionCode?) -> PhoneNumberCheck {
        engine.check(text, defaultRegion: defaultRegion)
    }

    /// One record of `validate`: the same answers as `check`, over the field's bytes, with no
    /// String made for the input or the E.164 form (the record writers write them as bytes).
    @inline(__always)
    static func checkRecord(_ engine: PhoneNumberEngine, utf8 input: UnsafeBufferPointer<UInt8>, defaultRegion: RegionCode?) -> PhoneNumberCheck {
        engine.check(utf8: input, defaultRegion: defaultRegion)
    }

    /// A parsed number in one of the four formats.
    static func format(_ engine: PhoneNumberEngine, _ number: PhoneNumber, as format: PhoneNumberFormat) -> String? {
        engine.format(number, as: format)
    }
}
