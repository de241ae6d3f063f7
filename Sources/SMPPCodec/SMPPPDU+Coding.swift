extension SMPPPDU {
    /// The smallest PDU: the 16-octet header.
    public static let headerLength = 16

    /// The default largest PDU read: a `submit_sm` or `deliver_sm` with every field at its maximum
    /// and a 254-octet short message is under 600 octets; the rest leaves room for TLVs
    /// (`message_payload`) without letting a peer make the reader hold megabytes.
    public static let defaultMaximumLength = 8192

    /// The PDU's encoding: header (`command_length`, `command_id`, `command_status`,
    /// `sequence_number`, big-endian) and body.
    ///
    /// - Throws: ``SMPPError/Code/invalidField`` when a string is longer than its field allows (or
    ///   holds a NUL), the short message is over 254 octets or a TLV over 65,535.
    public func encoded() throws(SMPPError) -> [UInt8] {
        var writer = _PDUWriter()
        writer.u32(0)
        writer.u32(commandID.rawValue)
        writer.u32(commandStatus.rawValue)
        writer.u32(sequenceNumber)
        switch body {
        case .bindTransceiver(let bind), .bindTransmitter(let bind), .bindReceiver(let bind):
            try writer.cString(bind.systemID, max: 16, field: "system_id")
            try writer.cString(bind.password, max: 9, field: "password")
            try writer.cString(bind.systemType, max: 13, field: "system_type")
            writer.u8(bind.interfaceVersion)
            writer.u8(bind.addressTON)
            writer.u8(bind.addressNPI)
            try writer.cString(bind.addressRange, max: 41, field: "address_range")
        case .bindTransceiverResp(let systemID, let tlvs), .bindTransmitterResp(let systemID, let tlvs),
             .bindReceiverResp(let systemID, let tlvs):
            try writer.cString(systemID, max: 16, field: "system_id")
            try writer.tlvs(tlvs)
        case .submitSM(let message), .deliverSM(let message):
            try writer.cString(message.serviceType, max: 6, field: "service_type")
            writer.u8(message.source.ton)
            writer.u8(message.source.npi)
            try writer.cString(message.source.address, max: 21, field: "source_addr")
            writer.u8(message.destination.ton)
            writer.u8(message.destination.npi)
            try writer.cString(message.destination.address, max: 21, field: "destination_addr")
            writer.u8(message.esmClass)
            writer.u8(message.protocolID)
            writer.u8(message.priorityFlag)
            try writer.cString(message.scheduleDeliveryTime, max: 17, field: "schedule_delivery_time")
            try writer.cString(message.validityPeriod, max: 17, field: "validity_period")
            writer.u8(message.registeredDelivery)
            writer.u8(message.replaceIfPresentFlag)
            writer.u8(message.dataCoding)
            writer.u8(message.smDefaultMessageID)
            guard message.shortMessage.count <= 254 else {
                throw SMPPError(.invalidField, "short_message is \(message.shortMessage.count) octets; at most 254 (use message_payload)")
            }
            writer.u8(UInt8(message.shortMessage.count))
            writer.bytes.append(contentsOf: message.shortMessage)
            try writer.tlvs(message.tlvs)
        case .submitSMResp(let messageID), .deliverSMResp(let messageID):
            // An error response carries no body (SMPP 3.4 section 4.4.2).
            if commandStatus == .ok || !messageID.isEmpty {
                try writer.cString(messageID, max: 65, field: "message_id")
            }
        case .unbind, .unbindResp, .enquireLink, .enquireLinkResp, .genericNack:
            break
        }
        let length = UInt32(writer.bytes.count)
        writer.bytes[0] = UInt8(truncatingIfNeeded: length >> 24)
        writer.bytes[1] = UInt8(truncatingIfNeeded: length >> 16)
        writer.bytes[2] = UInt8(truncatingIfNeeded: length >> 8)
        writer.bytes[3] = UInt8(truncatingIfNeeded: length)
        return writer.bytes
    }

    /// The `command_length` of the PDU that starts `prefix`, once it holds four octets; nil before.
    ///
    /// A stream reader calls it to know how many octets to wait for, and so never buffers more than
    /// `maximumLength` for one PDU.
    ///
    /// - Throws: ``SMPPError/Code/malformedPDU`` for a length under 16,
    ///   ``SMPPError/Code/pduTooLarge`` for one over `maximumLength`.
    public static func frameLength(of prefix: some Collection<UInt8>, maximumLength: Int = defaultMaximumLength)
        throws(SMPPError) -> Int? {
        guard prefix.count >= 4 else { return nil }
        let length = prefix.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        guard length >= headerLength else {
            throw SMPPError(.malformedPDU, "command_length \(length) is shorter than the 16-octet header")
        }
        guard length <= maximumLength else {
            throw SMPPError(.pduTooLarge, "command_length \(length) is over the maximum of \(maximumLength) octets")
        }
        return length
    }

    /// Decodes exactly one PDU.
    ///
    /// Strict: `command_length` must equal the bytes given, every C-octet string must end with its
    /// NUL within its field's maximum, `sm_length` and TLV lengths must fit, and nothing may be left
    /// over. A response with an error status may have an empty body.
    ///
    /// - Parameter bytes: One whole PDU, header included.
    /// - Throws: ``SMPPError`` with ``SMPPError/Code/malformedPDU``, ``SMPPError/Code/pduTooLarge`` or
    ///   ``SMPPError/Code/unknownCommand`` (the header is still readable: see ``header(of:)``).
    /// - Complexity: O(*n*) in the length of the PDU.
    public init(decoding bytes: some Collection<UInt8>, maximumLength: Int = defaultMaximumLength) throws(SMPPError) {
        let array = Array(bytes)
        guard let length = try Self.frameLength(of: array, maximumLength: maximumLength) else {
            throw SMPPError(.malformedPDU, "\(array.count) octets are shorter than the 16-octet header")
        }
        guard length == array.count else {
            throw SMPPError(.malformedPDU, "command_length says \(length) octets but the PDU has \(array.count)")
        }
        guard length >= Self.headerLength else {
            throw SMPPError(.malformedPDU, "\(array.count) octets are shorter than the 16-octet header")
        }
        var reader = _PDUReader(bytes: array, offset: 4)
        let commandID = SMPPCommandID(rawValue: try reader.u32())
        let status = SMPPCommandStatus(rawValue: try reader.u32())
        let sequence = try reader.u32()
        let body: Body
        let emptyError = status != .ok && reader.atEnd
        switch commandID {
        case .bindTransceiver, .bindTransmitter, .bindReceiver:
            let bind = SMPPBind(
                systemID: try reader.cString(max: 16, field: "system_id"),
                password: try reader.cString(max: 9, field: "password"),
                systemType: try reader.cString(max: 13, field: "system_type"),
                interfaceVersion: try reader.u8(), addressTON: try reader.u8(), addressNPI: try reader.u8(),
                addressRange: try reader.cString(max: 41, field: "address_range"))
            body = commandID == .bindTransceiver ? .bindTransceiver(bind)
                : commandID == .bindTransmitter ? .bindTransmitter(bind) : .bindReceiver(bind)
        case .bindTransceiverResp, .bindTransmitterResp, .bindReceiverResp:
            let systemID = emptyError ? "" : try reader.cString(max: 16, field: "system_id")
            let tlvs = try reader.tlvs()
            body = commandID == .bindTransceiverResp ? .bindTransceiverResp(systemID: systemID, tlvs: tlvs)
                : commandID == .bindTransmitterResp ? .bindTransmitterResp(systemID: systemID, tlvs: tlvs)
                : .bindReceiverResp(systemID: systemID, tlvs: tlvs)
        case .submitSM, .deliverSM:
            var message = SMPPShortMessage(source: SMPPAddress(ton: 0, npi: 0, address: ""),
                                           destination: SMPPAddress(ton: 0, npi: 0, address: ""))
            message.serviceType = try reader.cString(max: 6, field: "service_type")
            message.source = SMPPAddress(ton: try reader.u8(), npi: try reader.u8(),
                                         address: try reader.cString(max: 21, field: "source_addr"))
            message.destination = SMPPAddress(ton: try reader.u8(), npi: try reader.u8(),
                                              address: try reader.cString(max: 21, field: "destination_addr"))
            message.esmClass = try reader.u8()
            message.protocolID = try reader.u8()
            message.priorityFlag = try reader.u8()
            message.scheduleDeliveryTime = try reader.cString(max: 17, field: "schedule_delivery_time")
            message.validityPeriod = try reader.cString(max: 17, field: "validity_period")
            message.registeredDelivery = try reader.u8()
            message.replaceIfPresentFlag = try reader.u8()
            message.dataCoding = try reader.u8()
            message.smDefaultMessageID = try reader.u8()
            let smLength = Int(try reader.u8())
            guard smLength <= 254 else {
                throw SMPPError(.malformedPDU, "sm_length \(smLength) is over 254")
            }
            message.shortMessage = try reader.take(smLength, field: "short_message")
            message.tlvs = try reader.tlvs()
            body = commandID == .submitSM ? .submitSM(message) : .deliverSM(message)
        case .submitSMResp, .deliverSMResp:
            let messageID = emptyError ? "" : try reader.cString(max: 65, field: "message_id")
            body = commandID == .submitSMResp ? .submitSMResp(messageID: messageID) : .deliverSMResp(messageID: messageID)
        case .unbind: body = .unbind
        case .unbindResp: body = .unbindResp
        case .enquireLink: body = .enquireLink
        case .enquireLinkResp: body = .enquireLinkResp
        case .genericNack: body = .genericNack
        default:
            throw SMPPError(.unknownCommand, "unknown command_id \(commandID) (sequence \(sequence))")
        }
        guard reader.atEnd else {
            throw SMPPError(.malformedPDU, "\(commandID) has \(array.count - reader.offset) octets after its last field")
        }
        self.init(commandStatus: status, sequenceNumber: sequence, body: body)
    }

    /// The `command_id` and `sequence_number` of a PDU's header, to answer a PDU that failed to
    /// decode (`generic_nack`, or the right `_resp` with an error status).
    public static func header(of bytes: some Collection<UInt8>) -> (commandID: SMPPCommandID, sequenceNumber: UInt32)? {
        let array = Array(bytes.prefix(16))
        guard array.count == 16 else { return nil }
        func u32(_ at: Int) -> UInt32 { array[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        return (SMPPCommandID(rawValue: u32(4)), u32(12))
    }
}

/// Appends big-endian fields.
struct _PDUWriter {
    var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(64) }

    mutating func u8(_ value: UInt8) { bytes.append(value) }

    mutating func u16(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    mutating func u32(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    /// A C-octet string: printable ASCII and a NUL, at most `max` octets with the NUL (what the
    /// reader accepts, so that every PDU written reads back).
    mutating func cString(_ string: String, max: Int, field: String) throws(SMPPError) {
        let utf8 = Array(string.utf8)
        guard utf8.count < max else {
            throw SMPPError(.invalidField, "\(field) is \(utf8.count) octets; at most \(max - 1)")
        }
        guard utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
            throw SMPPError(.invalidField, "\(field) holds a character that is not printable ASCII")
        }
        bytes.append(contentsOf: utf8)
        bytes.append(0)
    }

    mutating func tlvs(_ tlvs: [SMPPTLV]) throws(SMPPError) {
        for tlv in tlvs {
            guard tlv.value.count <= Int(UInt16.max) else {
                throw SMPPError(.invalidField, "TLV 0x\(String(tlv.tag.rawValue, radix: 16)) is over 65,535 octets")
            }
            u16(tlv.tag.rawValue)
            u16(UInt16(tlv.value.count))
            bytes.append(contentsOf: tlv.value)
        }
    }
}

/// Reads big-endian fields, each bounded by what is left of the PDU.
struct _PDUReader {
    let bytes: [UInt8]
    var offset: Int

    var atEnd: Bool { offset == bytes.count }

    mutating func u8() throws(SMPPError) -> UInt8 {
        guard offset < bytes.count else { throw SMPPError(.malformedPDU, "the PDU ends inside a field") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func u16() throws(SMPPError) -> UInt16 {
        UInt16(try u8()) << 8 | UInt16(try u8())
    }

    mutating func u32() throws(SMPPError) -> UInt32 {
        UInt32(try u16()) << 16 | UInt32(try u16())
    }

    mutating func take(_ count: Int, field: String) throws(SMPPError) -> [UInt8] {
        guard count <= bytes.count - offset else {
            throw SMPPError(.malformedPDU, "\(field) says \(count) octets but only \(bytes.count - offset) are left")
        }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// A C-octet string of at most `max` octets with its NUL; its octets must be printable ASCII,
    /// as every string field of SMPP 3.4 is.
    mutating func cString(max: Int, field: String) throws(SMPPError) -> String {
        let limit = Swift.min(bytes.count, offset + max)
        guard let end = bytes[offset..<limit].firstIndex(of: 0) else {
            throw SMPPError(.malformedPDU, "\(field) has no NUL within its \(max) octets")
        }
        let value = bytes[offset..<end]
        guard value.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
            throw SMPPError(.malformedPDU, "\(field) holds an octet that is not printable ASCII")
        }
        offset = end + 1
        return String(decoding: value, as: UTF8.self)
    }

    mutating func tlvs() throws(SMPPError) -> [SMPPTLV] {
        var tlvs: [SMPPTLV] = []
        while !atEnd {
            guard bytes.count - offset >= 4 else {
                throw SMPPError(.malformedPDU, "\(bytes.count - offset) octets after the last field are not a TLV")
            }
            let tag = try u16()
            let length = Int(try u16())
            tlvs.append(SMPPTLV(SMPPTLV.Tag(rawValue: tag), try take(length, field: "TLV 0x" + String(tag, radix: 16))))
        }
        return tlvs
    }
}
