/// A region: an ISO 3166-1 alpha-2 code such as `US`, or `001` for the non-geographic entities
/// (+800, +808, +870, +878, +881, +882, +883, +888, +979).
///
/// ```swift
/// let us = RegionCode("us")   // RegionCode("US")
/// RegionCode("USA")           // nil
/// ```
public struct RegionCode: Sendable, Hashable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The code's ASCII bytes, first byte lowest: a plain value, so copying a code costs nothing.
    private let packed: UInt32

    /// The code in upper case: "US", "GB", "001".
    public var identifier: String {
        var bytes = packed
        return String(unsafeUninitializedCapacity: 3) { out in
            var n = 0
            while bytes != 0 {
                out[n] = UInt8(truncatingIfNeeded: bytes)
                bytes >>= 8
                n += 1
            }
            return n
        }
    }

    /// Calls `body` with the code's ASCII bytes, without creating a String (for writers). Not
    /// generic, so that callers in other modules pay no unspecialized generic code. SPI: for
    /// `smskit` and the benchmarks, not API.
    @_spi(Tools) public func withIdentifierBytes(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var bytes = packed.littleEndian
        let count = packed >> 16 != 0 ? 3 : packed >> 8 != 0 ? 2 : packed != 0 ? 1 : 0
        withUnsafeBytes(of: &bytes) { body(UnsafeBufferPointer(start: $0.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count)) }
    }

    /// The two letters as one index 0..<676 for table lookups, (first - "A") * 26 + second - "A";
    /// nil for "001" and anything else that is not two letters.
    @inline(__always)
    var letterIndex: Int? {
        let a = (packed & 0xFF) &- 65, b = (packed >> 8 & 0xFF) &- 65
        guard a < 26, b < 26, packed >> 16 == 0 else { return nil }
        return Int(a &* 26 &+ b)
    }

    /// The non-geographic entity "001".
    public static let nonGeographic = RegionCode(unchecked: "001")
    /// libphonenumber's unknown region "ZZ".
    public static let unknown = RegionCode(unchecked: "ZZ")

    /// Validates a region code: two ASCII letters (any case) or "001".
    public init?(_ text: some StringProtocol) {
        var iterator = text.utf8.makeIterator()
        var bytes: [UInt8] = []
        while bytes.count < 4, let byte = iterator.next() { bytes.append(byte) }
        if bytes == [0x30, 0x30, 0x31] {
            packed = 0x31_30_30  // "001", first byte lowest
            return
        }
        guard bytes.count == 2 else { return nil }
        var packed: UInt32 = 0
        for (k, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): packed |= UInt32(byte) << (8 * UInt32(k))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): packed |= UInt32(byte - 32) << (8 * UInt32(k))
            default: return nil
            }
        }
        self.packed = packed
    }

    /// A literal must be a valid code.
    public init(stringLiteral value: String) {
        guard let code = RegionCode(value) else { preconditionFailure("invalid region code literal \(value)") }
        self = code
    }

    init(unchecked identifier: String) {
        var packed: UInt32 = 0
        for (k, byte) in identifier.utf8.prefix(3).enumerated() { packed |= UInt32(byte) << (8 * UInt32(k)) }
        self.packed = packed
    }

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
