import Foundation
import SMSKitBatch
import Synchronization
import Testing

/// A batch of the tests: its records and one result slot per slice.
private final class TestBatch: @unchecked Sendable {
    let sequence: Int
    let records: [Int]
    let slices: Int
    /// Written by slice `i` only, read once the loop hands the batch back.
    var results: [[Int]]
    let delays: [UInt32]

    init(sequence: Int, records: [Int], slices: Int, delays: [UInt32] = []) {
        self.sequence = sequence
        self.records = records
        self.slices = slices
        self.results = Array(repeating: [], count: slices)
        self.delays = delays
    }

    static let work: @Sendable (TestBatch, Int) -> Void = { batch, slice in
        if slice < batch.delays.count { usleep(batch.delays[slice]) }
        let lower = batch.records.count * slice / batch.slices
        let upper = batch.records.count * (slice + 1) / batch.slices
        let out = batch.records[lower..<upper].map { $0 * 2 }
        batch.results.withUnsafeMutableBufferPointer { $0[slice] = out }
    }

    var output: [Int] { results.flatMap { $0 } }
}

/// Counts the batches started (at their first slice) and not yet taken, and the most seen at
/// once; the consumer counts each one down as it takes it.
private final class StartCounter: Sendable {
    let started = Atomic<Int>(0)
    let most = Atomic<Int>(0)

    /// ``TestBatch/work`` that counts.
    var work: @Sendable (TestBatch, Int) -> Void {
        { [self] batch, slice in
            if slice == 0 {
                most.max(started.add(1, ordering: .sequentiallyConsistent).newValue, ordering: .sequentiallyConsistent)
            }
            TestBatch.work(batch, slice)
        }
    }

    func taken() { started.subtract(1, ordering: .sequentiallyConsistent) }
    var mostSeen: Int { most.load(ordering: .sequentiallyConsistent) }
}

/// Runs `body` on a thread of its own: the loop's synchronous waits must not block a thread of
/// the cooperative pool that runs the tests.
private func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.start()
    }
}

@Suite("OrderedBatchLoop")
struct OrderedBatchLoopTests {
    @Test("batches come back in submission order whatever each slice's delay")
    func orderUnderRandomDelays() async throws {
        let taken = try await onThread { () throws -> [Int] in
            var generator = SystemRandomNumberGenerator()
            let loop = OrderedBatchLoop<TestBatch>(window: 3)
            var output: [Int] = []
            for sequence in 0..<40 {
                let records = Array(sequence * 100..<(sequence + 1) * 100)
                let slices = Int.random(in: 2...6, using: &generator)
                let delays = (0..<slices).map { _ in UInt32.random(in: 0...3_000, using: &generator) }
                let batch = TestBatch(sequence: sequence, records: records, slices: slices, delays: delays)
                try loop.submit(batch, slices: slices, work: TestBatch.work) { output += $0.output }
            }
            while let batch = loop.next() { output += batch.output }
            return output
        }
        #expect(taken == (0..<4_000).map { $0 * 2 })
    }

    @Test("a producer and a consumer task: order kept, at most `window` batches in flight")
    func boundedInFlight() async throws {
        let window = 2
        let loop = OrderedBatchLoop<TestBatch>(window: window)
        let counter = StartCounter()
        let work = counter.work
        let producer = Task {
            for sequence in 0..<30 {
                try await loop.submit(TestBatch(sequence: sequence, records: [sequence], slices: 2, delays: [500, 0]),
                                      slices: 2, work: work)
            }
            loop.finish()
        }
        var sequences: [Int] = []
        while let batch = await loop.next() {
            counter.taken()
            sequences.append(batch.sequence)
            // A slow consumer: the producer must wait for room instead of running ahead.
            try await Task.sleep(for: .milliseconds(2))
        }
        try await producer.value
        #expect(sequences == Array(0..<30))
        // One more than the window at most: the producer may start the next batch as soon as
        // the loop hands one back, before this task counts it as taken.
        #expect(counter.mostSeen <= window + 1)
        #expect(counter.mostSeen >= 1)
    }

    @Test("the synchronous producer never has more than `window` batches started and not taken")
    func boundedInFlightSynchronous() async throws {
        let counter = StartCounter()
        let work = counter.work
        let taken = try await onThread { () throws -> [Int] in
            let loop = OrderedBatchLoop<TestBatch>(window: 2)
            var taken: [Int] = []
            let take: (TestBatch) -> Void = {
                counter.taken()
                taken.append($0.sequence)
            }
            for sequence in 0..<20 {
                try loop.submit(TestBatch(sequence: sequence, records: [1, 2, 3, 4], slices: 2, delays: [300, 100]),
                                slices: 2, work: work, whenFull: take)
            }
            while let batch = loop.next() { take(batch) }
            return taken
        }
        #expect(taken == Array(0..<20))
        #expect(counter.mostSeen <= 2)
    }

    @Test("cancel: the waiting producer stops, every accepted batch is still handed back")
    func cancellation() async throws {
        let loop = OrderedBatchLoop<TestBatch>(window: 2)
        let accepted = Atomic<Int>(0)
        let producer = Task {
            var sequence = 0
            while true {
                try await loop.submit(TestBatch(sequence: sequence, records: [sequence], slices: 2), slices: 2, work: TestBatch.work)
                accepted.add(1, ordering: .sequentiallyConsistent)
                sequence += 1
            }
        }
        // The producer fills the window, then waits for room that never comes.
        while accepted.load(ordering: .sequentiallyConsistent) < 2 { try await Task.sleep(for: .milliseconds(5)) }
        loop.cancel()
        await #expect(throws: CancellationError.self) { try await producer.value }
        var sequences: [Int] = []
        while let batch = await loop.next() { sequences.append(batch.sequence) }
        #expect(sequences == Array(0..<accepted.load(ordering: .sequentiallyConsistent)))
        await #expect(throws: CancellationError.self) {
            try await loop.submit(TestBatch(sequence: 99, records: [], slices: 1), slices: 1, work: TestBatch.work)
        }
    }

    @Test("cancelling the producer's task ends its wait for room")
    func taskCancellation() async throws {
        let loop = OrderedBatchLoop<TestBatch>(window: 1)
        let producer = Task {
            for sequence in 0..<3 {
                try await loop.submit(TestBatch(sequence: sequence, records: [sequence], slices: 2), slices: 2, work: TestBatch.work)
            }
        }
        while loop.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        producer.cancel()
        await #expect(throws: CancellationError.self) { try await producer.value }
        #expect(await loop.next()?.sequence == 0)
        #expect(await loop.next() == nil)
    }

    @Test("per-record errors are results at their index; no record is dropped")
    func perRecordErrors() {
        struct Odd: Error, Equatable { let value: Int }
        let results = OrderedBatchLoop<Never>.map(Array(0..<10_000)) { (value: Int) throws(Odd) -> Int in
            if value % 2 == 1 { throw Odd(value: value) }
            return value * 3
        }
        #expect(results.count == 10_000)
        for (index, result) in results.enumerated() {
            switch result {
            case .success(let value): #expect(index % 2 == 0 && value == index * 3)
            case .failure(let error): #expect(error == Odd(value: index))
            }
        }
    }

    @Test("an empty input: no result, no batch")
    func emptyInput() async throws {
        #expect(OrderedBatchLoop<Never>.map([Int]()) { $0 }.isEmpty)
        let loop = OrderedBatchLoop<TestBatch>(window: 2)
        #expect(try await onThread { loop.next() == nil })
        loop.finish()
        #expect(await loop.next() == nil)
    }

    @Test("one huge record between small ones comes back whole and in place")
    func hugeRecord() async throws {
        let huge = String(repeating: "+44 20 7946 0000;", count: 1 << 20)
        let inputs = ["a"] + [huge] + Array(repeating: "b", count: 1_000)
        let lengths = OrderedBatchLoop<Never>.map(inputs) { $0.utf8.count }
        #expect(lengths == inputs.map { $0.utf8.count })
        // As a batch of its own, with more slices than records.
        let output = try await onThread { () throws -> [Int] in
            let loop = OrderedBatchLoop<TestBatch>(window: 2)
            var output: [Int] = []
            for (sequence, records) in [[1], Array(repeating: 7, count: 1 << 20), [2]].enumerated() {
                try loop.submit(TestBatch(sequence: sequence, records: records, slices: 4), slices: 4, work: TestBatch.work) {
                    output.append($0.output.count)
                }
            }
            while let batch = loop.next() { output.append(batch.output.count) }
            return output
        }
        #expect(output == [1, 1 << 20, 1])
    }
}
