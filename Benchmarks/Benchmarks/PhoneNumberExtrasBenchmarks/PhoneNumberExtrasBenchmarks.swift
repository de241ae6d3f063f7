// Time zone, sending-window and carrier lookups (issue 27). One iteration is one number, so the
// reported time and allocations are per number. Inputs: the numbers of Benchmarks/corpus/e164-10k.txt
// that parse, parsed before the measured section; each loop walks the whole corpus across samples.
// The Python peer on the same inputs: Benchmarks/harness/bench_python_extras.py.
import Benchmark
import Foundation
import PhoneNumberCarriers
import PhoneNumberTimeZones
import PhoneNumbers

private func corpusNumbers(_ engine: PhoneNumberEngine) -> [PhoneNumber] {
    let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("corpus").appendingPathComponent("e164-10k.txt")
    guard let text = try? String(contentsOf: url, encoding: .utf8) else { fatalError("cannot read \(url.path)") }
    return text.split(separator: "\n").compactMap { line in
        try? engine.parse(e164: String(line.split(separator: "\t", maxSplits: 1)[0]))
    }
}

/// Runs `body` on each number in turn, resuming where the previous sample stopped.
private final class Cursor: @unchecked Sendable {
    var next = 0
}

let benchmarks: @Sendable () -> Void = {
    let perNumber = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .instructions],
        scalingFactor: .kilo,
        maxDuration: .seconds(3)
    )
    let engine = PhoneNumberEngine()
    let numbers = corpusNumbers(engine)
    let russian = CarrierLocale("ru")!
    let instant = UTCInstant(secondsSince1970: 1_768_471_200)  // 2026-01-15T10:00:00Z

    func measure(_ name: String, _ body: @escaping (PhoneNumber) -> Void) {
        let cursor = Cursor()
        Benchmark(name, configuration: perNumber) { benchmark in
            var i = cursor.next
            defer { cursor.next = i }
            for _ in benchmark.scaledIterations {
                body(numbers[i])
                i = i + 1 == numbers.count ? 0 : i + 1
            }
        }
    }

    // What the two checked lookups start with: the number's type (the core engine).
    measure("PhoneNumbers.type-N=10k") { blackHole(engine.type(of: $0)) }

    measure("PhoneNumberTimeZones.timeZones-N=10k") { number in
        let zones = engine.timeZones(of: number)
        blackHole(zones.first)
    }
    measure("PhoneNumberTimeZones.geographicalTimeZones-N=10k") { number in
        blackHole(engine.geographicalTimeZones(of: number).first)
    }
    measure("PhoneNumberTimeZones.sendingDecision-N=10k") { number in
        blackHole(engine.sendingDecision(for: number, at: instant))
    }
    measure("PhoneNumberCarriers.carrierName-en-N=10k") { number in
        blackHole(engine.carrierName(of: number, locale: .english))
    }
    measure("PhoneNumberCarriers.carrierNameForValidNumber-ru-N=10k") { number in
        blackHole(engine.carrierName(ofValidNumber: number, locale: russian))
    }
    measure("PhoneNumberCarriers.isMobileNumberPortable-N=10k") { number in
        blackHole(engine.isMobileNumberPortable(engine.region(of: number) ?? .unknown))
    }
}
