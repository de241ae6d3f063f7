import Foundation
import PhoneVerificationSMPP
import SMSEncoding
import Testing

private func hex(_ string: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = string.startIndex
    while index < string.endIndex {
        let next = string.index(index, offsetBy: 2)
        bytes.append(UInt8(string[index..<next], radix: 16)!)
        index = next
    }
    return bytes
}

@Suite struct SMPPCodecTests {
    /// A submit_sm as smpp34 (PyPI) encodes it: alphanumeric source, UDHI, UCS-2, a message_payload TLV.
    static let submitFromSMPP34 = hex(
        "0000004300000004000000000000000700050041636d65000000393035333231323334353637004000000000010008000b05000301020168656c6c6f04240003616263")

    @Test func decodesAndReencodesAnIndependentEncoding() throws {
        let pdu = try SMPPPDU(decoding: Self.submitFromSMPP34)
        #expect(pdu.sequenceNumber == 7)
        guard case .submitSM(let message) = pdu.body else { Issue.record("not submit_sm"); return }
        #expect(message.source == SMPPAddress(ton: 5, npi: 0, address: "Acme"))
        #expect(message.destination == SMPPAddress(ton: 0, npi: 0, address: "905321234567"))
        #expect(message.esmClass == 0x40 && message.hasUserDataHeader)
        #expect(message.dataCoding == 8 && message.registeredDelivery == 1)
        #expect(message.shortMessage == [5, 0, 3, 1, 2, 1] + Array("hello".utf8))
        #expect(message.tlvs == [SMPPTLV(.messagePayload, Array("abc".utf8))])
        #expect(try pdu.encoded() == Self.submitFromSMPP34)
    }

    @Test(arguments: [
        SMPPPDU.Body.bindTransceiver(SMPPBind(systemID: "esme", password: "secret", systemType: "otp")),
        .bindTransmitter(SMPPBind(systemID: "e", password: "")),
        .bindReceiver(SMPPBind(systemID: "e", password: "p", addressTON: 1, addressNPI: 1, addressRange: "90")),
        .bindTransceiverResp(systemID: "smsc", tlvs: [SMPPTLV(.scInterfaceVersion, [0x34])]),
        .bindTransmitterResp(systemID: "smsc", tlvs: []), .bindReceiverResp(systemID: "", tlvs: []),
        .unbind, .unbindResp, .enquireLink, .enquireLinkResp, .genericNack,
        .submitSMResp(messageID: "3e8"), .deliverSMResp(messageID: ""),
        .deliverSM(SMPPShortMessage(source: SMPPAddress(ton: 1, npi: 1, address: "905321234567"),
                                    destination: SMPPAddress(ton: 5, npi: 0, address: "Acme"), esmClass: 0x04,
                                    shortMessage: Array("id:1 stat:DELIVRD".utf8),
                                    tlvs: [SMPPTLV(.receiptedMessageID, Array("1\0".utf8)), SMPPTLV(.messageState, [2])])),
    ])
    func roundTrips(_ body: SMPPPDU.Body) throws {
        let pdu = SMPPPDU(sequenceNumber: 0x7FFF_FFFF, body: body)
        let bytes = try pdu.encoded()
        #expect(bytes.count == Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3]))
        #expect(try SMPPPDU(decoding: bytes) == pdu)
    }

    @Test func anErrorResponseMayHaveNoBody() throws {
        let bytes = hex("00000010" + "80000004" + "00000058" + "00000009")
        let pdu = try SMPPPDU(decoding: bytes)
        #expect(pdu.commandStatus == .throttled && pdu.commandStatus.isTransient)
        #expect(pdu.body == .submitSMResp(messageID: ""))
        #expect(try pdu.encoded() == bytes)
    }

    struct Malformed: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var code: SMPPError.Code
        var testDescription: String { name }
    }

    static let malformed: [Malformed] = [
        Malformed(name: "shorter than a header", bytes: hex("0000000f800000150000000000000001"), code: .malformedPDU),
        Malformed(name: "length says more than given", bytes: hex("00000020800000150000000000000001"), code: .malformedPDU),
        Malformed(name: "length says less than given", bytes: hex("00000010800000150000000000000001ff"), code: .malformedPDU),
        Malformed(name: "64 KB", bytes: hex("00010000800000150000000000000001") + [UInt8](repeating: 0, count: 65_520), code: .pduTooLarge),
        Malformed(name: "length near 4 GiB", bytes: hex("ffffffff800000150000000000000001"), code: .pduTooLarge),
        Malformed(name: "unknown command_id", bytes: hex("00000010000000ff0000000000000001"), code: .unknownCommand),
        Malformed(name: "bytes after enquire_link", bytes: hex("0000001100000015000000000000000100"), code: .malformedPDU),
        Malformed(name: "message_id without NUL", bytes: hex("000000128000000400000000000000013132"), code: .malformedPDU),
        Malformed(name: "system_id over 16 octets", bytes: hex("00000032800000090000000000000001") + Array(repeating: 0x41, count: 33) + [0], code: .malformedPDU),
        Malformed(name: "string with a control octet", bytes: hex("000000138000000400000000000000010a3100"), code: .malformedPDU),
        // submit_sm whose sm_length (0x20) runs past the end.
        Malformed(name: "sm_length overruns", bytes: hex("000000240000000400000000000000010000000000000000000000000000000020414243"), code: .malformedPDU),
        // submit_sm with sm_length 255.
        Malformed(name: "sm_length 255", bytes: hex("0000012000000004000000000000000100000000000000000000000000000000ff") + [UInt8](repeating: 0x41, count: 255), code: .malformedPDU),
        // submit_sm whose TLV says 16 octets but carries 2.
        Malformed(name: "TLV length lies", bytes: hex("00000027000000040000000000000001000000000000000000000000000000000004240010abcd"), code: .malformedPDU),
        Malformed(name: "TLV header cut", bytes: hex("0000002300000004000000000000000100000000000000000000000000000000000424"), code: .malformedPDU),
    ]

    @Test(arguments: malformed)
    func refusesMalformedInputWithATypedError(_ input: Malformed) {
        #expect { try SMPPPDU(decoding: input.bytes) } throws: { ($0 as? SMPPError)?.code == input.code }
    }

    @Test func frameLengthNeedsFourOctetsAndIsBounded() throws {
        #expect(try SMPPPDU.frameLength(of: [0, 0, 0]) == nil)
        #expect(try SMPPPDU.frameLength(of: [0, 0, 0, 16]) == 16)
        #expect(throws: SMPPError.self) { try SMPPPDU.frameLength(of: [0, 0, 0x20, 1], maximumLength: 8192) }
        #expect(throws: SMPPError.self) { try SMPPPDU.frameLength(of: [0, 0, 0, 15]) }
    }

    @Test func encodingRefusesWhatTheFieldCannotHold() {
        let long = SMPPShortMessage(source: SMPPAddress(ton: 0, npi: 0, address: ""), destination: SMPPAddress(ton: 0, npi: 0, address: ""),
                                    shortMessage: [UInt8](repeating: 0, count: 255))
        #expect { try SMPPPDU(sequenceNumber: 1, body: .submitSM(long)).encoded() } throws: { ($0 as? SMPPError)?.code == .invalidField }
        let bind = SMPPBind(systemID: "a-system-id-too-long", password: "p")
        #expect { try SMPPPDU(sequenceNumber: 1, body: .bindTransceiver(bind)).encoded() } throws: { ($0 as? SMPPError)?.code == .invalidField }
        let nul = SMPPBind(systemID: "a\u{0}b", password: "p")
        #expect { try SMPPPDU(sequenceNumber: 1, body: .bindTransceiver(nul)).encoded() } throws: { ($0 as? SMPPError)?.code == .invalidField }
    }

    @Test func headerOfAnUndecodablePDU() {
        let header = SMPPPDU.header(of: hex("00000010000000ff0000000000000042"))
        #expect(header?.commandID == SMPPCommandID(rawValue: 0xFF) && header?.sequenceNumber == 0x42)
    }
}

@Suite struct SMPPAddressingTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var sender: String
        var ton: UInt8
        var npi: UInt8
        var address: String
        var testDescription: String { sender }
    }

    @Test(arguments: [
        Case(sender: "Acme", ton: 5, npi: 0, address: "Acme"),
        Case(sender: "Acme Bank 1", ton: 5, npi: 0, address: "Acme Bank 1"),
        Case(sender: "+447700900123", ton: 1, npi: 1, address: "447700900123"),
        Case(sender: "447700900123", ton: 1, npi: 1, address: "447700900123"),
        Case(sender: "07700900123", ton: 2, npi: 1, address: "07700900123"),
        Case(sender: "12345", ton: 3, npi: 0, address: "12345"),
        Case(sender: "12345678", ton: 3, npi: 0, address: "12345678"),
        Case(sender: "1A2B", ton: 5, npi: 0, address: "1A2B"),
    ])
    func sourceFollowsTheSenderIDsForm(_ input: Case) throws {
        #expect(try SMPPAddressing.source(input.sender) == SMPPAddress(ton: input.ton, npi: input.npi, address: input.address))
    }

    @Test(arguments: ["", "Acme Bank 12", "Acme[Bank]", "Ödeme", "+1234567890123456", "1234567890123456", "a`b"])
    func sourceRefusesWhatNoSMSCTakes(_ sender: String) {
        #expect { try SMPPAddressing.source(sender) } throws: { ($0 as? SMPPError)?.code == .invalidConfiguration }
    }

    @Test func destinationIsInternationalE164() throws {
        #expect(try SMPPAddressing.destination("+905321234567") == SMPPAddress(ton: 1, npi: 1, address: "905321234567"))
        #expect(throws: SMPPError.self) { try SMPPAddressing.destination("05321234567") }
        #expect(throws: SMPPError.self) { try SMPPAddressing.destination("+90 532") }
    }
}

@Suite struct SMPPReceiptTests {
    static func receipt(_ text: String, tlvs: [SMPPTLV] = [], esmClass: UInt8 = 0x04) -> SMPPShortMessage {
        SMPPShortMessage(source: SMPPAddress(ton: 1, npi: 1, address: "905321234567"),
                         destination: SMPPAddress(ton: 5, npi: 0, address: "Acme"), esmClass: esmClass,
                         shortMessage: Array(text.utf8), tlvs: tlvs)
    }

    @Test func readsTheReceiptText() throws {
        let text = "id:0123456789 sub:001 dlvrd:001 submit date:2611280543 done date:2611280544 stat:DELIVRD err:000 text:Your code is 1234"
        let receipt = try #require(try SMPPDeliveryReceipt(Self.receipt(text)))
        #expect(receipt.messageID == "0123456789")
        #expect(receipt.state == .delivered && receipt.state.isFinal)
        #expect(receipt.receipt.submitted == 1 && receipt.receipt.delivered == 1)
        #expect(receipt.receipt.submitDate == "2611280543" && receipt.receipt.doneDate == "2611280544")
        #expect(receipt.receipt.error == "000")
        #expect(receipt.receipt.text == "Your code is 1234")
    }

    @Test(arguments: [("UNDELIV", SMPPMessageState.undeliverable), ("EXPIRED", .expired), ("REJECTD", .rejected),
                      ("ACCEPTD", .accepted), ("ENROUTE", .enroute), ("DELETED", .deleted), ("UNKNOWN", .unknown)])
    func readsEveryState(_ stat: String, _ state: SMPPMessageState) throws {
        let receipt = try #require(try SMPPDeliveryReceipt(Self.receipt("id:7 stat:\(stat) err:001")))
        #expect(receipt.state == state)
    }

    @Test func tlvsWinOverTheText() throws {
        let message = Self.receipt("id:1000 stat:DELIVRD", tlvs: [
            SMPPTLV(.receiptedMessageID, Array("3e8\0".utf8)), SMPPTLV(.messageState, [5]),
            SMPPTLV(.networkErrorCode, [3, 0x00, 0x0B]),
        ])
        let receipt = try #require(try SMPPDeliveryReceipt(message))
        #expect(receipt.messageID == "3e8" && receipt.state == .undeliverable)
        // The text is still there as read, beside the TLVs that win over it.
        #expect(receipt.receiptedMessageID == "3e8" && receipt.messageState == .undeliverable)
        #expect(receipt.receipt.messageID == "1000" && receipt.receipt.state == .delivered)
        #expect(receipt.networkErrorCode == SMPPNetworkErrorCode(networkType: 3, errorCode: 11))
    }

    @Test func notAReceiptOrABrokenOne() throws {
        #expect(try SMPPDeliveryReceipt(Self.receipt("id:1 stat:DELIVRD", esmClass: 0)) == nil)
        #expect(throws: SMPPError.self) { try SMPPDeliveryReceipt(Self.receipt("stat:DELIVRD")) }
        #expect(throws: SMPPError.self) { try SMPPDeliveryReceipt(Self.receipt("id:1 stat:GONE")) }
    }

    @Test func messageIDsMatchAcrossBases() {
        var index = SMPPMessageIDIndex<Int>(capacity: 2)
        index.insert("3E8", value: 1)        // hex in submit_sm_resp
        index.insert("2000", value: 2)       // decimal in submit_sm_resp
        #expect(index.value(forReceiptID: "1000") == 1)   // the receipt in decimal
        #expect(index.value(forReceiptID: "3e8") == 1)
        #expect(index.value(forReceiptID: "7d0") == 2)    // the receipt in hex
        #expect(index.value(forReceiptID: "0000002000") == 2)
        #expect(index.value(forReceiptID: "999") == nil)
        index.insert("abc-1", value: 3)      // past the capacity: the oldest goes
        #expect(index.value(forReceiptID: "1000") == nil && index.count == 2)
        #expect(index.value(forReceiptID: "ABC-1") == 3)
    }
}

@Suite struct SMPPIncomingTests {
    static func deliver(_ data: [UInt8], dataCoding: UInt8, udhi: Bool = false, tlvs: [SMPPTLV] = []) -> SMPPShortMessage {
        SMPPShortMessage(source: SMPPAddress(ton: 1, npi: 1, address: "905321234567"),
                         destination: SMPPAddress(ton: 3, npi: 0, address: "12345"), esmClass: udhi ? 0x40 : 0,
                         dataCoding: dataCoding, shortMessage: data, tlvs: tlvs)
    }

    @Test func decodesGSMWithTurkishTablesPackedAndUnpacked() throws {
        // Turkish single shift (IE 0x24 = 1) and locking shift (IE 0x25 = 1).
        let tables = SMSNationalLanguageTables(lockingShift: .turkish, singleShift: .turkish)
        let septets = try GSM7.encode("Kodunuz: 1234 ğış", tables: tables)
        let header: [UInt8] = [6, 0x24, 1, 1, 0x25, 1, 1]
        let unpacked = try SMPPIncomingPart(Self.deliver(header + septets, dataCoding: 0, udhi: true))
        #expect(unpacked.text == "Kodunuz: 1234 ğış")
        let packed = try GSM7.pack(septets, fillBits: (7 - (header.count * 8) % 7) % 7)
        let part = try SMPPIncomingPart(Self.deliver(header + packed, dataCoding: 0, udhi: true), gsmPacking: .packed)
        #expect(part.text == "Kodunuz: 1234 ğış")
    }

    @Test func eachShiftIENamesItsOwnTable() throws {
        // Locking shift alone (IE 0x25): 'ğ' and 'ş' are plain septets of the Turkish locking table.
        let locking = try GSM7.encode("ğış", tables: SMSNationalLanguageTables(lockingShift: .turkish))
        #expect(!locking.contains(GSM7.escape))
        #expect(try SMPPIncomingPart(Self.deliver([3, 0x25, 1, 1] + locking, dataCoding: 0, udhi: true)).text == "ğış")
        // Single shift alone (IE 0x24): they are escaped septets of the Turkish single shift table.
        let single = try GSM7.encode("ğş", tables: SMSNationalLanguageTables(singleShift: .turkish))
        #expect(single.contains(GSM7.escape))
        #expect(try SMPPIncomingPart(Self.deliver([3, 0x24, 1, 1] + single, dataCoding: 0, udhi: true)).text == "ğş")
    }

    @Test func decodesUCS2AndEightBit() throws {
        let arabic = "رمزك 1234"
        let utf16 = arabic.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        #expect(try SMPPIncomingPart(Self.deliver(utf16, dataCoding: 8)).text == arabic)
        let binary = try SMPPIncomingPart(Self.deliver([0xDE, 0xAD], dataCoding: 4))
        #expect(binary.text == nil && binary.data == [0xDE, 0xAD])
        #expect(throws: SMPPError.self) { try SMPPIncomingPart(Self.deliver([0, 0x41, 0], dataCoding: 8)) }
    }

    @Test func refusesHeadersThatOverrun() {
        #expect(throws: SMPPError.self) { try SMPPIncomingPart(Self.deliver([9, 0, 3, 1], dataCoding: 8, udhi: true)) }
        #expect(throws: SMPPError.self) { try SMPPIncomingPart(Self.deliver([5, 0, 9, 1, 2, 1], dataCoding: 8, udhi: true)) }
        #expect(throws: SMPPError.self) { try SMPPIncomingPart(Self.deliver([5, 0, 3, 1, 2, 3], dataCoding: 8, udhi: true)) }
    }

    @Test func reassemblesPartsInAnyOrderWithinTheWindow() throws {
        func part(_ number: UInt8, _ text: String, reference: UInt8 = 7) throws -> SMPPIncomingPart {
            let header: [UInt8] = [5, 0, 3, reference, 3, number]
            return try SMPPIncomingPart(Self.deliver(header + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] },
                                                     dataCoding: 8, udhi: true))
        }
        var reassembler = SMPPReassembler(window: .seconds(10))
        let start = ContinuousClock.now
        #expect(reassembler.add(try part(3, "ج"), at: start) == nil)
        #expect(reassembler.add(try part(1, "أ"), at: start) == nil)
        #expect(reassembler.add(try part(1, "x", reference: 8), at: start) == nil)
        let whole = try #require(reassembler.add(try part(2, "ب"), at: start + .seconds(1)))
        #expect(whole.text == "أبج" && whole.partCount == 3)
        // Reference 8 never completes: it is dropped after the window.
        #expect(reassembler.pendingCount == 1)
        reassembler.expire(now: start + .seconds(11))
        #expect(reassembler.pendingCount == 0)
    }

    @Test func pendingMessagesAreBounded() throws {
        var reassembler = SMPPReassembler(window: .seconds(60), capacity: 4)
        for reference in 0..<100 {
            let header: [UInt8] = [5, 0, 3, UInt8(reference), 2, 1]
            _ = reassembler.add(try SMPPIncomingPart(Self.deliver(header + [0, 0x41], dataCoding: 8, udhi: true)), at: .now)
        }
        #expect(reassembler.pendingCount == 4)
    }

    @Test func sarTLVsConcatenateToo() throws {
        let tlvs = [SMPPTLV.integer(.sarMessageReferenceNumber, 300, byteCount: 2), .integer(.sarTotalSegments, 2, byteCount: 1),
                    .integer(.sarSegmentSequenceNumber, 2, byteCount: 1)]
        let part = try SMPPIncomingPart(Self.deliver([0, 0x41], dataCoding: 8, tlvs: tlvs))
        #expect(part.concatenation?.reference == 300 && part.concatenation?.count == 2 && part.concatenation?.number == 2)
    }
}

/// Mutated PDUs (the fuzz corpus' seeds with bytes flipped, cut and grown, seeded): reading never
/// traps, and whatever decodes survives an encode and a decode unchanged.
@Suite struct SMPPMutationTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fuzz/Corpus/SMPPPDU").standardized

    /// The seeds are what they are named: each decodes to the command its name starts with, and
    /// the lying ones are refused for their length, so the fuzzer starts from real PDUs.
    @Test func seedsAreTheirNamedPDUs() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).sorted()
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: Self.corpus.appendingPathComponent(name)))
            if name.hasPrefix("lying_length") {
                #expect(throws: SMPPError.self) { try SMPPPDU(decoding: bytes) }
                #expect(throws: SMPPError(.pduTooLarge, "command_length 65536 is over the maximum of 8192 octets")) {
                    try SMPPPDU.frameLength(of: bytes)
                }
                continue
            }
            let pdu = try SMPPPDU(decoding: bytes)
            #expect(pdu.commandID.description == String(name.prefix(while: { $0 != "-" })), "\(name)")
        }
        let turkish = try SMPPPDU(decoding: [UInt8](try Data(contentsOf: Self.corpus.appendingPathComponent("submit_sm-udh-gsm-turkish"))))
        guard case .submitSM(let message) = turkish.body else { Issue.record("not a submit_sm"); return }
        let part = try SMPPIncomingPart(message)
        #expect(part.concatenation?.count == 2 && part.text?.hasPrefix("Kod: 123456") == true)
    }

    @Test func mutatedPDUsNeverTrapAndRoundTrip() throws {
        let seeds = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).sorted().map {
            [UInt8](try Data(contentsOf: Self.corpus.appendingPathComponent($0)))
        }
        try #require(seeds.count >= 5)
        var state: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(max(bound, 1)))
        }
        var decoded = 0
        for _ in 0..<20_000 {
            var bytes = seeds[next(seeds.count)]
            for _ in 0...next(4) {
                switch next(4) {
                case 0: if !bytes.isEmpty { bytes[next(bytes.count)] = UInt8(truncatingIfNeeded: next(256)) }
                case 1: bytes = Array(bytes.prefix(next(bytes.count + 1)))
                case 2: bytes.insert(UInt8(truncatingIfNeeded: next(256)), at: next(bytes.count + 1))
                default: if bytes.count > 4 { bytes[4 + next(bytes.count - 4)] ^= 0xFF }
                }
            }
            // Keep command_length honest half the time, so that bodies are reached.
            if next(2) == 0, bytes.count >= 4 {
                let length = UInt32(bytes.count)
                bytes[0] = UInt8(length >> 24); bytes[1] = UInt8((length >> 16) & 0xFF)
                bytes[2] = UInt8((length >> 8) & 0xFF); bytes[3] = UInt8(length & 0xFF)
            }
            guard let pdu = try? SMPPPDU(decoding: bytes) else { continue }
            decoded += 1
            let again = try pdu.encoded()
            #expect(try SMPPPDU(decoding: again) == pdu)
            if case .deliverSM(let message) = pdu.body {
                _ = try? SMPPDeliveryReceipt(message)
                for packing in SMPPGSMPacking.allCases { _ = try? SMPPIncomingPart(message, gsmPacking: packing) }
            }
        }
        #expect(decoded > 1000)  // the mutations reach the decoders, not only the length check
    }
}
