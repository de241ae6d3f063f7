import HTTPTypes
import NIOCore
import NIOHTTPTypes
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps the number of open connections at most `limit`, so that the process never runs out of
/// file descriptors (where NIO's accept backs off, leaving every client out, and libdispatch's
/// worker monitor aborts the process when its own `open` fails).
///
/// Every accepted connection is admitted. When `limit` are already open, the one that has been
/// idle longest (no request in flight: never sent a whole head, or finished its last response)
/// is closed to make room; when every open connection has a request in flight, the new one is
/// closed instead. A flood of idle or trickling connections therefore only ever pushes out other
/// idle ones: a client that sends its request when it connects is served, and requests already
/// in progress are never cut. Stopping to accept at the limit would not do: the flood would hold
/// every slot and the listen queue until the idle timeout, and no client would get in.
final class ConnectionLimiter: Sendable {
    private struct Entry {
        let channel: any Channel
        /// Requests whose head arrived and whose response has not ended.
        var inFlight = 0
        /// When it last became idle (admission or the end of a response), on the limiter's tick.
        var idleSince: UInt64
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var tick: UInt64 = 0
    }

    let limit: Int
    private let state = Mutex(State())
    private let metrics: ServiceMetrics?

    init(limit: Int, metrics: ServiceMetrics? = nil) {
        self.limit = max(1, limit)
        self.metrics = metrics
    }

    /// The connections open now.
    var count: Int { state.withLock { $0.entries.count } }

    /// Admits `channel`; returns its ID, or nil when it was refused (and is being closed).
    func admit(_ channel: any Channel) -> UInt64? {
        let (id, victim): (UInt64?, (any Channel)?) = state.withLock { state in
            state.tick += 1
            var victim: (any Channel)?
            if state.entries.count >= limit {
                // The longest-idle connection; a linear scan, done only at the limit.
                var oldest: (id: UInt64, since: UInt64)?
                for (id, entry) in state.entries where entry.inFlight == 0 {
                    if oldest == nil || entry.idleSince < oldest!.since { oldest = (id, entry.idleSince) }
                }
                guard let oldest else { return (nil, nil) }
                victim = state.entries.removeValue(forKey: oldest.id)?.channel
            }
            state.entries[state.tick] = Entry(channel: channel, idleSince: state.tick)
            return (state.tick, victim)
        }
        guard let id else {
            metrics?.refusal("connection_limit")
            channel.close(promise: nil)
            return nil
        }
        if let victim {
            metrics?.refusal("connection_evicted")
            victim.close(promise: nil)
        }
        return id
    }

    func requestStarted(_ id: UInt64) {
        state.withLock { state in state.entries[id]?.inFlight += 1 }
    }

    func responseEnded(_ id: UInt64) {
        state.withLock { state in
            state.tick += 1
            let tick = state.tick
            guard var entry = state.entries[id] else { return }
            entry.inFlight = max(0, entry.inFlight - 1)
            if entry.inFlight == 0 { entry.idleSince = tick }
            state.entries[id] = entry
        }
    }

    func closed(_ id: UInt64) {
        _ = state.withLock { state in state.entries.removeValue(forKey: id) }
    }

    /// The handler each connection gets, after the HTTP codec.
    func handler() -> ConnectionTrackingHandler { ConnectionTrackingHandler(limiter: self) }

    // MARK: The open-file limit

    /// The soft limit on open files (`RLIMIT_NOFILE`), or nil when it cannot be read or is
    /// unlimited.
    static func openFileLimit() -> Int? {
        var limit = rlimit()
        guard getrlimit(Self.resource, &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return Int(clamping: limit.rlim_cur)
    }

    /// Raises the soft limit on open files to the hard limit; returns the soft limit after that.
    @discardableResult
    static func raiseOpenFileLimit() -> Int? {
        var limit = rlimit()
        guard getrlimit(Self.resource, &limit) == 0 else { return nil }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Self.resource, &raised) != 0, limit.rlim_max == rlim_t.max {
                // Linux refuses an unlimited soft limit for files; its ceiling is fs.nr_open.
                raised.rlim_cur = 1 << 20
                _ = setrlimit(Self.resource, &raised)
            }
        }
        return openFileLimit()
    }

    #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif

    /// Descriptors kept for everything but client connections: the listening socket, the event
    /// loops' epoll and event descriptors, store files and pools, the outbox, logs.
    static let reservedDescriptors = 64

    /// The default connection limit for a process whose open-file limit is `fileLimit`: half of
    /// it, at most 10,000 (each connection also costs memory and a slot in the idle scan).
    static func defaultLimit(fileLimit: Int?) -> Int {
        guard let fileLimit else { return 10_000 }
        return max(16, min(10_000, fileLimit / 2))
    }
}

/// Registers its connection with a ``ConnectionLimiter`` and tells it when a request starts and
/// when its response ends.
final class ConnectionTrackingHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let limiter: ConnectionLimiter
    private var id: UInt64?

    init(limiter: ConnectionLimiter) {
        self.limiter = limiter
    }

    func handlerAdded(context: ChannelHandlerContext) {
        guard let id = limiter.admit(context.channel) else { return }
        self.id = id
        let limiter = self.limiter
        context.channel.closeFuture.whenComplete { _ in limiter.closed(id) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if let id, case .head = unwrapInboundIn(data) { limiter.requestStarted(id) }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if let id, case .end = unwrapOutboundIn(data) { limiter.responseEnded(id) }
        context.write(data, promise: promise)
    }
}
