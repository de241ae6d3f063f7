import NIOCore
import NIOPosix
import PhoneVerificationSMPP
import Synchronization

/// A fake SMSC for the faults a real server does not produce on request (silence, a drop in the
/// middle of a window, malformed PDUs): it reads PDUs, records them, and answers as `script` says.
final class ScriptedSMSC: Sendable {
    enum Reply: Sendable {
        /// Bytes to write (PDUs, or anything).
        case write([UInt8])
        /// Close the connection.
        case close
    }

    /// Gets each PDU read (and the connection's number, from 1) and returns what to do.
    typealias Script = @Sendable (_ pdu: SMPPPDU, _ connection: Int) -> [Reply]

    let port: Int
    private let channel: any Channel
    let recorder = Recorder()

    final class Recorder: Sendable {
        let received = Mutex<[(connection: Int, pdu: SMPPPDU)]>([])
        let connections = Mutex<[any Channel]>([])
    }

    init(script: @escaping Script) async throws {
        let recorder = self.recorder
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                let number = recorder.connections.withLock { $0.append(child); return $0.count }
                return child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(Handler(connection: number, script: script, recorder: recorder))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        port = channel.localAddress?.port ?? 0
    }

    var pdus: [SMPPPDU] { recorder.received.withLock { $0.map(\.pdu) } }
    var connectionCount: Int { recorder.connections.withLock { $0.count } }

    /// The submit_sm bodies read so far.
    var submits: [SMPPShortMessage] {
        pdus.compactMap { if case .submitSM(let message) = $0.body { message } else { nil } }
    }

    func stop() async {
        for child in recorder.connections.withLock({ $0 }) { try? await child.close() }
        try? await channel.close()
    }

    /// Answers a bind with `bind_*_resp` OK, and enquire_link and unbind with their responses.
    static func session(_ pdu: SMPPPDU) -> [Reply]? {
        switch pdu.body {
        case .bindTransceiver:
            return [.write(try! SMPPPDU(sequenceNumber: pdu.sequenceNumber, body: .bindTransceiverResp(systemID: "fake", tlvs: [])).encoded())]
        case .enquireLink:
            return [.write(try! SMPPPDU(sequenceNumber: pdu.sequenceNumber, body: .enquireLinkResp).encoded())]
        case .unbind:
            return [.write(try! SMPPPDU(sequenceNumber: pdu.sequenceNumber, body: .unbindResp).encoded()), .close]
        default:
            return nil
        }
    }

    private final class Handler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        let connection: Int
        let script: Script
        let recorder: Recorder
        var buffer: [UInt8] = []

        init(connection: Int, script: @escaping Script, recorder: Recorder) {
            self.connection = connection
            self.script = script
            self.recorder = recorder
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var bytes = unwrapInboundIn(data)
            buffer.append(contentsOf: bytes.readBytes(length: bytes.readableBytes) ?? [])
            while let length = try? SMPPPDU.frameLength(of: buffer), buffer.count >= length {
                let frame = Array(buffer.prefix(length))
                buffer.removeFirst(length)
                guard let pdu = try? SMPPPDU(decoding: frame) else { continue }
                let connection = self.connection
                recorder.received.withLock { $0.append((connection, pdu)) }
                for reply in script(pdu, connection) {
                    switch reply {
                    case .write(let out): context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: out)), promise: nil)
                    case .close: context.close(promise: nil)
                    }
                }
            }
        }
        typealias OutboundOut = ByteBuffer
    }
}
