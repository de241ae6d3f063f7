/// A region: an ISO 3166-1 alpha-2 code such as `US`, or `001` for the non-geographic entities
/// (+800, +808, +870, +878, +881, +882, +883, +888, +979).
///
/// ```swift
/// let us = RegionCode("us")   // RegionCode("US")
/// RegionCode("USA")           // nil
/// ```
public struct RegionCode: Sendable, Hashable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The code in upper case: "US", "GB", "001".
    public let identifier: String

    /// The non-geographic entity "001".
    public static let nonGeographic = RegionCode(unchecked: "001")
    /// libphonenumber's unknown region "ZZ".
    public static let unknown = RegionCode(unchecked: "ZZ")

    /// Validates a region code: two ASCII letters (any case) or "001".
    public init?(_ text: some StringProtocol) {
        let utf8 = Array(text.utf8.prefix(4))
        if utf8 == Array("001".utf8) {
            identifier = "001"
            return
        }
        guard utf8.count == 2 else { return nil }
        var upper: [UInt8] = []
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): upper.append(byte)
            case UInt8(ascii: "a")...UInt8(ascii: "z"): upper.append(byte - 32)
            default: return nil
            }
        }
        identifier = String(decoding: upper, as: UTF8.self)
    }

    /// A literal must be a valid code.
    public init(stringLiteral value: String) {
        guard let code = RegionCode(value) else { preconditionFailure("invalid region code literal \(value)") }
        self = code
    }

    init(unchecked identifier: String) { self.identifier = identifier }

    public var description: String { identifier }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let code = RegionCode(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "invalid region code \(text)"))
        }
        self = code
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(identifier)
    }
}
