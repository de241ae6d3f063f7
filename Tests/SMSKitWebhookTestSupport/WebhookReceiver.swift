import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A real HTTP/1.1 server on loopback that plays a webhook receiver: it records every request
/// and answers as told (fail the first N, answer late, never answer some, or not be there at all).
/// The one receiver of the dispatcher's, the service's and the Kannel end-to-end tests.
public final class WebhookReceiver: Sendable {
    public struct Request: Sendable {
        public var headers: [String: String]
        public var body: [UInt8]
        /// The status it was answered with; 0 for a request held unanswered (``Behaviour/hangWhen``).
        public var status: Int
        /// When its last byte arrived.
        public var receivedAt: ContinuousClock.Instant
        /// The same, by the wall clock: the `now` a receiver checks the signature's timestamp against.
        public var arrivedAt: Date

        /// The value of the `SMSKit-Event-ID` header, if any.
        public var eventID: String? { headers["smskit-event-id"] }
    }

    public struct Behaviour: Sendable {
        /// Requests answered 500 before the receiver starts accepting.
        public var failFirst = 0
        /// Requests answered only after this delay (the first `slowFirst` ones).
        public var slowFirst = 0
        public var delay: Duration = .zero
        /// The body of every answer.
        public var responseBody: [UInt8] = []
        /// Requests (by their lower-case headers and body) recorded but never answered: the
        /// connection stays open until the client gives up, as with a receiver that hangs.
        public var hangWhen: (@Sendable (_ headers: [String: String], _ body: [UInt8]) -> Bool)?

        public init(failFirst: Int = 0, slowFirst: Int = 0, delay: Duration = .zero, responseBody: [UInt8] = [],
                    hangWhen: (@Sendable (_ headers: [String: String], _ body: [UInt8]) -> Bool)? = nil) {
            self.failFirst = failFirst
            self.slowFirst = slowFirst
            self.delay = delay
            self.responseBody = responseBody
            self.hangWhen = hangWhen
        }
    }

    private let state: Mutex<(behaviour: Behaviour, seen: Int, requests: [Request])>
    private let channel: Mutex<(any Channel)?> = Mutex(nil)
    private let boundPort = Mutex(0)
    public var port: Int { boundPort.withLock { $0 } }

    public init(_ behaviour: Behaviour = Behaviour(), port: Int = 0) async throws {
        state = Mutex((behaviour, 0, []))
        try await start(port: port)
    }

    /// Starts listening (again) on `port` (0: any free port).
    public func start(port: Int) async throws {
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
    public func stop() async throws {
        let current = channel.withLock { channel in defer { channel = nil }; return channel }
        try await current?.close()
    }

    public var url: String { "http://127.0.0.1:\(port)/hooks/smskit?token=abc" }

    /// Every request received, in arrival order, with the status it was answered.
    public var requests: [Request] { state.withLock { $0.requests } }

    /// The requests answered 2xx.
    public var accepted: [Request] { requests.filter { (200..<300).contains($0.status) } }

    /// Polls until `condition` holds of the requests so far, up to `seconds`; whether it held.
    public func wait(seconds: Double, until condition: ([Request]) -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while !condition(requests) {
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(100))
        }
        return true
    }

    fileprivate func answer(_ headers: [String: String], _ body: [UInt8]) -> (status: Int, delay: Duration, body: [UInt8]) {
        state.withLock { state in
            state.seen += 1
            if let hang = state.behaviour.hangWhen, hang(headers, body) {
                state.requests.append(Request(headers: headers, body: body, status: 0, receivedAt: .now, arrivedAt: Date()))
                return (0, .zero, [])
            }
            let status = state.seen <= state.behaviour.failFirst ? 500 : state.behaviour.responseBody.isEmpty ? 204 : 200
            let delay = state.seen <= state.behaviour.slowFirst ? state.behaviour.delay : .zero
            state.requests.append(Request(headers: headers, body: body, status: status, receivedAt: .now, arrivedAt: Date()))
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
                if status == 0 { return }
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
