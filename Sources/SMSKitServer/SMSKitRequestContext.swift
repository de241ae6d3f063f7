import Hummingbird
import NIOCore

/// The request context: Hummingbird's core storage and the peer's address (the client key of
/// the verification send guard).
public struct SMSKitRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The TCP peer.
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
