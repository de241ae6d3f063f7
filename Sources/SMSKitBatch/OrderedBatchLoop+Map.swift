extension OrderedBatchLoop {
    /// Transforms every input on all cores: one result per input, in input order.
    ///
    /// ```swift
    /// let lengths = OrderedBatchLoop<Never>.map(lines) { $0.utf8.count }
    /// ```
    /// - Parameters:
    ///   - inputs: The records.
    ///   - concurrency: The most slices run at once; by default four per active processor.
    ///   - transform: The per-record work; called concurrently for different records.
    /// - Returns: `transform`'s result for each input, at its index.
    /// - Complexity: O(n) calls of `transform`, split into contiguous slices.
    @inlinable
    public static func map<Input: Sendable, Result>(
        _ inputs: [Input], concurrency: Int? = nil, _ transform: @escaping @Sendable (Input) -> Result
    ) -> [Result] {
        let count = inputs.count
        let slices = max(1, min(concurrency ?? activeProcessorCount * 4, count / 256 + 1))
        return [Result](unsafeUninitializedCapacity: count) { buffer, initialized in
            let out = _SendablePointer(base: buffer.baseAddress)
            // `transform` escapes: the workers may still hold it for a moment after the last
            // slice says it is done (withoutActuallyEscaping would trap on that).
            let loop = OrderedBatchLoop<_SendablePointer<Result>>(window: 1)
            inputs.withUnsafeBufferPointer { inputs in
                let source = _SendablePointer(base: UnsafeMutablePointer(mutating: inputs.baseAddress))
                let work: @Sendable (_SendablePointer<Result>, Int) -> Void = { out, slice in
                    let lower = count * slice / slices
                    let upper = count * (slice + 1) / slices
                    for index in lower..<upper {
                        (out.base! + index).initialize(to: transform(source.base![index]))
                    }
                }
                // Nothing to throw: the only throwing path is cancellation, never called here.
                try? loop.submit(out, slices: slices, work: work, whenFull: { _ in })
                _ = loop.next()
            }
            initialized = count
        }
    }

    /// Transforms every input on all cores, keeping each record's failure as its result: one
    /// result per input, in input order, none dropped.
    ///
    /// - Returns: `transform`'s value or error for each input, at its index.
    @inlinable
    public static func map<Input: Sendable, Value, Failure: Error>(
        _ inputs: [Input], concurrency: Int? = nil, _ transform: @escaping @Sendable (Input) throws(Failure) -> Value
    ) -> [Swift.Result<Value, Failure>] {
        map(inputs, concurrency: concurrency) { input in Swift.Result { () throws(Failure) in try transform(input) } }
    }
}

/// Disjoint writes from the slices into one buffer the caller owns until the loop hands it back.
@usableFromInline
struct _SendablePointer<Pointee>: @unchecked Sendable {
    @usableFromInline let base: UnsafeMutablePointer<Pointee>?
    @inlinable init(base: UnsafeMutablePointer<Pointee>?) { self.base = base }
}
