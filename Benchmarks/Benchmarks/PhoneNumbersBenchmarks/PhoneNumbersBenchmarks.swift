// PhoneNumbers benchmarks. One iteration is one number, so the reported time and allocations are
// per number. Inputs are the committed corpora in Benchmarks/corpus (see tools/oracle/gen_corpus.py).
import Benchmark
import Foundation
@_spi(Tools) import PhoneNumbers

private func corpus(_ name: String) -> [PhoneNumberInput] {
    let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("corpus").appendingPathComponent(name)
    guard let text = try? String(contentsOf: url, encoding: .utf8) else { fatalError("cannot read \(url.path)") }
    return text.split(separator: "\n").map { line in
        let parts = line.split(separator: "\t", maxSplits: 1)
        let region = parts.count > 1 ? RegionCode(parts[1]) : nil
        return PhoneNumberInput(String(parts[0]), defaultRegion: region == .unknown ? nil : region)
    }
}

/// The inputs as one UTF-8 buffer and each input as a range of it, for the loops over
/// `parse(utf8:defaultRegion:)` and `parse(e164UTF8:)`: what a gateway holds after reading a
/// request or a file, and what the C++ harness's loop has (a `const std::string&`). A loop over
/// `[PhoneNumberInput]` copies each String out of the array, a retain and a release per input
/// (atomic for Strings over 15 bytes): the loop's cost, not the parser's.
private struct UTF8Corpus {
    struct Input {
        var start: Int
        var end: Int
        var defaultRegion: RegionCode?
    }
    var bytes: [UInt8] = []
    var inputs: [Input] = []

    init(_ inputs: [PhoneNumberInput]) {
        for input in inputs {
            let start = bytes.count
            bytes.append(contentsOf: input.text.utf8)
            self.inputs.append(Input(start: start, end: bytes.count, defaultRegion: input.defaultRegion))
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    let perNumber = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
        scalingFactor: .kilo,
        maxDuration: .seconds(3)
    )
    let engine = PhoneNumberEngine()
    let e164 = corpus("e164-10k.txt")
    let mixed = corpus("mixed-10k.txt")
    let parsedE164 = e164.compactMap { try? engine.parse($0.text, defaultRegion: $0.defaultRegion) }
    // ordo calls a benchmark's closure once per sample (1,000 iterations). Each loop keeps its
    // place in its corpus in a variable outside the closure (`e164Next`, ...), so that the samples
    // walk the whole corpus: a place kept inside would start every sample at the first input,
    // and measure the first 1,000 inputs over and over, which the branch predictor learns.

    // Issue 2: E.164 input; parse, validity, type, region, E.164 out (inline, `E164Text`).
    var e164Next = 0
    Benchmark("PhoneNumbers.e164-parse-validate-type-region-format-N=10k", configuration: perNumber) { benchmark in
        var i = e164Next
        defer { e164Next = i }
        for _ in benchmark.scaledIterations {
            let input = e164[i]
            i = i + 1 == e164.count ? 0 : i + 1
            guard let number = try? engine.parse(e164: input.text) else { continue }
            let (region, type) = engine.classify(number)
            blackHole(region)
            blackHole(type)
            blackHole(number.e164)
        }
    }

    // The same over each input's UTF-8 (`parse(e164UTF8:)`): no String copied out of an array.
    let e164UTF8 = UTF8Corpus(e164)
    var e164UTF8Next = 0
    Benchmark("PhoneNumbers.e164-utf8-parse-validate-type-region-format-N=10k", configuration: perNumber) { benchmark in
        e164UTF8.bytes.withUnsafeBufferPointer { all in
            var i = e164UTF8Next
            defer { e164UTF8Next = i }
            for _ in benchmark.scaledIterations {
                let input = e164UTF8.inputs[i]
                i = i + 1 == e164UTF8.inputs.count ? 0 : i + 1
                guard let number = try? engine.parse(e164UTF8: UnsafeBufferPointer(rebasing: all[input.start..<input.end])) else { continue }
                let (region, type) = engine.classify(number)
                blackHole(region)
                blackHole(type)
                blackHole(number.e164)
            }
        }
    }

    // The same with the E.164 form as a String (`formatE164`): a String holds 15 bytes inline,
    // so the 3 numbers in 100 whose E.164 form is longer allocate. (The loops are written out:
    // one generic function taking the parse and the format as closures measured 13 ns more a
    // number, 79 against 66 ns at p0.)
    var e164StringNext = 0
    Benchmark("PhoneNumbers.e164-parse-validate-type-region-formatE164String-N=10k", configuration: perNumber) { benchmark in
        var i = e164StringNext
        defer { e164StringNext = i }
        for _ in benchmark.scaledIterations {
            let input = e164[i]
            i = i + 1 == e164.count ? 0 : i + 1
            guard let number = try? engine.parse(e164: input.text) else { continue }
            let (region, type) = engine.classify(number)
            blackHole(region)
            blackHole(type)
            blackHole(engine.formatE164(number))
        }
    }

    // Issue 3: mixed free-form input (national, international, IDD, Unicode digits, extensions).
    var mixedNext = 0
    Benchmark("PhoneNumbers.mixed-parse-validate-type-format-N=10k", configuration: perNumber) { benchmark in
        var i = mixedNext
        defer { mixedNext = i }
        for _ in benchmark.scaledIterations {
            let input = mixed[i]
            i = i + 1 == mixed.count ? 0 : i + 1
            guard let number = try? engine.parse(input.text, defaultRegion: input.defaultRegion) else { continue }
            let (region, type) = engine.classify(number)
            blackHole(region)
            blackHole(type)
            blackHole(number.e164)
        }
    }

    // The same over each input's UTF-8 (`parse(utf8:defaultRegion:)`).
    let mixedUTF8 = UTF8Corpus(mixed)
    var mixedUTF8Next = 0
    Benchmark("PhoneNumbers.mixed-utf8-parse-validate-type-format-N=10k", configuration: perNumber) { benchmark in
        mixedUTF8.bytes.withUnsafeBufferPointer { all in
            var i = mixedUTF8Next
            defer { mixedUTF8Next = i }
            for _ in benchmark.scaledIterations {
                let input = mixedUTF8.inputs[i]
                i = i + 1 == mixedUTF8.inputs.count ? 0 : i + 1
                guard let number = try? engine.parse(utf8: UnsafeBufferPointer(rebasing: all[input.start..<input.end]),
                                                     defaultRegion: input.defaultRegion) else { continue }
                let (region, type) = engine.classify(number)
                blackHole(region)
                blackHole(type)
                blackHole(number.e164)
            }
        }
    }

    // Issues 2, 3, 7: the one-call API a validator uses (parse, possibility, validity, type,
    // region, fictional range and E.164 in one pass), E.164 and mixed input.
    var e164CheckNext = 0
    Benchmark("PhoneNumbers.e164-check-N=10k", configuration: perNumber) { benchmark in
        var i = e164CheckNext
        defer { e164CheckNext = i }
        for _ in benchmark.scaledIterations {
            let input = e164[i]
            i = i + 1 == e164.count ? 0 : i + 1
            blackHole(engine.check(input.text, defaultRegion: input.defaultRegion))
        }
    }
    var mixedCheckNext = 0
    Benchmark("PhoneNumbers.mixed-check-N=10k", configuration: perNumber) { benchmark in
        var i = mixedCheckNext
        defer { mixedCheckNext = i }
        for _ in benchmark.scaledIterations {
            let input = mixed[i]
            i = i + 1 == mixed.count ? 0 : i + 1
            blackHole(engine.check(input.text, defaultRegion: input.defaultRegion))
        }
    }

    // Issue 4: the added cost of the fictional-range lookup on a parsed number.
    var fictionalNext = 0
    Benchmark("PhoneNumbers.fictional-lookup-N=10k", configuration: perNumber) { benchmark in
        var i = fictionalNext
        defer { fictionalNext = i }
        for _ in benchmark.scaledIterations {
            blackHole(engine.fictionalRange(of: parsedE164[i]))
            i = i + 1 == parsedE164.count ? 0 : i + 1
        }
    }

    // Validation alone on numbers already parsed (region detection + type DFA).
    var classifyNext = 0
    Benchmark("PhoneNumbers.classify-parsed-N=10k", configuration: perNumber) { benchmark in
        var i = classifyNext
        defer { classifyNext = i }
        for _ in benchmark.scaledIterations {
            blackHole(engine.classify(parsedE164[i]))
            i = i + 1 == parsedE164.count ? 0 : i + 1
        }
    }

    // Time to have the metadata ready: building the index over the generated region records (the
    // automata are constant arrays read in place, with nothing to load). A rebuild in a warm
    // process; Benchmarks/first-use.sh measures the first use in new processes.
    Benchmark("PhoneNumbers.metadata-ready",
              configuration: .init(metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident], maxDuration: .seconds(2))) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(PhoneNumberEngine.buildMetadataIndexForBenchmark())
        }
    }

    // Reading the number formats, which the engine does on its first national, international or
    // RFC 3966 format rather than when it is made.
    Benchmark("PhoneNumbers.number-formats-ready",
              configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(2))) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(PhoneNumberEngine.buildNumberFormatsForBenchmark())
        }
    }
}
