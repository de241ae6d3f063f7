import Dispatch
import Synchronization

/// Batches of records worked on in parallel and handed back in the order they were submitted.
///
/// The one loop behind every batch of the package: `checkBatch`, `validate`, `segments --lines`
/// and the service's check stream. A producer submits batches; each batch is cut into slices that
/// run on the global dispatch queue (on all cores); a consumer takes the batches back, oldest
/// first, once all their slices are done. At most ``window`` batches are submitted and not yet
/// taken, so memory is bounded by the window whatever the input size, and a consumer that stops
/// taking stops the producer.
///
/// A batch is the caller's own value, usually a class that holds its records and a result slot per
/// slice: the loop does not copy records or results, and a slice writes only its own slot.
/// Per-record failures belong in those results (see ``map(_:concurrency:_:)``): the loop never
/// drops a batch it accepted, even after ``cancel()``.
///
/// The producer and the consumer may be one thread (``submit(_:slices:work:whenFull:)`` takes the
/// oldest batch itself when the window is full) or two tasks (``submit(_:slices:work:)`` suspends
/// until the consumer, in ``next()``, makes room).
///
/// ```swift
/// let loop = OrderedBatchLoop<Chunk>(window: 2)
/// for chunk in chunks {
///     loop.submit(chunk, slices: 8, work: { chunk, slice in chunk.run(slice) }, whenFull: write)
/// }
/// while let chunk = loop.next() { write(chunk) }
/// ```
public final class OrderedBatchLoop<Batch: Sendable>: Sendable {
    /// The most batches submitted and not yet taken.
    public let window: Int
    private let state: Mutex<State>

    private struct State: ~Copyable {
        /// Submitted and not yet taken, oldest first.
        var jobs: [_BatchJob<Batch>] = []
        var finished = false
        var cancelled = false
        /// A producer suspended until there is room.
        var producer: CheckedContinuation<Void, any Error>?
        /// A consumer suspended until a batch is submitted or the loop finishes.
        var consumer: CheckedContinuation<_BatchJob<Batch>?, Never>?
    }

    /// - Parameter window: The most batches in flight (submitted, not yet taken); at least 1.
    public init(window: Int) {
        precondition(window >= 1, "a batch loop needs room for one batch")
        self.window = window
        state = Mutex(State())
    }

    /// The number of slices worth cutting `count` records into: one per `minimumPerSlice`
    /// records, at most four per core (more slices than cores, so that a slow slice does not
    /// leave a core idle).
    public static func slices(for count: Int, minimumPerSlice: Int) -> Int {
        max(1, min(activeProcessorCount * 4, count / max(1, minimumPerSlice)))
    }

    /// The number of processors this process may use.
    public static var activeProcessorCount: Int {
        #if canImport(Glibc) || canImport(Darwin)
        return max(1, min(64, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
        #else
        return 4
        #endif
    }

    /// Whether ``window`` batches are in flight.
    public var isFull: Bool { state.withLock { $0.jobs.count >= window } }

    /// Whether no batch is in flight.
    public var isEmpty: Bool { state.withLock { $0.jobs.isEmpty } }

    /// Submits a batch from the thread that also takes the batches back: when the window is full,
    /// the oldest batch is waited for and given to `whenFull` first.
    ///
    /// - Parameters:
    ///   - batch: The records and their result slots.
    ///   - slices: How many calls of `work` the batch is cut into (slice 0 to `slices - 1`).
    ///     With one slice, the work runs on this thread, after the batches in flight are taken:
    ///     no hand-off for small inputs.
    ///   - work: One slice's work; calls for one batch run concurrently.
    ///   - whenFull: Receives the batches taken to make room, oldest first.
    /// - Throws: What `whenFull` throws, or ``CancellationError`` after ``cancel()``.
    public func submit(
        _ batch: Batch, slices: Int, work: @escaping @Sendable (Batch, Int) -> Void,
        whenFull: (Batch) throws -> Void
    ) throws {
        if slices <= 1 {
            while let oldest = next() { try whenFull(oldest) }
        } else {
            while isFull, let oldest = next() { try whenFull(oldest) }
        }
        let job = _BatchJob(batch, slices: max(1, slices))
        let accepted: Bool = state.withLock { state in
            guard !state.cancelled, !state.finished else { return false }
            state.jobs.append(job)
            return true
        }
        guard accepted else { throw CancellationError() }
        job.start(work, inline: slices <= 1)
    }

    /// Submits a batch, suspending while ``window`` batches are in flight (until a consumer takes
    /// one in ``next()``).
    ///
    /// - Throws: ``CancellationError`` after ``cancel()``, ``finish()`` or when the task is
    ///   cancelled while waiting for room.
    public func submit(_ batch: Batch, slices: Int, work: @escaping @Sendable (Batch, Int) -> Void) async throws {
        let job = _BatchJob(batch, slices: max(1, slices))
        while true {
            try Task.checkCancellation()
            let step: _SubmitStep<Batch> = state.withLock { state in
                if state.cancelled || state.finished { return .refused }
                guard state.jobs.count < window else { return .wait }
                state.jobs.append(job)
                defer { state.consumer = nil }
                return .accepted(state.consumer)
            }
            switch step {
            case .refused:
                throw CancellationError()
            case .accepted(let consumer):
                job.start(work, inline: false)
                consumer?.resume(returning: job)
                return
            case .wait:
                try await withTaskCancellationHandler {
                    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                        let ready: Bool = state.withLock { state in
                            if state.cancelled || state.jobs.count < window { return true }
                            state.producer = continuation
                            return false
                        }
                        if ready { continuation.resume() }
                    }
                } onCancel: {
                    cancel()
                }
            }
        }
    }

    /// Takes the oldest batch in flight once all its slices are done, waiting on this thread;
    /// `nil` when none is in flight.
    public func next() -> Batch? {
        guard let job = state.withLock({ $0.jobs.first }) else { return nil }
        let batch = job.wait()
        take(job)
        return batch
    }

    /// Takes the oldest batch once all its slices are done, suspending until one is submitted;
    /// `nil` once the loop is finished (or cancelled) and every batch submitted was taken.
    public func next() async -> Batch? {
        let job: _BatchJob<Batch>? = await withCheckedContinuation { continuation in
            let step: _NextStep<Batch> = state.withLock { state in
                if let first = state.jobs.first { return .job(first) }
                if state.finished || state.cancelled { return .end }
                state.consumer = continuation
                return .wait
            }
            switch step {
            case .job(let job): continuation.resume(returning: job)
            case .end: continuation.resume(returning: nil)
            case .wait: break
            }
        }
        guard let job else { return nil }
        let batch = await job.value()
        take(job)
        return batch
    }

    /// Says that no more batches will be submitted: ``next()`` returns `nil` once the batches in
    /// flight are taken.
    public func finish() {
        let consumer = state.withLock { state in
            state.finished = true
            defer { state.consumer = nil }
            return state.jobs.isEmpty ? state.consumer : nil
        }
        consumer?.resume(returning: nil)
    }

    /// Refuses further batches (``submit(_:slices:work:)`` throws ``CancellationError``) and wakes
    /// a producer waiting for room. The batches already accepted still run and are still handed
    /// back by ``next()``: no record that was read is lost.
    public func cancel() {
        let (producer, consumer) = state.withLock { state in
            state.cancelled = true
            defer { state.producer = nil; state.consumer = nil }
            return (state.producer, state.jobs.isEmpty ? state.consumer : nil)
        }
        producer?.resume(throwing: CancellationError())
        consumer?.resume(returning: nil)
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Removes the oldest job (`job`) and wakes a producer waiting for room.
    private func take(_ job: _BatchJob<Batch>) {
        let producer = state.withLock { state in
            precondition(state.jobs.first === job, "batches are taken oldest first")
            state.jobs.removeFirst()
            defer { state.producer = nil }
            return state.producer
        }
        producer?.resume()
    }
}

/// What a producer does next: go on (waking a waiting consumer), stop, or wait for room.
enum _SubmitStep<Batch: Sendable> {
    case accepted(CheckedContinuation<_BatchJob<Batch>?, Never>?)
    case refused
    case wait
}

/// What a consumer does next: wait for the oldest job, end, or wait for a submission.
enum _NextStep<Batch: Sendable> {
    case job(_BatchJob<Batch>)
    case end
    case wait
}

/// One submitted batch: its slices still running, and whoever waits for them.
final class _BatchJob<Batch: Sendable>: Sendable {
    let batch: Batch
    let slices: Int
    private let state: Mutex<(pending: Int, waiter: CheckedContinuation<Void, Never>?)>
    /// Signalled once all slices are done, for waits on a thread.
    private let done = DispatchSemaphore(value: 0)

    init(_ batch: Batch, slices: Int) {
        self.batch = batch
        self.slices = slices
        state = Mutex((slices, nil))
    }

    func start(_ work: @escaping @Sendable (Batch, Int) -> Void, inline: Bool) {
        if inline {
            for slice in 0..<slices {
                work(batch, slice)
                sliceDone()
            }
            return
        }
        for slice in 0..<slices {
            DispatchQueue.global().async { [self] in
                work(batch, slice)
                sliceDone()
            }
        }
    }

    private func sliceDone() {
        let (last, waiter) = state.withLock { state in
            state.pending -= 1
            defer { if state.pending == 0 { state.waiter = nil } }
            return (state.pending == 0, state.waiter)
        }
        guard last else { return }
        done.signal()
        waiter?.resume()
    }

    /// Waits on this thread until all slices are done (taken once: the loop takes each job once).
    func wait() -> Batch {
        done.wait()
        return batch
    }

    /// Suspends until all slices are done.
    func value() async -> Batch {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let finished: Bool = state.withLock { state in
                if state.pending == 0 { return true }
                state.waiter = continuation
                return false
            }
            if finished { continuation.resume() }
        }
        return batch
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
