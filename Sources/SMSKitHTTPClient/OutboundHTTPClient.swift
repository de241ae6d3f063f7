import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one HTTP/1.1 client of SMSKit's outbound calls (Kannel's `sendsms`, webhooks, the HTTPS
/// sender), on swift-nio and swift-nio-ssl (both in the dependency graph already).
///
/// Each exchange is one connection (`Connection: close`) with a connect timeout, a total timeout
/// and a cap on the response body; redirects are never followed (a 3xx is an answer like any
/// other); the destination is resolved once and checked against the ``DestinationPolicy`` before
/// connecting to the address checked, so a name that resolves to a private address is refused
/// (and cannot be re-resolved to one between the check and the connection).
///
/// ```swift
/// let client = OutboundHTTPClient(configuration: .init(destinations: .publicOnly))
/// let response = try await client.send(.init(method: .POST, url: url, headers: [("Content-Type", "application/json")], body: body))
/// ```
public struct OutboundHTTPClient: Sendable {
    /// Which destinations may be reached.
    public enum DestinationPolicy: Sendable, Hashable {
        /// Public addresses only: loopback, private (RFC 1918, unique local), link-local, carrier-grade
        /// NAT, multicast and unspecified addresses are refused. The default for URLs that users of
        /// the service configure (webhooks, HTTPS providers).
        case publicOnly
        /// Any address (a gateway on the operator's own network, such as Kannel's `sendsms`, or tests on loopback).
        case any
    }

    /// Timeouts, limits, destinations and TLS.
    public struct Configuration: Sendable {
        /// The longest wait for the TCP (and TLS) connection.
        public var connectTimeout: Duration
        /// The longest time for a whole exchange, from connecting to the response's end.
        public var totalTimeout: Duration
        /// The most response body bytes read; a longer body is ``OutboundHTTPError/responseTooLarge``.
        public var maximumResponseBytes: Int
        /// Which destinations may be reached.
        public var destinations: DestinationPolicy
        /// PEM certificates trusted for `https` besides the system's (e.g. a test CA), or empty.
        public var additionalTrustRootsPEM: [String]

        /// A configuration: 5 s to connect, 15 s in all, 64 KiB of response, public destinations only.
        public init(connectTimeout: Duration = .seconds(5), totalTimeout: Duration = .seconds(15),
                    maximumResponseBytes: Int = 65_536, destinations: DestinationPolicy = .publicOnly,
                    additionalTrustRootsPEM: [String] = []) {
            self.connectTimeout = connectTimeout
            self.totalTimeout = totalTimeout
            self.maximumResponseBytes = maximumResponseBytes
            self.destinations = destinations
            self.additionalTrustRootsPEM = additionalTrustRootsPEM
        }
    }

    /// The configuration.
    public let configuration: Configuration
    private let tls: NIOSSLContext?

    /// A client.
    ///
    /// - Throws: ``OutboundHTTPError`` `.tlsConfiguration` when a trust root is not a PEM certificate.
    public init(configuration: Configuration = Configuration()) throws(OutboundHTTPError) {
        self.configuration = configuration
        do {
            var tlsConfiguration = TLSConfiguration.makeClientConfiguration()
            if !configuration.additionalTrustRootsPEM.isEmpty {
                let certificates = try configuration.additionalTrustRootsPEM.flatMap {
                    try NIOSSLCertificate.fromPEMBytes(Array($0.utf8))
                }
                tlsConfiguration.trustRoots = .default
                tlsConfiguration.additionalTrustRoots = [.certificates(certificates)]
            }
            tls = try NIOSSLContext(configuration: tlsConfiguration)
        } catch {
            throw OutboundHTTPError(.tlsConfiguration, requestWritten: false)
        }
    }

    /// Sends a request and reads the response.
    ///
    /// - Parameter request: The request.
    /// - Returns: The status, headers and body.
    /// - Throws: ``OutboundHTTPError``; its ``OutboundHTTPError/requestWritten`` says whether the
    ///   server may have received the request (what a caller's retry decision needs).
    public func send(_ request: OutboundHTTPRequest) async throws(OutboundHTTPError) -> OutboundHTTPResponse {
        let url = request.url
        let address = try await resolve(url)
        let deadline = NIODeadline.now() + Self.timeAmount(configuration.totalTimeout)
        let channel: any Channel
        let tls = url.isTLS ? self.tls : nil
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(Self.timeAmount(min(configuration.connectTimeout, configuration.totalTimeout)))
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if let tls {
                            let handler = try NIOSSLClientHandler(context: tls, serverHostname: url.isIPAddress ? nil : url.host)
                            try channel.pipeline.syncOperations.addHandler(handler)
                        }
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    }
                }
                .connect(to: address).get()
        } catch {
            throw OutboundHTTPError(Self.isRefused(error) ? .connectionRefused
                                    : Self.isConnectTimeout(error) ? .connectTimeout : .connectFailed,
                                    requestWritten: false)
        }
        let limit = configuration.maximumResponseBytes
        let exchange = channel.eventLoop.flatSubmit { () -> EventLoopFuture<OutboundHTTPResponse> in
            let promise = channel.eventLoop.makePromise(of: OutboundHTTPResponse.self)
            let collector = NIOLoopBound(ResponseCollector(promise: promise, limit: limit), eventLoop: channel.eventLoop)
            do {
                try channel.pipeline.syncOperations.addHandler(collector.value)
            } catch {
                promise.fail(OutboundHTTPError(.connectionLost, requestWritten: false))
                return promise.futureResult
            }
            let timer = channel.eventLoop.scheduleTask(deadline: deadline) {
                collector.value.finish(.failure(OutboundHTTPError(.timeout, requestWritten: collector.value.requestWritten)))
            }
            var head = HTTPRequestHead(version: .http1_1, method: request.method, uri: url.target)
            head.headers.add(name: "Host", value: url.hostHeader)
            head.headers.add(name: "User-Agent", value: "SMSKit")
            head.headers.add(name: "Connection", value: "close")
            for (name, value) in request.headers { head.headers.add(name: name, value: value) }
            if request.method != .GET || !request.body.isEmpty {
                head.headers.replaceOrAdd(name: "Content-Length", value: String(request.body.count))
            }
            channel.write(HTTPClientRequestPart.head(head), promise: nil)
            if !request.body.isEmpty {
                channel.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: request.body))), promise: nil)
            }
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
        } catch let failure as OutboundHTTPError {
            throw failure
        } catch {
            throw OutboundHTTPError(.connectionLost, requestWritten: true)
        }
    }

    /// Resolves the URL's host once (off the cooperative pool) and checks every address against the policy.
    private func resolve(_ url: OutboundURL) async throws(OutboundHTTPError) -> SocketAddress {
        let addresses: [SocketAddress]
        do {
            addresses = try await NIOThreadPool.singleton.runIfActive { try Self.lookup(url.host, port: url.port) }
        } catch {
            throw OutboundHTTPError(.unresolvable, requestWritten: false)
        }
        guard let first = addresses.first else { throw OutboundHTTPError(.unresolvable, requestWritten: false) }
        if configuration.destinations == .publicOnly, let refused = addresses.first(where: { !DestinationCheck.isPublic($0) }) {
            throw OutboundHTTPError(.destinationRefused, requestWritten: false,
                                    detail: "\(url.host) resolves to \(refused.ipAddress ?? "a non-public address"), which is not public")
        }
        return first
    }

    /// Every address `getaddrinfo` gives for a host (TCP).
    static func lookup(_ host: String, port: Int) throws -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_protocol = Int32(IPPROTO_TCP)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0, let list = result else {
            throw OutboundHTTPError(.unresolvable, requestWritten: false)
        }
        defer { freeaddrinfo(list) }
        var addresses: [SocketAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = list
        while let entry = cursor, addresses.count < 16 {
            if let address = entry.pointee.ai_addr {
                switch Int32(address.pointee.sa_family) {
                case AF_INET:
                    let v4 = UnsafeRawPointer(address).load(as: sockaddr_in.self)
                    addresses.append(SocketAddress(v4, host: host))
                case AF_INET6:
                    let v6 = UnsafeRawPointer(address).load(as: sockaddr_in6.self)
                    addresses.append(SocketAddress(v6, host: host))
                default:
                    break
                }
            }
            cursor = entry.pointee.ai_next
        }
        return addresses
    }

    static func timeAmount(_ duration: Duration) -> TimeAmount {
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
final class ResponseCollector: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart

    private let promise: EventLoopPromise<OutboundHTTPResponse>
    private let limit: Int
    private var head: HTTPResponseHead?
    private var body: [UInt8] = []
    private var done = false
    /// Whether the request's last byte was handed to the kernel: from then on the server may have
    /// the whole request (before, it cannot act on a request it did not fully receive).
    var requestWritten = false

    init(promise: EventLoopPromise<OutboundHTTPResponse>, limit: Int) {
        self.promise = promise
        self.limit = limit
    }

    func finish(_ result: Result<OutboundHTTPResponse, OutboundHTTPError>) {
        guard !done else { return }
        done = true
        switch result {
        case .success(let response): promise.succeed(response)
        case .failure(let failure): promise.fail(failure)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !done else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body(let buffer):
            guard body.count + buffer.readableBytes <= limit else {
                finish(.failure(OutboundHTTPError(.responseTooLarge, requestWritten: true)))
                context.close(promise: nil)
                return
            }
            body.append(contentsOf: buffer.readableBytesView)
        case .end:
            guard let head else { return finish(.failure(OutboundHTTPError(.malformedResponse, requestWritten: true))) }
            finish(.success(OutboundHTTPResponse(status: Int(head.status.code),
                                                 headers: head.headers.map { ($0.name, $0.value) }, body: body)))
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(.failure(OutboundHTTPError(.connectionLost, requestWritten: requestWritten)))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        let kind: OutboundHTTPError.Kind = error is HTTPParserError ? .malformedResponse
            : error is NIOSSLError ? .tlsHandshake : .connectionLost
        finish(.failure(OutboundHTTPError(kind, requestWritten: requestWritten && kind != .tlsHandshake)))
        context.close(promise: nil)
    }
}
