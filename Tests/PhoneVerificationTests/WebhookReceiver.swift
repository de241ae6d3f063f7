import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A real HTTP/1.1 server on loopback that plays a webhook receiver: it records every request
/// and answers as told (fail the first N, answer late, or not be there at all).
final class WebhookReceiver: Sendable {
    struct Request: Sendable {
        var headers: [String: String]
        var body: [UInt8]
        var status: Int
    }

    struct Behaviour: Sendable {
        /// Requests answered 500 before the receiver starts accepting.
        var failFirst = 0
        /// Requests answered only after this delay (the first `slowFirst` ones).
        var slowFirst = 0
        var delay: Duration = .zero
        /// The body of every answer.
        var responseBody: [UInt8] = []
    }

    private let state: Mutex<(behaviour: Behaviour, seen: Int, requests: [Request])>
    private let channel: Mutex<(any Channel)?> = Mutex(nil)
    private let boundPort = Mutex(0)
    var port: Int { boundPort.withLock { $0 } }

    init(_ behaviour: Behaviour = Behaviour(), port: Int = 0) async throws {
        state = Mutex((behaviour, 0, []))
        try await start(port: port)
    }

    /// Starts listening (again) on `port` (0: any free port).
    func start(port: Int) async throws {
        let receiver = self
        let bound = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(Handler(receiver: receiver))
                }
            }
            .bind(host: "127.0.0.1", port: port).get()
        boundPort.withLock { $0 = bound.localAddress?.port ?? 0 }
        channel.withLock { $0 = bound }
    }

    /// Stops listening: connections are refused until ``start(port:)``.
    func stop() async throws {
        let current = channel.withLock { channel in defer { channel = nil }; return channel }
        try await current?.close()
    }

    var url: String { "http://127.0.0.1:\(port)/hooks/smskit?token=abc" }

    /// Every request received, in arrival order, with the status it was answered.
    var requests: [Request] { state.withLock { $0.requests } }

    /// The bodies of the requests answered 2xx.
    var accepted: [Request] { requests.filter { (200..<300).contains($0.status) } }

    fileprivate func answer(_ headers: [String: String], _ body: [UInt8]) -> (status: Int, delay: Duration, body: [UInt8]) {
        state.withLock { state in
            state.seen += 1
            let status = state.seen <= state.behaviour.failFirst ? 500 : state.behaviour.responseBody.isEmpty ? 204 : 200
            let delay = state.seen <= state.behaviour.slowFirst ? state.behaviour.delay : .zero
            state.requests.append(Request(headers: headers, body: body, status: status))
            return (status, delay, state.behaviour.responseBody)
        }
    }

    private final class Handler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart
        let receiver: WebhookReceiver
        var headers: [String: String] = [:]
        var body: [UInt8] = []

        init(receiver: WebhookReceiver) { self.receiver = receiver }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                headers = Dictionary(head.headers.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
                body = []
            case .body(let buffer):
                body.append(contentsOf: buffer.readableBytesView)
            case .end:
                let (status, delay, answer) = receiver.answer(headers, body)
                let respond = { [context] in
                    var head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: status))
                    head.headers.add(name: "Content-Length", value: String(answer.count))
                    head.headers.add(name: "Connection", value: "close")
                    context.write(self.wrapOutboundOut(.head(head)), promise: nil)
                    if !answer.isEmpty {
                        context.write(self.wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: answer)))), promise: nil)
                    }
                    context.writeAndFlush(self.wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
                }
                if delay == .zero {
                    respond()
                } else {
                    let (seconds, attoseconds) = delay.components
                    context.eventLoop.scheduleTask(in: .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)) {
                        respond()
                    }
                }
            }
        }
    }
}
