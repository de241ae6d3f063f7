// Fuzzes the SMPP 3.4 codec and what the client reads from deliver_sm, with arbitrary bytes as
// they come off a connection. Properties checked on every input:
// - framing, decoding, reading a receipt's optional parameters and incoming messages never trap;
// - a PDU that decodes encodes again, and that encoding decodes to the same PDU;
// - nothing is read past the frame length the first four octets give.
import FuzzDriver
import SMPPCodec

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let length = try? SMPPPDU.frameLength(of: bytes), length <= bytes.count else {
        _ = try? SMPPPDU(decoding: bytes)
        return 0
    }
    guard let pdu = try? SMPPPDU(decoding: bytes.prefix(length)) else { return 0 }
    let again = try! pdu.encoded()
    precondition((try? SMPPPDU(decoding: again)) == pdu, "a decoded PDU does not survive encoding")
    if case .deliverSM(let message) = pdu.body {
        _ = (message.isDeliveryReceipt, message.tlvs.receiptedMessageID, message.tlvs.messageState,
             message.tlvs.networkErrorCode)
        for packing in SMPPGSMPacking.allCases {
            if let part = try? SMPPIncomingPart(message, gsmPacking: packing) {
                var reassembler = SMPPReassembler(window: .seconds(1), capacity: 4)
                _ = reassembler.add(part, at: .now)
            }
        }
    }
    return 0
}

@_cdecl("SMPPPDUFuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
