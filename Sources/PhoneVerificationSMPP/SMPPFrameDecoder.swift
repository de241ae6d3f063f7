import NIOCore
import SMPPCodec

/// What the reader got from the stream: a PDU, or a whole frame that did not decode (answered
/// with `generic_nack` or an error response; the stream goes on, as its length was sound).
enum SMPPInboundFrame: Sendable {
    case pdu(SMPPPDU)
    case undecodable(commandID: SMPPCommandID, sequenceNumber: UInt32, error: SMPPError)
}

/// Cuts the byte stream into PDUs by `command_length`. A length under 16 or over the maximum is
/// fatal (thrown: the channel closes, since the stream cannot be resynchronised), and is detected
/// from the first four octets, so no more than `maximumLength` octets are ever buffered for one PDU.
struct SMPPFrameDecoder: ByteToMessageDecoder {
    typealias InboundOut = SMPPInboundFrame
    let maximumLength: Int

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let prefix = buffer.getBytes(at: buffer.readerIndex, length: min(4, buffer.readableBytes)),
              let length = try SMPPPDU.frameLength(of: prefix, maximumLength: maximumLength),
              let bytes = buffer.readBytes(length: length) else {
            return .needMoreData
        }
        let frame: SMPPInboundFrame
        do {
            frame = .pdu(try SMPPPDU(decoding: bytes, maximumLength: maximumLength))
        } catch {
            let header = SMPPPDU.header(of: bytes)
            frame = .undecodable(commandID: header?.commandID ?? SMPPCommandID(rawValue: 0),
                                 sequenceNumber: header?.sequenceNumber ?? 0, error: error)
        }
        context.fireChannelRead(wrapInboundOut(frame))
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }
}
