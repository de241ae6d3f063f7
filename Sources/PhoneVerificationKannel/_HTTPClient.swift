import NIOCore
import NIOHTTP1
import NIOPosix

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A response of Kannel's `sendsms`: the status and the start of the body (Kannel's reason).
struct _HTTPResponse: Sendable {
    var status: Int
    var body: String
}

/// Why an exchange failed, with what the retry decision needs: whether the request left.
enum _HTTPFailure: Error, Sendable {
    /// No connection: nothing was sent. `refused` for ECONNREFUSED, `timedOut` for the connect timeout.
    case connectFailed(refused: Bool, timedOut: Bool)
    /// No complete response within the response timeout.
    case timedOut(requestWritten: Bool)
    /// The connection closed (or failed) before a complete response.
    case connectionLost(requestWritten: Bool)
    /// The bytes that came back are not HTTP/1.1.
    case malformedResponse
}

/// The smallest HTTP/1.1 client Kannel's `sendsms` needs, on swift-nio (a dependency already, so it
/// adds nothing to the build): one `GET` per connection (`Connection: close`), a connect timeout, a
/// response timeout and a bounded body. Plain HTTP only: Kannel's `sendsms` listens on loopback or a
/// private network.
enum _HTTPClient {
    /// The bytes of a response body kept (Kannel answers with one short line).
    static let maximumBodyBytes = 1024

    static func get(host: String, port: Int, target: String, connectTimeout: Duration,
                    responseTimeout: Duration) async throws(_HTTPFailure) -> _HTTPResponse {
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(timeAmount(connectTimeout))
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    }
                }
                .connect(host: host, port: port).get()
        } catch {
            throw .connectFailed(refused: isRefused(error), timedOut: isConnectTimeout(error))
        }
        let hostHeader = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let timeout = timeAmount(responseTimeout)
        let exchange = channel.eventLoop.flatSubmit { () -> EventLoopFuture<_HTTPResponse> in
            let promise = channel.eventLoop.makePromise(of: _HTTPResponse.self)
            let collector = NIOLoopBound(_ResponseCollector(promise: promise), eventLoop: channel.eventLoop)
            do {
                try channel.pipeline.syncOperations.addHandler(collector.value)
            } catch {
                promise.fail(_HTTPFailure.connectionLost(requestWritten: false))
                return promise.futureResult
            }
            let timer = channel.eventLoop.scheduleTask(in: timeout) {
                collector.value.finish(.failure(.timedOut(requestWritten: collector.value.requestWritten)))
            }
            var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: target)
            head.headers.add(name: "Host", value: hostHeader)
            head.headers.add(name: "User-Agent", value: "SMSKit")
            head.headers.add(name: "Connection", value: "close")
            channel.write(HTTPClientRequestPart.head(head), promise: nil)
            let written = channel.eventLoop.makePromise(of: Void.self)
            channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: written)
            written.futureResult.whenSuccess { collector.value.requestWritten = true }
            promise.futureResult.whenComplete { _ in
                timer.cancel()
                channel.close(promise: nil)
            }
            return promise.futureResult
        }
        do {
            return try await exchange.get()
        } catch let failure as _HTTPFailure {
            throw failure
        } catch {
            throw .connectionLost(requestWritten: true)
        }
    }

    private static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000)
    }

    private static func isRefused(_ error: any Error) -> Bool {
        if let error = error as? IOError { return error.errnoCode == ECONNREFUSED }
        if let error = error as? NIOConnectionError {
            return !error.connectionErrors.isEmpty && error.connectionErrors.allSatisfy { isRefused($0.error) }
        }
        return false
    }

    private static func isConnectTimeout(_ error: any Error) -> Bool {
        if case ChannelError.connectTimeout = error { return true }
        return false
    }
}

/// Collects one response on the channel's event loop and completes the promise exactly once.
final class _ResponseCollector: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart

    private let promise: EventLoopPromise<_HTTPResponse>
    private var status: Int?
    private var body: [UInt8] = []
    private var done = false
    /// Whether the request's last byte was handed to the kernel.
    var requestWritten = false

    init(promise: EventLoopPromise<_HTTPResponse>) {
        self.promise = promise
    }

    func finish(_ result: Result<_HTTPResponse, _HTTPFailure>) {
        guard !done else { return }
        done = true
        switch result {
        case .success(let response): promise.succeed(response)
        case .failure(let failure): promise.fail(failure)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            status = Int(head.status.code)
        case .body(var buffer):
            let room = _HTTPClient.maximumBodyBytes - body.count
            if room > 0, let bytes = buffer.readBytes(length: min(room, buffer.readableBytes)) {
                body.append(contentsOf: bytes)
            }
        case .end:
            guard let status else { return finish(.failure(.malformedResponse)) }
            finish(.success(_HTTPResponse(status: status, body: String(decoding: body, as: UTF8.self))))
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(.failure(.connectionLost(requestWritten: requestWritten)))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish(.failure(error is HTTPParserError ? .malformedResponse : .connectionLost(requestWritten: requestWritten)))
        context.close(promise: nil)
    }
}
