import ArgumentParser
import PhoneNumbers
import SMSKitCommandLine
import SMSKitJSON

/// `smskit parse NUMBER`: everything about one number.
struct ParseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse",
        abstract: "Show everything about one phone number: formats, possibility, validity, type, region, fictional range.",
        discussion: """
            Parses NUMBER as libphonenumber does: international numbers start with + (or an \
            international prefix such as 00 with --region); national numbers need --region.

            JSON FIELDS: input, default_region, ok, error, error_message, country_code, \
            national_number, extension, e164, international, national, rfc3966, possible, valid, \
            type, region, fictional (null, or kind, region, range, source, note), short_number (null, \
            or region, valid, cost, emergency, carrier_specific, sms_service: an input that is not a \
            valid number but a short or emergency number of --region), \
            time_zones, local_times, sending_window, carrier, mobile_number_portable_region, \
            metadata_version.

            EXAMPLES:
              smskit parse "+1 650-253-0000"
              smskit parse "020 7946 0000" --region GB --format json

            \(SMSKitExitCode.helpText)
            """
    )

    @Argument(help: "The number, as written (quote it when it has spaces).")
    var number: String

    @Option(help: ArgumentHelp("Default region for a national number: ISO 3166-1 code such as US or gb; ZZ for none.", valueName: "XX"))
    var region: RegionArgument?

    @Option(help: "Output format: text or json.")
    var format: DetailFormat = .text

    func run() throws {
        let engine = PhoneNumberEngine()
        let check = engine.check(number, defaultRegion: region?.code)
        var output = _Output()
        switch format {
        case .json: try output.write(json(check, engine: engine).rendered)
        case .text: try output.write(text(check, engine: engine))
        }
        try output.flush()
    }

    func formats(_ check: PhoneNumberCheck, engine: PhoneNumberEngine) -> [(String, String?)] {
        guard let parsed = check.number else { return PhoneNumberFormat.allCases.map { ($0.rawValue, nil) } }
        return PhoneNumberFormat.allCases.map { ($0.rawValue, engine.format(parsed, as: $0)) }
    }

    static func range(_ fictional: FictionalRange) -> String {
        fictional.isSingleNumber ? fictional.first : "\(fictional.first)-\(fictional.last)"
    }

    func json(_ check: PhoneNumberCheck, engine: PhoneNumberEngine) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("input", .string(number)),
            ("default_region", .optional(region?.code?.identifier)),
            ("ok", .bool(check.number != nil)),
            ("error", .optional(check.error?.code.name)),
            ("error_message", .optional(check.error?.message)),
            ("country_code", check.number.map { .int($0.countryCode) } ?? .null),
            ("national_number", .optional(check.number?.nationalSignificantNumber)),
            ("extension", .optional(check.number?.extension)),
        ]
        for (name, value) in formats(check, engine: engine) { fields.append((name, .optional(value))) }
        fields += [
            ("possible", .optional(check.possibility?.rawValue)),
            ("valid", .bool(check.isValid)),
            ("type", .optional(check.number == nil ? nil : check.type.rawValue)),
            ("region", .optional(check.region?.identifier)),
            ("fictional", check.fictional.map { range in
                .object([
                    ("kind", .string(range.kind.rawValue)),
                    ("region", .string(range.region)),
                    ("range", .string(Self.range(range))),
                    ("source", .string(range.source)),
                    ("note", .string(range.note)),
                ])
            } ?? .null),
            ("short_number", check.shortNumber.map { short in
                .object([
                    ("region", .string(short.region.identifier)),
                    ("valid", .bool(short.isValid)),
                    ("cost", .string(short.cost.rawValue)),
                    ("emergency", .bool(short.isEmergency)),
                    ("carrier_specific", .bool(short.isCarrierSpecific)),
                    ("sms_service", .bool(short.isSMSService)),
                ])
            } ?? .null),
            ("metadata_version", .string(PhoneNumberEngine.metadataVersion)),
        ]
        let metadata = fields.removeLast()
        fields += Self.extraFields(check, engine: engine) + [metadata]
        return .object(fields)
    }

    func text(_ check: PhoneNumberCheck, engine: PhoneNumberEngine) -> String {
        var lines: [(String, String)] = [("input", number)]
        if let code = region?.code { lines.append(("default region", code.identifier)) }
        if let error = check.error, check.number == nil {
            lines.append(("error", "\(error.code.name): \(error.message)"))
        } else if let parsed = check.number {
            lines.append(("country code", "+\(parsed.countryCode)"))
            lines.append(("national number", parsed.nationalSignificantNumber))
            if let ext = parsed.extension { lines.append(("extension", ext)) }
            for (name, value) in formats(check, engine: engine) {
                lines.append((name == "rfc3966" ? "RFC 3966" : name == "e164" ? "E.164" : name, value ?? "-"))
            }
            lines.append(("possible", check.possibility?.rawValue ?? "-"))
            lines.append(("valid", check.isValid ? "yes" : "no"))
            lines.append(("type", check.type.rawValue))
            lines.append(("region", check.region?.identifier ?? "-"))
            if let fictional = check.fictional {
                lines.append(("fictional", "\(fictional.kind.rawValue) (\(fictional.region) \(Self.range(fictional)))"))
                lines.append(("  source", fictional.source))
                lines.append(("  note", fictional.note))
            } else {
                lines.append(("fictional", "no"))
            }
            if let short = check.shortNumber {
                let facts = [short.isValid ? "valid" : nil, short.isEmergency ? "EMERGENCY" : nil,
                             short.isCarrierSpecific ? "carrier specific" : nil, short.isSMSService ? "SMS service" : nil]
                lines.append(("short number", "\(short.region) \(short.cost.rawValue)"
                    + facts.compactMap { $0 }.map { ", \($0)" }.joined()))
            }
        }
        lines += Self.extraLines(check, engine: engine)
        lines.append(("metadata", "libphonenumber \(PhoneNumberEngine.metadataVersion)"))
        let width = lines.map(\.0.count).max() ?? 0
        return lines.map { name, value in
            name + ":" + String(repeating: " ", count: width - name.count + 1) + value
        }.joined(separator: "\n") + "\n"
    }
}
