import HTTPTypes
import Hummingbird
import NIOCore
import PhoneNumbers
import SMSKitJSON

/// `POST /v1/numbers/find`: the phone numbers in a text, line by line, as `smskit find` writes
/// them for standard input (the find result's records without `file`): a JSON array, NDJSON or
/// CSV with a header row, by the `Accept` header.
///
/// The matcher's work grows with the text and with the numbers it finds, so a text is refused
/// past `maxFindTextLength` characters before it is read, and an answer past `maxFindNumbers`
/// numbers is refused instead of written.
enum NumberFindEndpoint {
    /// `{"text": "...", "region": "GB", "leniency": "valid"}`.
    struct Query: Decodable, Sendable {
        var text: String
        var region: String?
        var leniency: PhoneNumberLeniency?
    }

    static func find(_ request: Request, _ context: SMSKitRequestContext, _ state: ServerState) async throws -> Response {
        let format = try answerFormat(request)
        let query = try RequestDecoding.decode(Query.self, from: context.body)
        let region = try RegionParameter.parse(query.region)
        let configuration = state.configuration
        try ServiceError.requireLength(of: query.text, "text", atMost: configuration.maxFindTextLength, metrics: state.metrics)

        let limit = configuration.maxFindNumbers
        var found: [FoundNumber] = []
        let tooMany = ServiceError(.contentTooLarge, "too_many_numbers",
                                   "The text holds more than \(limit) phone numbers; send it in parts.")
        do {
            try FoundNumber.forEachLine(of: query.text) { line, number in
                found += FoundNumber.find(inLine: line, line: number, file: nil, region: region,
                                          leniency: query.leniency ?? .valid, engine: state.engine)
                if found.count > limit { throw tooMany }
            }
        } catch let error as ServiceError {
            state.metrics.refusal(error.code)
            throw error
        }
        state.metrics.numbersChecked(found.count, endpoint: "find")

        let fields = FoundNumberField.record(naming: false)
        var out = ByteBuffer()
        switch format {
        case .csv:
            out.writeString(FoundNumber.header(fields: fields, as: .csv) + "\n")
        case .json:
            out.writeInteger(UInt8(ascii: "["))
        default:
            break
        }
        for (index, number) in found.enumerated() {
            if format == .json && index > 0 { out.writeInteger(UInt8(ascii: ",")) }
            out.writeWithUnsafeMutableBytes(minimumWritableBytes: number.maximumRecordCount + 1) { raw in
                var writer = SpanWriter(raw.baseAddress!)
                writer.write(number, fields: fields, as: format)
                if format != .json { writer.byte(UInt8(ascii: "\n")) }
                return writer.count
            }
        }
        if format == .json { out.writeStaticString("]\n") }
        var headers = HTTPFields()
        headers[.contentType] = Self.contentType(format)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: out))
    }

    /// The answer's format by the request's `Accept` header: the first of `application/json`,
    /// `application/x-ndjson` and `text/csv` it names; JSON when it names none of them (or is
    /// absent, or is `*/*`).
    static func answerFormat(_ request: Request) throws -> WireFormat {
        guard let accept = request.headers[.accept] else { return .json }
        for item in accept.split(separator: ",") {
            let mediaType = item.split(separator: ";", maxSplits: 1).first.map { $0.trimmingAll(of: " \t").lowercased() } ?? ""
            switch mediaType {
            case "application/json": return .json
            case "application/x-ndjson": return .jsonl
            case "text/csv": return .csv
            default: continue
            }
        }
        return .json
    }

    static func contentType(_ format: WireFormat) -> String {
        switch format {
        case .jsonl: "application/x-ndjson"
        case .csv: "text/csv"
        default: "application/json"
        }
    }
}
