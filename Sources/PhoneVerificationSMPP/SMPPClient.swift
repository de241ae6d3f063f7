import Logging
import PhoneVerification
import NIOCore
import NIOPosix
import NIOSSL
import SMPPCodec

/// Which part of which verification a submitted message ID belongs to, so that a receipt can be
/// matched to it.
public struct SMPPPartReference: Sendable, Hashable {
    public var verificationID: String
    /// From 1.
    public var part: Int
    public var partCount: Int
    public init(verificationID: String, part: Int, partCount: Int) {
        self.verificationID = verificationID
        self.part = part
        self.partCount = partCount
    }
}

/// What the client reports as it runs.
public enum SMPPClientEvent: Sendable {
    /// A session is bound; the SMSC's `system_id`.
    case bound(systemID: String)
    /// The connection closed (or never opened); the client reconnects with backoff.
    case disconnected(SMPPError)
    /// A delivery receipt, with the part it is about when its message ID was submitted by this client.
    case receipt(SMPPDeliveryReceipt, part: SMPPPartReference?)
    /// An incoming message (reassembled when it came in parts).
    case message(SMPPIncomingMessage)
    /// The SMSC sent something this client could not read; it was answered with an error.
    case protocolError(SMPPError)
}

/// An SMPP 3.4 client (ESME) on swift-nio: binds, keeps the link alive, submits parts within a
/// window and a rate, and reports receipts and incoming messages on ``events``.
///
/// Delivery semantics: a `submit_sm` is sent again only when the SMSC provably did not take it:
/// it answered `ESME_RTHROTTLED` or `ESME_RMSGQFUL` (after a backoff), or the PDU was never
/// written because no session was bound. When the connection drops, or no response comes within
/// the response timeout, after the PDU was written, the SMSC may have accepted it: the submit fails
/// with ``SMPPError/Code/connectionLost`` or ``SMPPError/Code/timedOut`` and is never sent again
/// by the client (at most once). Every other PDU in flight on a dropped connection fails the same
/// way; PDUs still waiting for a window slot wait for the next bound session.
///
/// ```swift
/// let client = SMPPClient(configuration: try .init(url: "smpp://esme:secret@127.0.0.1:2775?window=100"))
/// await client.start()
/// let id = try await client.submit(message)       // the SMSC's message ID
/// for await event in client.events { ... }        // receipts, incoming messages
/// await client.shutdown()                          // unbind, close
/// ```
public actor SMPPClient {
    public nonisolated let configuration: Configuration
    /// Bound, disconnected, receipts, incoming messages; buffered (the newest 10,000 are kept
    /// when nobody reads).
    public nonisolated let events: AsyncStream<SMPPClientEvent>
    private let eventSink: AsyncStream<SMPPClientEvent>.Continuation
    private let logger: Logger
    /// The event loop the connections run on. The actor runs there too, so that reading a
    /// response, matching it and writing the next request do not cross threads.
    private nonisolated let eventLoop: any EventLoop
    public nonisolated var unownedExecutor: UnownedSerialExecutor { eventLoop.executor.asUnownedSerialExecutor() }

    /// The client's event loop as a task executor, for callers that submit many parts: a task that
    /// prefers it runs its own code on the thread the client runs on, so a submit does not cross
    /// threads to the client and back.
    ///
    /// ```swift
    /// try await withTaskExecutorPreference(client.taskExecutor) {
    ///     for part in parts { ids.append(try await client.submit(part)) }
    /// }
    /// ```
    ///
    /// Only for code that awaits the client: whatever such a task computes blocks the connections.
    public nonisolated var taskExecutor: any TaskExecutor { SMPPEventLoopTaskExecutor(eventLoop: eventLoop) }

    private struct Pending {
        var continuation: CheckedContinuation<Result<SMPPPDU, SMPPError>, Never>?
        var result: Result<SMPPPDU, SMPPError>?
        var generation: Int
        /// When the response is due; the connection's sweep fails the request after it.
        var deadline: ContinuousClock.Instant
        var timeout: Duration
        /// The part a submit_sm is, remembered as soon as its response is read: a receipt may
        /// follow the response before the submitting task runs again.
        var reference: SMPPPartReference?
    }

    /// What a connection is for: submitting (a transceiver or a transmitter) or, in a
    /// transmitter + receiver pair, receiving only.
    private enum Role: Sendable {
        case submitter
        case receiver
    }

    /// A live connection.
    private struct Session {
        var role: Role
        var channel: any Channel
        var writer: NIOAsyncChannelOutboundWriter<ByteBuffer>?
        /// Requests waiting to be written; one flush task writes all that are queued together and
        /// flushes once, so that a window of submits costs one system call, not one each.
        var outbox: [(sequenceNumber: UInt32, buffer: ByteBuffer)] = []
        var isFlushing = false
        var isBound = false
        /// Bound at some point, even if the SMSC unbound it since (the reconnect backoff).
        var wasBound = false
    }

    private var runTask: Task<Void, Never>?
    private var isShutDown = false
    /// The live connections by generation; a generation is never reused, so that whatever a
    /// closed connection left behind is recognised as stale.
    private var sessions: [Int: Session] = [:]
    private var lastGeneration = 0
    /// Made on the first connection with TLS (it reads the CA file), then shared by all.
    private var tlsContext: NIOSSLContext?
    /// The bound session that submits.
    private var boundGeneration: Int?
    private var boundWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
    private var nextWaiterID = 0
    private var pending: [UInt32: Pending] = [:]
    private var outstanding = 0
    private var windowWaiters: [(id: Int, continuation: CheckedContinuation<Void, Never>)] = []
    /// The shutdown, waiting for the answers to what was written.
    private var answeredWaiters: [CheckedContinuation<Void, Never>] = []
    private var sequence: UInt32 = 0
    private var nextSendAt = ContinuousClock.now
    private var pausedUntil = ContinuousClock.now
    private var messageIDs: SMPPMessageIDIndex<SMPPPartReference>
    /// Receipts whose message ID is not known yet: an SMSC may send the receipt before the
    /// submit_sm_resp that gives the ID. Held for a response timeout at most, 1,024 at most.
    private var heldReceipts: [Int: SMPPDeliveryReceipt] = [:]
    private var nextHeldReceiptID = 0
    private var reassembler: SMPPReassembler

    /// A client; nothing happens before ``start()``.
    public init(configuration: Configuration, logger: Logger = Logger(label: "smskit.smpp")) {
        self.configuration = configuration
        self.logger = logger
        eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        (events, eventSink) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(10_000))
        messageIDs = SMPPMessageIDIndex(capacity: configuration.receiptIndexCapacity)
        reassembler = SMPPReassembler(window: configuration.reassemblyWindow)
    }

    /// Connects and binds in the background, and reconnects with backoff whenever the connection drops.
    public func start() {
        guard runTask == nil, !isShutDown else { return }
        runTask = Task { await self.run() }
    }

    /// Whether a session is bound now.
    public var isBound: Bool { boundGeneration != nil }

    /// The number of `submit_sm` waiting for their response.
    public var outstandingCount: Int { outstanding }

    /// The most requests written with one flush so far (for the tests of the batching).
    package private(set) var largestWriteBatch = 0

    /// The submits waiting for a bound session (for tests that bind once they all wait).
    package var boundWaiterCount: Int { boundWaiters.count }

    /// Ends the session gracefully: sends nothing new (what still waits for a session, a window
    /// slot or the rate fails with ``SMPPError/Code/shutDown``: nothing was sent), waits up to the
    /// response timeout for the answers to what was already written, unbinds (waiting for
    /// `unbind_resp` up to 2 seconds), closes the connection and stops reconnecting. A request
    /// still unanswered then fails with ``SMPPError/Code/connectionLost``: the SMSC may have taken it.
    public func shutdown() async {
        guard !isShutDown else { return }
        // Set first: the SMSC closes the connection after unbind_resp, and the connection loop must
        // not take that for a drop to reconnect from.
        isShutDown = true
        wakeBoundWaiters()
        // Each waiter is handed a slot, which it gives back when it sees the shutdown.
        let waiters = windowWaiters
        windowWaiters.removeAll()
        outstanding += waiters.count
        for waiter in waiters { waiter.continuation.resume() }
        // The answers to what was written: they say whether the SMSC took it, and carry the
        // message IDs that receipts are matched by.
        await waitUntilAnswered(deadline: .now + configuration.responseTimeout)
        for (generation, session) in sessions.sorted(by: { $0.key < $1.key }) where session.isBound {
            _ = await request(.unbind, generation: generation, timeout: min(configuration.responseTimeout, .seconds(2)))
        }
        runTask?.cancel()
        for session in sessions.values { try? await session.channel.close() }
        await runTask?.value
        failPending(generation: nil, SMPPError(.connectionLost,
            "the client shut down before the SMSC answered; not sent again, as the SMSC may have accepted it"))
        eventSink.finish()
    }

    /// Waits until every request written has its answer, or the deadline passes.
    private func waitUntilAnswered(deadline: ContinuousClock.Instant) async {
        guard pending.values.contains(where: { $0.result == nil }) else { return }
        let timer = Task { [weak self] in
            try? await Task.sleep(until: deadline, clock: .continuous)
            await self?.wakeAnsweredWaiters()
        }
        await withCheckedContinuation { answeredWaiters.append($0) }
        timer.cancel()
    }

    private func wakeAnsweredWaiters() {
        let waiters = answeredWaiters
        answeredWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }

    // MARK: Submitting

    /// Submits one `submit_sm` and returns the SMSC's message ID once it accepted it.
    ///
    /// Waits for a bound session (up to ``Configuration/bindWaitTimeout``), a window slot and the
    /// rate limit. Throttling answers are retried after a backoff; see the type's delivery semantics.
    ///
    /// - Parameters:
    ///   - message: The `submit_sm` body.
    ///   - reference: The part the message is, remembered so that its receipt names it.
    /// - Throws: ``SMPPError``: `notBound`, `rejected` (with the status), `throttled`, `genericNack`,
    ///   `timedOut`, `connectionLost`, `invalidField`, `shutDown`.
    public func submit(_ message: SMPPShortMessage, reference: SMPPPartReference? = nil) async throws(SMPPError) -> String {
        // Encoded once, before anything is sent (invalid fields fail here); each attempt only
        // writes its sequence number into the copy it sends.
        let encoded = try SMPPPDU(sequenceNumber: 1, body: .submitSM(message)).encoded()
        var throttled = 0
        var unwritten = 0
        while true {
            let generation = try await waitUntilBound()
            await acquireWindowSlot()
            if isShutDown { releaseWindowSlot(); throw SMPPError(.shutDown, "the SMPP client was shut down; nothing was sent") }
            await pace()
            if isShutDown { releaseWindowSlot(); throw SMPPError(.shutDown, "the SMPP client was shut down; nothing was sent") }
            let result = await request(encoded: encoded, generation: generation, timeout: configuration.responseTimeout,
                                       reference: reference)
            releaseWindowSlot()
            let response: SMPPPDU
            switch result {
            case .success(let pdu): response = pdu
            case .failure(let error) where error.code == .notBound && unwritten < 3:
                unwritten += 1  // never written: the next session may take it
                continue
            case .failure(let error): throw error
            }
            switch response.body {
            case .submitSMResp(let messageID) where response.commandStatus == .ok:
                return messageID
            case .genericNack:
                throw SMPPError(.genericNack, "the SMSC answered submit_sm with generic_nack \(response.commandStatus): it could not read it",
                                commandStatus: response.commandStatus)
            default:
                guard response.commandStatus.isTransient else {
                    throw SMPPError(.rejected, "the SMSC refused submit_sm with \(response.commandStatus)",
                                    commandStatus: response.commandStatus)
                }
                throttled += 1
                guard throttled < configuration.throttleAttempts else {
                    throw SMPPError(.throttled, "the SMSC answered \(response.commandStatus) \(throttled) times; the part was not taken",
                                    commandStatus: response.commandStatus)
                }
                var delay = configuration.throttleBackoff
                for _ in 1..<throttled { delay *= 2 }
                let until = ContinuousClock.now + delay
                if until > pausedUntil { pausedUntil = until }
                logger.warning("SMSC throttling", metadata: ["status": "\(response.commandStatus)", "attempt": "\(throttled)"])
            }
        }
    }

    /// Waits for a bound session; returns its generation.
    private func waitUntilBound() async throws(SMPPError) -> Int {
        let deadline = ContinuousClock.now + configuration.bindWaitTimeout
        while true {
            if isShutDown { throw SMPPError(.shutDown, "the SMPP client was shut down") }
            if let bound = boundGeneration { return bound }
            if ContinuousClock.now >= deadline {
                throw SMPPError(.notBound, "no SMPP session bound to \(configuration.redactedLocation) within \(configuration.bindWaitTimeout); nothing was sent")
            }
            if runTask == nil { start() }
            let id = nextWaiterID
            nextWaiterID += 1
            let timer = Task { [weak self] in
                try? await Task.sleep(until: deadline, clock: .continuous)
                await self?.wakeBoundWaiter(id)
            }
            await withCheckedContinuation { boundWaiters[id] = $0 }
            timer.cancel()
        }
    }

    private func wakeBoundWaiter(_ id: Int) {
        boundWaiters.removeValue(forKey: id)?.resume()
    }

    private func wakeBoundWaiters() {
        let waiters = boundWaiters
        boundWaiters.removeAll()
        for waiter in waiters.values { waiter.resume() }
    }

    private func acquireWindowSlot() async {
        if outstanding < configuration.window, windowWaiters.isEmpty {
            outstanding += 1
            return
        }
        let id = nextWaiterID
        nextWaiterID += 1
        // The slot is handed over by releaseWindowSlot (outstanding unchanged).
        await withCheckedContinuation { windowWaiters.append((id, $0)) }
    }

    private func releaseWindowSlot() {
        if !windowWaiters.isEmpty, !isShutDown {
            windowWaiters.removeFirst().continuation.resume()
        } else {
            outstanding -= 1
        }
    }

    /// Waits for the rate limit and for a throttling pause.
    private func pace() async {
        let now = ContinuousClock.now
        var at = max(now, pausedUntil)
        if let rate = configuration.maximumSubmitRate {
            at = max(at, nextSendAt)
            nextSendAt = at + .nanoseconds(Int64(1_000_000_000 / rate))
        }
        if at > now { try? await Task.sleep(until: at, clock: .continuous) }
    }

    // MARK: Requests and responses

    private func nextSequenceNumber() -> UInt32 {
        sequence = sequence >= 0x7FFF_FFFF ? 1 : sequence + 1
        return sequence
    }

    /// Sends a request on the session of `generation` and waits for its response.
    ///
    /// Fails with `notBound` when the request was not written (it may be sent again), and with
    /// `timedOut` or `connectionLost` once it was.
    private func request(_ body: SMPPPDU.Body, generation: Int, timeout: Duration,
                         reference: SMPPPartReference? = nil) async -> Result<SMPPPDU, SMPPError> {
        let encoded: [UInt8]
        do {
            encoded = try SMPPPDU(sequenceNumber: 1, body: body).encoded()
        } catch {
            return .failure(error)
        }
        return await request(encoded: encoded, generation: generation, timeout: timeout, reference: reference)
    }

    /// ``request(_:generation:timeout:reference:)`` with the PDU encoded; its sequence number is
    /// written over octets 12 to 15.
    private func request(encoded: [UInt8], generation: Int, timeout: Duration,
                         reference: SMPPPartReference?) async -> Result<SMPPPDU, SMPPError> {
        guard sessions[generation]?.writer != nil else {
            return .failure(SMPPError(.notBound, "the session closed before the PDU was written; nothing was sent"))
        }
        let sequenceNumber = nextSequenceNumber()
        var buffer = ByteBuffer(bytes: encoded)
        buffer.setInteger(sequenceNumber, at: buffer.readerIndex + 12)
        // Timeouts are kept as deadlines and failed by one sweep per connection (sweepTimeouts),
        // not by a timer task per request.
        pending[sequenceNumber] = Pending(generation: generation, deadline: .now + timeout, timeout: timeout, reference: reference)
        sessions[generation]?.outbox.append((sequenceNumber, buffer))
        startFlushing(generation: generation)
        return await withCheckedContinuation { continuation in
            if let result = pending[sequenceNumber]?.result {
                pending[sequenceNumber] = nil
                continuation.resume(returning: result)
            } else if pending[sequenceNumber] != nil {
                pending[sequenceNumber]?.continuation = continuation
            } else {
                continuation.resume(returning: .failure(SMPPError(.connectionLost, "the request was lost")))
            }
        }
    }

    /// Starts the session's flush task unless it runs: it runs on this actor after the jobs already
    /// queued on the event loop, so the requests those jobs make go out in the same write.
    private func startFlushing(generation: Int) {
        guard let session = sessions[generation], !session.isFlushing else { return }
        sessions[generation]?.isFlushing = true
        Task { await self.flush(generation: generation) }
    }

    /// Writes the session's queued requests, all at once with one flush, until none are queued.
    private func flush(generation: Int) async {
        while let session = sessions[generation], let writer = session.writer, !session.outbox.isEmpty {
            let batch = session.outbox
            sessions[generation]?.outbox.removeAll(keepingCapacity: true)
            largestWriteBatch = max(largestWriteBatch, batch.count)
            do {
                try await writer.write(contentsOf: batch.lazy.map(\.buffer))
            } catch {
                failUnwritten(batch.map(\.sequenceNumber))
            }
        }
        sessions[generation]?.isFlushing = false
    }

    /// Fails requests that were never written: the SMSC cannot have them, so a submit may go again.
    private func failUnwritten(_ sequenceNumbers: [UInt32]) {
        for sequenceNumber in sequenceNumbers where pending[sequenceNumber]?.result == nil {
            complete(sequenceNumber, .failure(SMPPError(.notBound, "the session closed before the PDU was written; nothing was sent")))
        }
    }

    private func complete(_ sequenceNumber: UInt32, _ result: Result<SMPPPDU, SMPPError>) {
        guard var entry = pending[sequenceNumber] else { return }
        if let continuation = entry.continuation {
            pending[sequenceNumber] = nil
            continuation.resume(returning: result)
        } else if entry.result == nil {
            entry.result = result
            pending[sequenceNumber] = entry
        }
        if !answeredWaiters.isEmpty, !pending.values.contains(where: { $0.result == nil }) { wakeAnsweredWaiters() }
    }

    /// Fails the requests of the session `generation` whose response is overdue, every tenth of the
    /// response timeout (at most a second), until the connection closes.
    private func sweepTimeouts(generation: Int) async -> SMPPError {
        let tick = max(.milliseconds(10), min(configuration.responseTimeout / 10, .seconds(1)))
        while true {
            do {
                try await Task.sleep(for: tick)
            } catch {
                return SMPPError(.shutDown, "the SMPP client was shut down")
            }
            guard sessions[generation] != nil else { return SMPPError(.connectionLost, "the session closed") }
            let now = ContinuousClock.now
            for (sequenceNumber, entry) in pending where entry.result == nil && entry.deadline <= now {
                complete(sequenceNumber, .failure(SMPPError(.timedOut,
                    "no response within \(entry.timeout) after the PDU left; not sent again, as the SMSC may have accepted it")))
            }
        }
    }

    /// Fails the requests of a closed session (all of them when `generation` is nil).
    private func failPending(generation: Int?, _ error: SMPPError) {
        for (sequenceNumber, entry) in pending where generation == nil || entry.generation == generation {
            complete(sequenceNumber, .failure(error))
        }
    }

    private func send(_ pdu: SMPPPDU, generation: Int) async {
        guard let writer = sessions[generation]?.writer, let bytes = try? pdu.encoded() else { return }
        try? await writer.write(ByteBuffer(bytes: bytes))
    }

    // MARK: The connection

    private func run() async {
        let pair = configuration.bindType == .pair
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.run(role: self.configuration.bindType == .receiver ? .receiver : .submitter) }
            if pair { group.addTask { await self.run(role: .receiver) } }
        }
    }

    /// Keeps one connection of `role` open: connects, binds, and reconnects with backoff.
    private func run(role: Role) async {
        var failures = 0
        while !isShutDown && !Task.isCancelled {
            let (wasBound, reason) = await runConnection(role: role)
            if isShutDown || Task.isCancelled { break }
            eventSink.yield(.disconnected(reason))
            failures = wasBound ? 1 : failures + 1
            var delay = configuration.reconnectInitialBackoff
            for _ in 1..<max(1, failures) where delay < configuration.reconnectMaximumBackoff { delay *= 2 }
            delay = min(delay, configuration.reconnectMaximumBackoff) * Double.random(in: 0.5...1.0)
            logger.warning("SMPP connection closed; reconnecting", metadata: [
                "smsc": "\(configuration.redactedLocation)", "reason": "\(reason)", "delay": "\(delay)",
            ])
            try? await Task.sleep(for: delay)
        }
    }

    /// One connection: connect, bind, keep alive, read until it closes. Returns whether it was bound.
    private func runConnection(role: Role) async -> (Bool, SMPPError) {
        let configuration = self.configuration
        let asyncChannel: NIOAsyncChannel<SMPPInboundFrame, ByteBuffer>
        let tls: (context: NIOSSLContext, name: String?)?
        if let settings = configuration.tls {
            do throws(SMPPError) {
                if tlsContext == nil { tlsContext = try settings.makeContext() }
            } catch {
                return (false, error)
            }
            tls = tlsContext.map { ($0, settings.expectedName(host: configuration.host)) }
        } else {
            tls = nil
        }
        do {
            asyncChannel = try await ClientBootstrap(group: eventLoop)
                .connectTimeout(.nanoseconds(Int64(configuration.connectTimeout.components.seconds * 1_000_000_000
                    + configuration.connectTimeout.components.attoseconds / 1_000_000_000)))
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .connect(host: configuration.host, port: configuration.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if let tls {
                            try channel.pipeline.syncOperations.addHandler(
                                NIOSSLClientHandler(context: tls.context, serverHostname: tls.name))
                        }
                        try channel.pipeline.syncOperations.addHandler(
                            ByteToMessageHandler(SMPPFrameDecoder(maximumLength: configuration.maximumPDULength)))
                        return try NIOAsyncChannel<SMPPInboundFrame, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            return (false, SMPPError.connection(error, otherwise: .connectionFailed, "no connection to \(configuration.redactedLocation)"))
        }
        lastGeneration += 1
        let generation = lastGeneration
        sessions[generation] = Session(role: role, channel: asyncChannel.channel)
        if isShutDown { try? await asyncChannel.channel.close() }
        var reason = SMPPError(.connectionLost, "the SMSC closed the connection")
        var wasBound = false
        do {
            try await asyncChannel.executeThenClose { inbound, outbound in
                self.attach(outbound, generation: generation)
                await withTaskGroup(of: SMPPError.self) { group in
                    group.addTask { await self.read(inbound, generation: generation) }
                    group.addTask { await self.bindAndKeepAlive(generation: generation, role: role) }
                    group.addTask { await self.sweepTimeouts(generation: generation) }
                    if let first = await group.next() { reason = first }
                    // Before the sweep stops: what still waits for an answer on this connection
                    // (the bind, an enquire_link, submits) fails now, or it would wait for ever.
                    wasBound = self.detach(generation: generation, reason)
                    group.cancelAll()
                }
            }
        } catch {
            reason = SMPPError.connection(error, otherwise: .connectionLost, "the connection failed")
        }
        try? await asyncChannel.channel.close()
        if detach(generation: generation, reason) { wasBound = true }
        return (wasBound, reason)
    }

    /// Reads the connection's PDUs until it closes. The loop runs on this actor, which runs on the
    /// connection's event loop, so a PDU goes from the channel to its handling without a thread hop.
    private func read(_ inbound: NIOAsyncChannelInboundStream<SMPPInboundFrame>, generation: Int) async -> SMPPError {
        do {
            for try await frame in inbound { await handle(frame, generation: generation) }
        } catch {
            // A TLS handshake that fails (an untrusted certificate, another name) ends here.
            return SMPPError.connection(error, otherwise: .connectionLost, "the connection to \(configuration.redactedLocation) failed")
        }
        return SMPPError(.connectionLost, "the SMSC closed the connection")
    }

    private func attach(_ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>, generation: Int) {
        sessions[generation]?.writer = outbound
    }

    /// Forgets a closed connection and fails what waits on it; returns whether it had been bound.
    @discardableResult
    private func detach(generation: Int, _ reason: SMPPError) -> Bool {
        guard let session = sessions.removeValue(forKey: generation) else { return false }
        if boundGeneration == generation { boundGeneration = nil }
        failUnwritten(session.outbox.map(\.sequenceNumber))
        failPending(generation: generation, SMPPError(.connectionLost,
            "the connection dropped after the PDU left (\(reason.message)); not sent again, as the SMSC may have accepted it"))
        return session.wasBound
    }

    /// Binds, then sends `enquire_link` every interval; returns why the connection must close.
    private func bindAndKeepAlive(generation: Int, role: Role) async -> SMPPError {
        let bind = SMPPBind(systemID: configuration.systemID, password: configuration.password,
                            systemType: configuration.systemType)
        let body: SMPPPDU.Body = switch (role, configuration.bindType) {
        case (.receiver, _): .bindReceiver(bind)
        case (.submitter, .transceiver): .bindTransceiver(bind)
        case (.submitter, .transmitter), (.submitter, .pair), (.submitter, .receiver): .bindTransmitter(bind)
        }
        switch await request(body, generation: generation, timeout: configuration.responseTimeout) {
        case .failure(let error):
            await close(generation: generation)
            return SMPPError(.bindFailed, "bind failed: \(error.message)")
        case .success(let response):
            let systemID: String
            switch response.body {
            case .bindTransceiverResp(let id, _), .bindTransmitterResp(let id, _), .bindReceiverResp(let id, _):
                systemID = id
            default:
                await close(generation: generation)
                return SMPPError(.bindFailed, "the SMSC answered the bind with \(response.commandID)")
            }
            guard response.commandStatus == .ok else {
                await close(generation: generation)
                let error = SMPPError(.bindFailed, "the SMSC refused the bind with \(response.commandStatus); check system_id and password",
                                      commandStatus: response.commandStatus)
                logger.error("SMPP bind refused", metadata: ["smsc": "\(configuration.redactedLocation)", "status": "\(response.commandStatus)"])
                return error
            }
            guard sessions[generation] != nil else { return SMPPError(.connectionLost, "the session closed") }
            sessions[generation]?.isBound = true
            sessions[generation]?.wasBound = true
            if role == .submitter {
                boundGeneration = generation
                wakeBoundWaiters()
            }
            eventSink.yield(.bound(systemID: systemID))
            logger.info("SMPP bound", metadata: ["smsc": "\(configuration.redactedLocation)", "system_id": "\(systemID)",
                                                 "bind": "\(SMPPPDU(sequenceNumber: 0, body: body).commandID)"])
        }
        while true {
            do {
                try await Task.sleep(for: configuration.enquireLinkInterval)
            } catch {
                return SMPPError(.shutDown, "the SMPP client was shut down")
            }
            guard sessions[generation] != nil else {
                return SMPPError(.shutDown, "the SMPP client was shut down")
            }
            // While the shutdown waits for answers the session stays open; the shutdown closes it.
            if isShutDown { continue }
            if case .failure(let error) = await request(.enquireLink, generation: generation, timeout: configuration.responseTimeout) {
                await close(generation: generation)
                return SMPPError(error.code == .timedOut ? .timedOut : .connectionLost,
                                 "enquire_link was not answered: \(error.message)")
            }
        }
    }

    private func close(generation: Int) async {
        guard let channel = sessions[generation]?.channel else { return }
        try? await channel.close()
    }

    private func handle(_ frame: SMPPInboundFrame, generation: Int) async {
        guard sessions[generation] != nil else { return }
        switch frame {
        case .pdu(let pdu):
            if pdu.commandID.isResponse {
                if let entry = pending[pdu.sequenceNumber] {
                    if case .submitSMResp(let messageID) = pdu.body, pdu.commandStatus == .ok, let reference = entry.reference {
                        messageIDs.insert(messageID, value: reference)
                        releaseHeldReceipts()
                    }
                    complete(pdu.sequenceNumber, .success(pdu))
                } else if pdu.commandID == .genericNack {
                    eventSink.yield(.protocolError(SMPPError(.genericNack,
                        "the SMSC sent generic_nack \(pdu.commandStatus) for sequence \(pdu.sequenceNumber)", commandStatus: pdu.commandStatus)))
                } else {
                    logger.debug("SMPP response to no request", metadata: ["command": "\(pdu.commandID)", "sequence": "\(pdu.sequenceNumber)"])
                }
                return
            }
            switch pdu.body {
            case .enquireLink:
                await send(SMPPPDU(sequenceNumber: pdu.sequenceNumber, body: .enquireLinkResp), generation: generation)
            case .unbind:
                // The SMSC ends the session: nothing new is written on it (submits wait for the
                // next session), the answer is unbind_resp, and the connection closes; the client
                // binds again after the backoff. Requests in flight fail as on any drop.
                if boundGeneration == generation { boundGeneration = nil }
                sessions[generation]?.isBound = false
                logger.info("SMPP session unbound by the SMSC", metadata: ["smsc": "\(configuration.redactedLocation)"])
                await send(SMPPPDU(sequenceNumber: pdu.sequenceNumber, body: .unbindResp), generation: generation)
                await close(generation: generation)
            case .deliverSM(let message):
                let status = deliver(message)
                await send(SMPPPDU(commandStatus: status, sequenceNumber: pdu.sequenceNumber, body: .deliverSMResp(messageID: "")),
                           generation: generation)
            default:
                await send(SMPPPDU(commandStatus: .invalidCommandID, sequenceNumber: pdu.sequenceNumber, body: .genericNack),
                           generation: generation)
            }
        case .undecodable(let commandID, let sequenceNumber, let error):
            eventSink.yield(.protocolError(error))
            logger.warning("SMPP PDU not readable", metadata: [
                "command": "\(commandID)", "error": "\(PhoneVerifier.redactingNumbers(in: error.message))",
            ])
            if commandID.isResponse {
                // A response we cannot read: the SMSC answered, but whether it accepted is unknown.
                if pending[sequenceNumber] != nil {
                    complete(sequenceNumber, .failure(SMPPError(.malformedPDU,
                        "the SMSC's \(commandID) cannot be read (\(error.message)); not sent again, as it may have accepted it")))
                }
                return
            }
            let status: SMPPCommandStatus = error.code == .unknownCommand ? .invalidCommandID : .invalidCommandLength
            await send(SMPPPDU(commandStatus: status, sequenceNumber: sequenceNumber, body: .genericNack), generation: generation)
        }
    }

    /// Handles a `deliver_sm`: a receipt or an incoming message part; returns the status to answer.
    private func deliver(_ message: SMPPShortMessage) -> SMPPCommandStatus {
        do {
            if let receipt = try SMPPDeliveryReceipt(message) {
                if let part = messageIDs.value(forReceiptID: receipt.messageID) {
                    eventSink.yield(.receipt(receipt, part: part))
                } else {
                    hold(receipt)
                }
                return .ok
            }
            let part = try SMPPIncomingPart(message, gsmPacking: configuration.gsmPacking)
            if let whole = reassembler.add(part, at: .now) { eventSink.yield(.message(whole)) }
            return .ok
        } catch {
            eventSink.yield(.protocolError(error))
            // ESME_RX_P_APPN: a permanent error, so that the SMSC does not send it again.
            return SMPPCommandStatus(rawValue: 0x65)
        }
    }

    /// Keeps a receipt whose message ID is unknown until its submit_sm_resp comes, or the response
    /// timeout passes (then it is reported without a part).
    private func hold(_ receipt: SMPPDeliveryReceipt) {
        if heldReceipts.count >= 1024, let oldest = heldReceipts.keys.min() {
            eventSink.yield(.receipt(heldReceipts.removeValue(forKey: oldest)!, part: nil))
        }
        let id = nextHeldReceiptID
        nextHeldReceiptID += 1
        heldReceipts[id] = receipt
        let wait = configuration.responseTimeout
        Task { [weak self] in
            try? await Task.sleep(for: wait)
            await self?.releaseHeldReceipt(id)
        }
    }

    private func releaseHeldReceipt(_ id: Int) {
        if let receipt = heldReceipts.removeValue(forKey: id) { eventSink.yield(.receipt(receipt, part: nil)) }
    }

    /// Reports the held receipts whose message ID is now known.
    private func releaseHeldReceipts() {
        guard !heldReceipts.isEmpty else { return }
        for (id, receipt) in heldReceipts.sorted(by: { $0.key < $1.key }) {
            if let part = messageIDs.value(forReceiptID: receipt.messageID) {
                heldReceipts[id] = nil
                eventSink.yield(.receipt(receipt, part: part))
            }
        }
    }
}

/// Runs task jobs on an event loop (swift-nio's loops are serial executors, not task executors).
final class SMPPEventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(eventLoop: any EventLoop) { self.eventLoop = eventLoop }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
