import Hummingbird
import PhoneNumbers
import SMSKitJSON

/// `POST /v1/numbers/match`: whether two inputs are the same phone number, the document of
/// `smskit match --format json` (a no match is an answer, 200, as the CLI prints it).
enum NumberMatchEndpoint {
    /// `{"first": "...", "second": "...", "region": "GB"}`.
    struct Query: Decodable, Sendable {
        var first: String
        var second: String
        var region: String?
    }

    /// The longest input, in characters. The engine reads at most 250 characters of a number
    /// (longer input is never one), and the answer repeats both inputs: past this, a request is
    /// refused instead of echoed.
    static let maxInputLength = 1_000

    static func match(_ request: Request, _ context: SMSKitRequestContext, _ state: ServerState) async throws -> Response {
        let query = try RequestDecoding.decode(Query.self, from: context.body)
        let region = try RegionParameter.parse(query.region)
        try ServiceError.requireLength(of: query.first, "first", atMost: maxInputLength, metrics: state.metrics)
        try ServiceError.requireLength(of: query.second, "second", atMost: maxInputLength, metrics: state.metrics)
        state.metrics.numbersChecked(2, endpoint: "match")
        return .json(NumberMatchResult(first: query.first, second: query.second, region: region, engine: state.engine).json)
    }
}

/// The `region` of the find and match queries, read as the CLI's `--region`: a two-letter ISO
/// 3166-1 code or 001 in any case; `ZZ`, null or absent for none.
enum RegionParameter {
    static func parse(_ text: String?) throws(ServiceError) -> RegionCode? {
        guard let text, text.uppercased() != "ZZ" else { return nil }
        guard let region = RegionCode(text) else {
            throw .invalidRequest("'region' must be a two-letter ISO 3166-1 code, 001, or ZZ for none.")
        }
        return region
    }
}

extension ServiceError {
    /// Refuses a text field longer than `limit` Unicode characters (what JSON Schema's
    /// `maxLength` counts) with 422 `text_too_long`, counting no further than the limit: the
    /// document states the limit, so such a request breaks the schema, as any other 422.
    static func requireLength(of text: String, _ name: String, atMost limit: Int, metrics: ServiceMetrics) throws(ServiceError) {
        var count = 0
        for _ in text.unicodeScalars {
            count += 1
            if count > limit {
                metrics.refusal("text_too_long")
                throw ServiceError(.unprocessableContent, "text_too_long", "'\(name)' is longer than \(limit) characters.")
            }
        }
    }
}
