/// An SMPP optional parameter (TLV, SMPP 3.4 section 5.3): a tag and its value octets.
public struct SMPPTLV: Sendable, Hashable {
    /// A TLV tag.
    public struct Tag: RawRepresentable, Sendable, Hashable {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        public static let receiptedMessageID = Tag(rawValue: 0x001E)
        public static let sarMessageReferenceNumber = Tag(rawValue: 0x020C)
        public static let sarTotalSegments = Tag(rawValue: 0x020E)
        public static let sarSegmentSequenceNumber = Tag(rawValue: 0x020F)
        public static let scInterfaceVersion = Tag(rawValue: 0x0210)
        public static let networkErrorCode = Tag(rawValue: 0x0423)
        public static let messagePayload = Tag(rawValue: 0x0424)
        public static let messageState = Tag(rawValue: 0x0427)
    }

    public var tag: Tag
    /// At most 65,535 octets.
    public var value: [UInt8]

    /// Creates a TLV.
    public init(_ tag: Tag, _ value: [UInt8]) {
        self.tag = tag
        self.value = value
    }

    /// A TLV holding a big-endian unsigned integer of `byteCount` octets.
    public static func integer(_ tag: Tag, _ value: UInt32, byteCount: Int) -> SMPPTLV {
        SMPPTLV(tag, (0..<byteCount).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) })
    }
}

/// A GSM network error (the `network_error_code` TLV): the network type (1 ANSI-136, 2 IS-95, 3 GSM)
/// and its error code.
public struct SMPPNetworkErrorCode: Sendable, Hashable {
    public var networkType: UInt8
    public var errorCode: UInt16
    public init(networkType: UInt8, errorCode: UInt16) {
        self.networkType = networkType
        self.errorCode = errorCode
    }
}

extension Array where Element == SMPPTLV {
    /// The value of the first TLV with `tag`.
    public func value(of tag: SMPPTLV.Tag) -> [UInt8]? {
        first(where: { $0.tag == tag })?.value
    }

    /// The value of `tag` as a big-endian unsigned integer of 1, 2 or 4 octets; nil when absent or
    /// of another length.
    public func integer(_ tag: SMPPTLV.Tag) -> UInt32? {
        guard let value = value(of: tag), [1, 2, 4].contains(value.count) else { return nil }
        return value.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// `receipted_message_id`: the SMSC's ID of the message a receipt is about (a C-octet string).
    public var receiptedMessageID: String? {
        guard var value = value(of: .receiptedMessageID) else { return nil }
        if value.last == 0 { value.removeLast() }
        guard value.count <= 64, value.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        return String(decoding: value, as: UTF8.self)
    }

    /// `message_state` (one octet): the final state a receipt reports.
    public var messageState: SMPPMessageState? {
        guard let value = value(of: .messageState), value.count == 1 else { return nil }
        return SMPPMessageState(rawValue: value[0])
    }

    /// `network_error_code` (three octets).
    public var networkErrorCode: SMPPNetworkErrorCode? {
        guard let value = value(of: .networkErrorCode), value.count == 3 else { return nil }
        return SMPPNetworkErrorCode(networkType: value[0], errorCode: UInt16(value[1]) << 8 | UInt16(value[2]))
    }
}
