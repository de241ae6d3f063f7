/// An SMPP 3.4 `command_id` (section 5.1.2.1).
public struct SMPPCommandID: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let genericNack = Self(rawValue: 0x8000_0000)
    public static let bindReceiver = Self(rawValue: 0x0000_0001)
    public static let bindReceiverResp = Self(rawValue: 0x8000_0001)
    public static let bindTransmitter = Self(rawValue: 0x0000_0002)
    public static let bindTransmitterResp = Self(rawValue: 0x8000_0002)
    public static let submitSM = Self(rawValue: 0x0000_0004)
    public static let submitSMResp = Self(rawValue: 0x8000_0004)
    public static let deliverSM = Self(rawValue: 0x0000_0005)
    public static let deliverSMResp = Self(rawValue: 0x8000_0005)
    public static let unbind = Self(rawValue: 0x0000_0006)
    public static let unbindResp = Self(rawValue: 0x8000_0006)
    public static let bindTransceiver = Self(rawValue: 0x0000_0009)
    public static let bindTransceiverResp = Self(rawValue: 0x8000_0009)
    public static let enquireLink = Self(rawValue: 0x0000_0015)
    public static let enquireLinkResp = Self(rawValue: 0x8000_0015)

    /// Whether this is a response (bit 31 set).
    public var isResponse: Bool { rawValue & 0x8000_0000 != 0 }

    public var description: String {
        switch self {
        case .genericNack: "generic_nack"
        case .bindReceiver: "bind_receiver"
        case .bindReceiverResp: "bind_receiver_resp"
        case .bindTransmitter: "bind_transmitter"
        case .bindTransmitterResp: "bind_transmitter_resp"
        case .submitSM: "submit_sm"
        case .submitSMResp: "submit_sm_resp"
        case .deliverSM: "deliver_sm"
        case .deliverSMResp: "deliver_sm_resp"
        case .unbind: "unbind"
        case .unbindResp: "unbind_resp"
        case .bindTransceiver: "bind_transceiver"
        case .bindTransceiverResp: "bind_transceiver_resp"
        case .enquireLink: "enquire_link"
        case .enquireLinkResp: "enquire_link_resp"
        default: "command 0x" + String(rawValue, radix: 16)
        }
    }
}

/// An SMPP 3.4 `command_status` (section 5.1.3): `ESME_ROK` or an error.
public struct SMPPCommandStatus: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let ok = Self(rawValue: 0x00)
    public static let invalidMessageLength = Self(rawValue: 0x01)
    public static let invalidCommandLength = Self(rawValue: 0x02)
    public static let invalidCommandID = Self(rawValue: 0x03)
    public static let incorrectBindStatus = Self(rawValue: 0x04)
    public static let alreadyBound = Self(rawValue: 0x05)
    public static let systemError = Self(rawValue: 0x08)
    public static let invalidSourceAddress = Self(rawValue: 0x0A)
    public static let invalidDestinationAddress = Self(rawValue: 0x0B)
    public static let bindFailed = Self(rawValue: 0x0D)
    public static let invalidPassword = Self(rawValue: 0x0E)
    public static let invalidSystemID = Self(rawValue: 0x0F)
    /// `ESME_RMSGQFUL`: the SMSC's queue is full; the PDU was not taken.
    public static let messageQueueFull = Self(rawValue: 0x14)
    /// `ESME_RTHROTTLED`: the ESME exceeded its allowed rate; the PDU was not taken.
    public static let throttled = Self(rawValue: 0x58)
    public static let unknownError = Self(rawValue: 0xFF)

    /// Whether the SMSC said the PDU was not taken only for now (throttling, a full queue): the one
    /// case where sending it again cannot deliver it twice.
    public var isTransient: Bool { self == .throttled || self == .messageQueueFull }

    public var description: String {
        let name: String? = switch self {
        case .ok: "ESME_ROK"
        case .invalidMessageLength: "ESME_RINVMSGLEN"
        case .invalidCommandLength: "ESME_RINVCMDLEN"
        case .invalidCommandID: "ESME_RINVCMDID"
        case .incorrectBindStatus: "ESME_RINVBNDSTS"
        case .alreadyBound: "ESME_RALYBND"
        case .systemError: "ESME_RSYSERR"
        case .invalidSourceAddress: "ESME_RINVSRCADR"
        case .invalidDestinationAddress: "ESME_RINVDSTADR"
        case .bindFailed: "ESME_RBINDFAIL"
        case .invalidPassword: "ESME_RINVPASWD"
        case .invalidSystemID: "ESME_RINVSYSID"
        case .messageQueueFull: "ESME_RMSGQFUL"
        case .throttled: "ESME_RTHROTTLED"
        case .unknownError: "ESME_RUNKNOWNERR"
        default: nil
        }
        let hex = String(rawValue, radix: 16, uppercase: true)
        let code = "0x" + String(repeating: "0", count: max(0, 8 - hex.count)) + hex
        return name.map { "\($0) (\(code))" } ?? code
    }
}
