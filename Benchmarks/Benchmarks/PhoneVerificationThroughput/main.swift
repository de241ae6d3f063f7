// Start+check pairs per second with the in-memory, SQLite and PostgreSQL stores, beside the raw
// speed of the same databases on the same machine, and start latency without I/O.
//
//   swift run -c release PhoneVerificationThroughput [seconds-per-measure]
//   SMSKIT_BENCH_POSTGRES_URL=postgres://... adds the PostgreSQL rows (see Benchmarks/verify-benchmark.sh,
//   which also runs pgbench -N for the database's own simple-update TPS).
//
// The send guard keeps its defaults; numbers cycle through 10,000 US numbers in ~800 ranges and the injected clock moves 250 ms per pair, so no per-number window
// fills. The sender does nothing (no I/O): the figures are the verifier and its store.
import Foundation
import GRDB
import PhoneNumbers
import PhoneVerification
import PhoneVerificationPostgres
import PhoneVerificationSQLite
import PostgresNIO
import Synchronization

struct NullSender: SMSSender {
    func send(_ sms: OutgoingSMS) async throws {}
}

/// A store that does nothing: what is left of a start is parse, guard, code, digest, render, analysis.
struct NoopStore: VerificationStore {
    func start(_ request: StartRequest) async throws -> StartOutcome { .created }
    func replaceCode(id: String, digest: [UInt8], sealedCode: [UInt8]?, keyID: String, now: Date) async throws -> Bool {
        true
    }
    func check(_ request: CheckRequest) async throws -> CheckOutcome { .notFound }
    func close(id: String) async throws {}
    func removeExpired(now: Date, retention: Duration) async throws -> Int { 0 }
}

/// Keeps the last code so the check can use it.
final class CodeTap: SMSSender {
    let last = Mutex<String>("")
    func send(_ sms: OutgoingSMS) async throws {
        let digits = sms.text.unicodeScalars.filter { $0.isASCII && ("0"..."9").contains($0) }
        last.withLock { $0 = String(String.UnicodeScalarView(digits)) }
    }
}

final class Count: Sendable {
    let value = Mutex(0)
}

let seconds = Double(CommandLine.arguments.dropFirst().first ?? "") ?? 3
/// Only the phases whose name holds this word (`latency`, `memory`, `sqlite`, `postgres`), e.g. for `perf record`.
let only = CommandLine.arguments.dropFirst(2).first?.lowercased()
func runs(_ phase: String) -> Bool { only.map(phase.contains) ?? true }
let secret = try VerificationSecret(Array("benchmark-secret-0123456789abcdef0123456789abcdef".utf8))
// 10,000 valid New York numbers spread over ~800 exchanges (ranges), so that starts without checks
// (the latency measure) stay under the range velocity threshold as the defaults set it.
let numbers: [String] = {
    let engine = PhoneNumberEngine()
    var result: [String] = []
    var index = 0
    while result.count < 10_000 {
        let text = "+1212" + String(200 + index % 800) + String(format: "%04d", 1000 + index / 800)
        index += 1
        guard let number = try? engine.parse(e164: text), engine.isValid(number),
              engine.fictionalRange(of: number) == nil else { continue }
        result.append(text)
    }
    return result
}()

func report(_ name: String, _ count: Int, _ elapsed: Double, unit: String = "pairs/s") {
    let rate = Double(count) / elapsed
    print(name.padding(toLength: 48, withPad: " ", startingAt: 0)
          + String(format: " %10.0f %@  (%d in %.2f s)", rate, unit as NSString, count, elapsed))
}

/// Sequential start+check pairs for `seconds`, on `tasks` concurrent tasks.
func pairs(_ name: String, store: any VerificationStore, tasks: Int = 1) async throws {
    let clock = ManualClock()
    let counter = Count()
    let start = Date()
    try await withThrowingTaskGroup(of: Void.self) { group in
        for task in 0..<tasks {
            group.addTask {
                let tap = CodeTap()
                let verifier = try PhoneVerifier(store: store, sender: tap, secret: secret, clock: clock.clock)
                var index = task
                while Date().timeIntervalSince(start) < seconds {
                    let number = numbers[index % numbers.count]
                    index += tasks
                    clock.advance(by: .milliseconds(250))
                    let started = try await verifier.start(phoneNumber: number)
                    let result = try await verifier.check(id: started.id, code: tap.last.withLock { $0 })
                    precondition(result.isApproved, "\(result)")
                    counter.value.withLock { $0 += 1 }
                }
            }
        }
        try await group.waitForAll()
    }
    report(name + (tasks > 1 ? " (\(tasks) tasks)" : ""), counter.value.withLock { $0 }, Date().timeIntervalSince(start))
}

/// Start latency with a sender that does nothing: parse, guard, code, HMAC, render, SMS analysis,
/// and the store's work (none for the no-op store; the lock and dictionaries for the memory store).
/// Each call is timed on its own; the median and the 90th percentile of 50,000 calls are reported.
func startLatency(_ name: String, store: any VerificationStore) async throws {
    let clock = ManualClock()
    let verifier = try PhoneVerifier(store: store, sender: NullSender(), secret: secret, clock: clock.clock)
    for number in numbers.prefix(1000) {  // warm up
        clock.advance(by: .milliseconds(250))
        _ = try await verifier.start(phoneNumber: number)
    }
    var samples: [UInt64] = []
    samples.reserveCapacity(numbers.count * 5)
    for _ in 0..<5 {
        clock.advance(by: .seconds(3600))
        for number in numbers {
            clock.advance(by: .milliseconds(250))
            let begin = DispatchTime.now().uptimeNanoseconds
            _ = try await verifier.start(phoneNumber: number)
            samples.append(DispatchTime.now().uptimeNanoseconds - begin)
        }
    }
    samples.sort()
    let median = Double(samples[samples.count / 2]) / 1000
    let p90 = Double(samples[samples.count * 9 / 10]) / 1000
    print(("start latency, " + name + ", no I/O").padding(toLength: 48, withPad: " ", startingAt: 0)
          + String(format: " %10.2f µs  (median of %d calls; p90 %.2f µs)", median, samples.count, p90))
}

/// SQLite's own speed here: one-row INSERT transactions through GRDB, same file settings (WAL).
func sqliteInserts(path: String, synchronous: String) throws {
    var configuration = Configuration()
    configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = \(synchronous)") }
    let pool = try DatabasePool(path: path, configuration: configuration)
    try pool.write { try $0.execute(sql: "CREATE TABLE t (k TEXT PRIMARY KEY, v BLOB)") }
    var count = 0
    let start = Date()
    while Date().timeIntervalSince(start) < seconds {
        try pool.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: ["k\(count)", Data(count: 32)])
                return .commit
            }
        }
        count += 1
    }
    report("sqlite raw: 1-row INSERT tx, synchronous=\(synchronous)", count, Date().timeIntervalSince(start),
           unit: "tx/s   ")
}

if runs("latency") {
    try await startLatency("no-op store", store: NoopStore())
    try await startLatency("memory store", store: InMemoryVerificationStore(capacity: 1_000_000))
}
if runs("memory") {
    try await pairs("memory store", store: InMemoryVerificationStore(capacity: 1_000_000))
    try await pairs("memory store", store: InMemoryVerificationStore(capacity: 1_000_000), tasks: 4)
}

let directory = NSTemporaryDirectory() + "smskit-verify-bench-\(getpid())"
try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: directory) }
for (synchronous, durability) in [("NORMAL", SQLiteVerificationStore.Durability.normal), ("FULL", .full)]
    where runs("sqlite") {
    try sqliteInserts(path: directory + "/raw-\(synchronous).sqlite", synchronous: synchronous)
    try await pairs("SQLite store, synchronous=\(synchronous)",
                    store: SQLiteVerificationStore(path: directory + "/verify-\(synchronous).sqlite", durability: durability))
}

if !runs("postgres") {
} else if let url = ProcessInfo.processInfo.environment["SMSKIT_BENCH_POSTGRES_URL"], !url.isEmpty {
    let client = PostgresClient(configuration: try PostgresVerificationStore.configuration(url: url))
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { await client.run() }
        let store = PostgresVerificationStore(client: client, tablePrefix: "bench")
        try await store.dropSchema()
        try await store.createSchema()
        try await pairs("PostgreSQL store", store: store)
        try await pairs("PostgreSQL store", store: store, tasks: 8)
        try await store.dropSchema()
        group.cancelAll()
    }
} else {
    print("PostgreSQL: skipped (set SMSKIT_BENCH_POSTGRES_URL, or run Benchmarks/verify-benchmark.sh)")
}
