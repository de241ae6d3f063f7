#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOCore
import PhoneNumbers

/// One number to check: `{"number": "...", "region": "GB"}` (`region` optional; `ZZ` or
/// absent means no default region, so the number must start with `+`).
struct NumberQuery: Decodable, Sendable {
    var number: String
    var region: String?
}

/// The answers about numbers, with the CLI's field names (`smskit validate --format jsonl`)
/// plus the national and international formats.
enum NumberChecks {
    /// The answer for one query, as JSON; `line` is set for `check-stream`.
    static func result(_ engine: PhoneNumberEngine, _ query: NumberQuery, line: Int? = nil) -> JSONValue {
        var fields: [(String, JSONValue)] = []
        if let line { fields.append(("line", .int(line))) }
        fields.append(("input", .string(query.number)))
        var region: RegionCode?
        if let text = query.region, !text.isEmpty, text.uppercased() != "ZZ" {
            guard let code = RegionCode(text) else {
                return .object(fields + failure("invalid_region", "The region must be a two-letter ISO 3166-1 code, 001 or ZZ."))
            }
            region = code
        }
        let check = engine.check(query.number, defaultRegion: region)
        guard let number = check.number else {
            return .object(fields + failure(check.error?.code.name ?? "not_a_number", check.error?.message ?? "The input is not a phone number."))
        }
        fields += [
            ("ok", .bool(true)),
            ("error", .null),
            ("error_message", .null),
            ("e164", .optional(check.e164)),
            ("national", .string(engine.format(number, as: .national))),
            ("international", .string(engine.format(number, as: .international))),
            ("possible", .optional(check.possibility?.rawValue)),
            ("valid", .bool(check.isValid)),
            ("type", .string(check.type.rawValue)),
            ("region", .optional(check.region?.identifier)),
            ("fictional", .optional(check.fictional?.kind.rawValue)),
        ]
        return .object(fields)
    }

    private static func failure(_ code: String, _ message: String) -> [(String, JSONValue)] {
        [
            ("ok", .bool(false)), ("error", .string(code)), ("error_message", .string(message)),
            ("e164", .null), ("national", .null), ("international", .null), ("possible", .null),
            ("valid", .bool(false)), ("type", .null), ("region", .null), ("fictional", .null),
        ]
    }
}
