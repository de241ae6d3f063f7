import PhoneNumbers

/// The one place where `smskit` asks the engine about numbers.
///
/// TEMPORARY until `PhoneNumberEngine.check(_:defaultRegion:)` and `checkBatch(_:)` land: this
/// accepts E.164 input only (through `parse(e164:)`), so national numbers report the engine's
/// E.164 parse error.
enum _Checker {
    static func check(_ engine: PhoneNumberEngine, _ text: String, defaultRegion: RegionCode?) -> PhoneNumberCheck {
        do {
            let number = try engine.parse(e164: text)
            let (region, type) = engine.classify(number)
            return PhoneNumberCheck(
                number: number, error: nil, possibility: engine.possibility(of: number),
                isValid: engine.isValid(number), type: type, region: region,
                fictional: engine.fictionalRange(of: number), e164: engine.formatE164(number))
        } catch {
            return PhoneNumberCheck(number: nil, error: error, possibility: nil, isValid: false, type: .unknown,
                                    region: nil, fictional: nil, e164: nil)
        }
    }

    static func checkBatch(_ engine: PhoneNumberEngine, _ inputs: [PhoneNumberInput]) -> [PhoneNumberCheck] {
        inputs.map { check(engine, $0.text, defaultRegion: $0.defaultRegion) }
    }
}

extension _Checker {
    /// TEMPORARY until `PhoneNumberEngine.format(_:as:)` lands: E.164 only, `nil` for the others.
    static func format(_ engine: PhoneNumberEngine, _ number: PhoneNumber, as format: PhoneNumberFormat) -> String? {
        format == .e164 ? engine.formatE164(number) : nil
    }
}
