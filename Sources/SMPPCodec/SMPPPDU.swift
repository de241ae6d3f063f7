/// An SMPP address: type of number, numbering plan indicator and the digits or name.
public struct SMPPAddress: Sendable, Hashable {
    /// `addr_ton` (SMPP 3.4 section 5.2.5): 0 unknown, 1 international, 2 national, 3 network
    /// specific, 4 subscriber number, 5 alphanumeric, 6 abbreviated.
    public var ton: UInt8
    /// `addr_npi` (section 5.2.6): 0 unknown, 1 ISDN (E.163/E.164), ...
    public var npi: UInt8
    /// The address: at most 20 printable ASCII characters.
    public var address: String

    /// Creates an address.
    public init(ton: UInt8, npi: UInt8, address: String) {
        self.ton = ton
        self.npi = npi
        self.address = address
    }
}

/// The body shared by `submit_sm` and `deliver_sm` (SMPP 3.4 sections 4.4.1 and 4.6.1).
public struct SMPPShortMessage: Sendable, Hashable {
    /// `service_type` (at most 5 characters; empty for the SMSC's default).
    public var serviceType: String = ""
    /// `source_addr_ton`, `source_addr_npi`, `source_addr`.
    public var source: SMPPAddress
    /// `dest_addr_ton`, `dest_addr_npi`, `destination_addr`.
    public var destination: SMPPAddress
    /// `esm_class`: bit 6 (0x40) is UDHI (the short message starts with a user data header); in
    /// `deliver_sm`, bits 2-5 give the message type (0x04 SMSC delivery receipt).
    public var esmClass: UInt8 = 0
    /// `protocol_id` (TP-PID).
    public var protocolID: UInt8 = 0
    /// `priority_flag`, 0 (lowest) to 3.
    public var priorityFlag: UInt8 = 0
    /// `schedule_delivery_time` (SMPP time format; empty for immediate delivery).
    public var scheduleDeliveryTime: String = ""
    /// `validity_period` (SMPP time format; empty for the SMSC's default).
    public var validityPeriod: String = ""
    /// `registered_delivery`: 1 asks for a receipt on final outcome.
    public var registeredDelivery: UInt8 = 0
    /// `replace_if_present_flag`.
    public var replaceIfPresentFlag: UInt8 = 0
    /// `data_coding`: 0 SMSC default alphabet (GSM 7-bit), 8 UCS-2, 4 8-bit data...
    public var dataCoding: UInt8 = 0
    /// `sm_default_msg_id` (a canned message; 0 for none).
    public var smDefaultMessageID: UInt8 = 0
    /// At most 254 octets (longer content goes in the `message_payload` TLV).
    public var shortMessage: [UInt8] = []
    /// The optional parameters, in wire order.
    public var tlvs: [SMPPTLV] = []

    /// Creates a message body; every other field starts at its SMPP default (0 or empty).
    public init(source: SMPPAddress, destination: SMPPAddress, esmClass: UInt8 = 0, registeredDelivery: UInt8 = 0,
                dataCoding: UInt8 = 0, shortMessage: [UInt8] = [], tlvs: [SMPPTLV] = []) {
        self.source = source
        self.destination = destination
        self.esmClass = esmClass
        self.registeredDelivery = registeredDelivery
        self.dataCoding = dataCoding
        self.shortMessage = shortMessage
        self.tlvs = tlvs
    }

    /// Whether `esm_class` says the short message starts with a user data header (UDHI, 0x40).
    public var hasUserDataHeader: Bool { esmClass & 0x40 != 0 }

    /// Whether `esm_class` marks a delivery receipt (message type bits 0x04 SMSC delivery receipt,
    /// 0x08 SME delivery acknowledgement, 0x20 intermediate delivery notification).
    public var isDeliveryReceipt: Bool {
        let type = esmClass & 0x3C
        return type == 0x04 || type == 0x08 || type == 0x20
    }

    /// The user data: `short_message`, or the `message_payload` TLV when `short_message` is empty.
    public var userData: [UInt8] {
        shortMessage.isEmpty ? (tlvs.value(of: .messagePayload) ?? []) : shortMessage
    }
}

/// The body of the three bind requests (SMPP 3.4 section 4.1).
public struct SMPPBind: Sendable, Hashable {
    /// `system_id` (at most 15 characters).
    public var systemID: String
    /// `password` (at most 8 characters).
    public var password: String
    /// `system_type` (at most 12 characters).
    public var systemType: String
    /// `interface_version`: 0x34 for SMPP 3.4.
    public var interfaceVersion: UInt8
    /// `addr_ton`, `addr_npi` and `address_range`: the addresses a receiver serves.
    public var addressTON: UInt8
    public var addressNPI: UInt8
    public var addressRange: String

    /// Creates a bind body; interface version 0x34.
    public init(systemID: String, password: String, systemType: String = "", interfaceVersion: UInt8 = 0x34,
                addressTON: UInt8 = 0, addressNPI: UInt8 = 0, addressRange: String = "") {
        self.systemID = systemID
        self.password = password
        self.systemType = systemType
        self.interfaceVersion = interfaceVersion
        self.addressTON = addressTON
        self.addressNPI = addressNPI
        self.addressRange = addressRange
    }
}

/// One SMPP 3.4 PDU: header fields and a typed body.
///
/// ```swift
/// let pdu = SMPPPDU(sequenceNumber: 7, body: .enquireLink)
/// let bytes = pdu.encoded()                       // 16 octets
/// let same = try SMPPPDU(decoding: bytes)         // strict: lying lengths and junk throw
/// ```
public struct SMPPPDU: Sendable, Hashable {
    /// The PDUs the client sends and reads.
    public enum Body: Sendable, Hashable {
        case bindTransceiver(SMPPBind)
        case bindTransmitter(SMPPBind)
        case bindReceiver(SMPPBind)
        /// The SMSC's `system_id` (empty in an error response) and its TLVs (`sc_interface_version`).
        case bindTransceiverResp(systemID: String, tlvs: [SMPPTLV])
        case bindTransmitterResp(systemID: String, tlvs: [SMPPTLV])
        case bindReceiverResp(systemID: String, tlvs: [SMPPTLV])
        case unbind
        case unbindResp
        case enquireLink
        case enquireLinkResp
        case submitSM(SMPPShortMessage)
        /// The SMSC's message ID (empty in an error response).
        case submitSMResp(messageID: String)
        case deliverSM(SMPPShortMessage)
        case deliverSMResp(messageID: String)
        case genericNack
    }

    /// The status; `.ok` in every request.
    public var commandStatus: SMPPCommandStatus
    /// The sequence number that pairs a response with its request (1...0x7FFFFFFF).
    public var sequenceNumber: UInt32
    /// The command and its fields.
    public var body: Body

    /// Creates a PDU.
    public init(commandStatus: SMPPCommandStatus = .ok, sequenceNumber: UInt32, body: Body) {
        self.commandStatus = commandStatus
        self.sequenceNumber = sequenceNumber
        self.body = body
    }

    /// The `command_id` of the body.
    public var commandID: SMPPCommandID {
        switch body {
        case .bindTransceiver: .bindTransceiver
        case .bindTransmitter: .bindTransmitter
        case .bindReceiver: .bindReceiver
        case .bindTransceiverResp: .bindTransceiverResp
        case .bindTransmitterResp: .bindTransmitterResp
        case .bindReceiverResp: .bindReceiverResp
        case .unbind: .unbind
        case .unbindResp: .unbindResp
        case .enquireLink: .enquireLink
        case .enquireLinkResp: .enquireLinkResp
        case .submitSM: .submitSM
        case .submitSMResp: .submitSMResp
        case .deliverSM: .deliverSM
        case .deliverSMResp: .deliverSMResp
        case .genericNack: .genericNack
        }
    }
}
