import Foundation
import PhoneVerificationSMPP
import Testing

/// The codec against two independent implementations from PyPI, smpp34 (Rust) and smpplib (Python),
/// on generated PDUs: what SMSKit encodes, they decode to the same fields; what smpp34 encodes,
/// SMSKit decodes to the same fields and re-encodes to the same bytes.
@Suite(.enabled(if: SMPPPython.shouldRun, "smpp34 and smpplib are not installed (.ci/smpp.sh); skipped, under CI=true they fail"))
struct SMPPOracleTests {
    /// A small seeded generator (SplitMix64), so that a failure reproduces.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
        mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
        mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in byte() } }
        mutating func string(_ maximum: Int) -> String {
            let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 +-_.:")
            return String((0..<int(0...maximum)).map { _ in alphabet[int(0...alphabet.count - 1)] })
        }
    }

    /// A generated body with the TLVs SMPP 3.4 allows in it (receipt TLVs in deliver_sm only, as
    /// smpplib holds to), and `network_error_code` only when asked, as smpplib does not know it.
    static func message(_ generator: inout Generator, deliver: Bool, networkErrorCode: Bool = false) -> SMPPShortMessage {
        var message = SMPPShortMessage(
            source: SMPPAddress(ton: generator.byte() % 7, npi: generator.byte() % 19, address: generator.string(20)),
            destination: SMPPAddress(ton: generator.byte() % 7, npi: generator.byte() % 19, address: generator.string(20)),
            esmClass: generator.byte(), registeredDelivery: generator.byte() % 4, dataCoding: generator.byte(),
            shortMessage: generator.bytes(generator.int(0...254)))
        message.serviceType = generator.string(5)
        message.protocolID = generator.byte()
        message.priorityFlag = generator.byte() % 4
        message.scheduleDeliveryTime = generator.int(0...1) == 0 ? "" : "261128054300000+"
        message.validityPeriod = generator.int(0...1) == 0 ? "" : "000001000000000R"
        message.replaceIfPresentFlag = generator.byte() % 2
        message.smDefaultMessageID = generator.byte()
        for _ in 0..<generator.int(0...3) {
            switch generator.int(0...(networkErrorCode ? 4 : 3)) {
            case 0: message.tlvs.append(SMPPTLV(.messagePayload, generator.bytes(generator.int(0...300))))
            case 1 where deliver: message.tlvs.append(SMPPTLV(.receiptedMessageID, Array(generator.string(20).utf8) + [0]))
            case 2 where deliver: message.tlvs.append(SMPPTLV(.messageState, [generator.byte() % 9]))
            case 1, 2, 3: message.tlvs.append(.integer(.sarMessageReferenceNumber, UInt32(generator.int(0...65535)), byteCount: 2))
            default: message.tlvs.append(SMPPTLV(.networkErrorCode, generator.bytes(3)))
            }
        }
        return message
    }

    static func ask(_ requests: [[String: Any]]) throws -> [[String: Any]] {
        var input = Data()
        for request in requests {
            input.append(try JSONSerialization.data(withJSONObject: request))
            input.append(0x0A)
        }
        let output = try SMPPPython.run("codec_oracle.py", input: input)
        return try output.split(separator: 0x0A).map { try JSONSerialization.jsonObject(with: Data($0)) as! [String: Any] }
    }

    static func fields(_ message: SMPPShortMessage) -> [String: Any] {
        [
            "service_type": message.serviceType, "source_addr_ton": Int(message.source.ton), "source_addr_npi": Int(message.source.npi),
            "source_addr": message.source.address, "dest_addr_ton": Int(message.destination.ton),
            "dest_addr_npi": Int(message.destination.npi), "destination_addr": message.destination.address,
            "esm_class": Int(message.esmClass), "protocol_id": Int(message.protocolID), "priority_flag": Int(message.priorityFlag),
            "schedule_delivery_time": message.scheduleDeliveryTime, "validity_period": message.validityPeriod,
            "registered_delivery": Int(message.registeredDelivery), "replace_if_present_flag": Int(message.replaceIfPresentFlag),
            "data_coding": Int(message.dataCoding), "sm_default_msg_id": Int(message.smDefaultMessageID),
            "short_message": message.shortMessage.hex,
        ]
    }

    static func expectSameFields(_ decoded: [String: Any], _ message: SMPPShortMessage, by oracle: String) {
        for (name, value) in fields(message) {
            let other = decoded[name]
            let same = (value as? Int).map { $0 == other as? Int } ?? ((value as? String) == other as? String)
            #expect(same, "\(oracle) reads \(name) as \(String(describing: other)), SMSKit wrote \(value)")
        }
    }

    @Test func independentCodecsReadWhatSMSKitWrites() throws {
        var generator = Generator(state: 41)
        var pdus: [SMPPPDU] = []
        for index in 0..<200 {
            let sequence = UInt32(generator.int(1...0x7FFF_FFFF))
            switch index % 5 {
            case 0: pdus.append(SMPPPDU(sequenceNumber: sequence, body: .submitSM(Self.message(&generator, deliver: false))))
            case 1: pdus.append(SMPPPDU(sequenceNumber: sequence, body: .deliverSM(Self.message(&generator, deliver: true))))
            case 2: pdus.append(SMPPPDU(sequenceNumber: sequence, body: .bindTransceiver(SMPPBind(
                systemID: generator.string(15), password: generator.string(8), systemType: generator.string(12),
                addressTON: generator.byte() % 7, addressNPI: generator.byte() % 19, addressRange: generator.string(40)))))
            case 3: pdus.append(SMPPPDU(sequenceNumber: sequence, body: .submitSMResp(messageID: generator.string(64))))
            default: pdus.append(SMPPPDU(sequenceNumber: sequence, body: [.enquireLink, .unbind, .genericNack, .enquireLinkResp][generator.int(0...3)]))
            }
        }
        let answers = try Self.ask(try pdus.map { ["decode": try $0.encoded().hex] })
        try #require(answers.count == pdus.count)
        for (pdu, answer) in zip(pdus, answers) {
            let smpp34 = answer["smpp34"] as! [String: Any], smpplib = answer["smpplib"] as! [String: Any]
            #expect(smpp34["error"] == nil, "smpp34 refused \(pdu.commandID): \(smpp34["error"] ?? "")")
            #expect(smpplib["error"] == nil, "smpplib refused \(pdu.commandID): \(smpplib["error"] ?? "")")
            #expect(smpp34["sequence_number"] as? Int == Int(pdu.sequenceNumber))
            #expect(smpp34["command_id"] as? Int == Int(pdu.commandID.rawValue))
            #expect(smpplib["command"] as? String == pdu.commandID.description)
            #expect(smpplib["sequence_number"] as? Int == Int(pdu.sequenceNumber))
            switch pdu.body {
            case .submitSM(let message), .deliverSM(let message):
                Self.expectSameFields(smpp34, message, by: "smpp34")
                Self.expectSameFields(smpplib, message, by: "smpplib")
                let tlvs = (smpp34["tlvs"] as? [[Any]] ?? []).map { SMPPTLV(SMPPTLV.Tag(rawValue: UInt16($0[0] as! Int)), [UInt8](hex: $0[1] as! String)) }
                #expect(tlvs == message.tlvs)
            case .bindTransceiver(let bind):
                #expect(smpplib["system_id"] as? String == bind.systemID)
                #expect(smpplib["password"] as? String == bind.password)
                #expect(smpplib["system_type"] as? String == bind.systemType)
                #expect(smpplib["address_range"] as? String == bind.addressRange)
                #expect(smpplib["addr_npi"] as? Int == Int(bind.addressNPI))
            case .submitSMResp(let messageID):
                #expect(smpplib["message_id"] as? String == messageID)
            default:
                #expect(smpp34["body"] as? String == "")
            }
        }
    }

    @Test func smskitReadsWhatAnIndependentCodecWrites() throws {
        var generator = Generator(state: 34)
        var messages: [(SMPPPDU, [String: Any])] = []
        for index in 0..<100 {
            let message = Self.message(&generator, deliver: index % 2 == 1, networkErrorCode: true)
            let sequence = UInt32(generator.int(1...0x7FFF_FFFF))
            var spec = Self.fields(message)
            spec["command"] = index % 2 == 0 ? "submit_sm" : "deliver_sm"
            spec["sequence_number"] = Int(sequence)
            spec["tlvs"] = message.tlvs.map { [Int($0.tag.rawValue), $0.value.hex] as [Any] }
            messages.append((SMPPPDU(sequenceNumber: sequence, body: index % 2 == 0 ? .submitSM(message) : .deliverSM(message)), spec))
        }
        let answers = try Self.ask(messages.map { ["encode": $0.1] })
        try #require(answers.count == messages.count)
        for ((expected, _), answer) in zip(messages, answers) {
            let bytes = [UInt8](hex: answer["hex"] as! String)
            #expect(try SMPPPDU(decoding: bytes) == expected)
            #expect(try expected.encoded() == bytes)
        }
    }
}
