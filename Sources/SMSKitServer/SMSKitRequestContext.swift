import Hummingbird
import NIOCore

/// The request context: Hummingbird's core storage, the peer's address (the client key of the
/// verification send guard) and what the middleware found on the way in.
public struct SMSKitRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The TCP peer.
    public let remoteAddress: SocketAddress?
    /// The caller's API key, set by ``APIKeyMiddleware`` (nil on open routes and without keys).
    var apiKey: APIKeys.KeyID?
    /// The request body of a JSON route, read within the limits by ``JSONBodyMiddleware``.
    var body = ByteBuffer()

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
