// Benchmarks for SMSEncoding: segment counting (no heap allocation) and full analysis,
// for GSM 7-bit (the single-septet ASCII fast path and the default-tables fast path, which
// takes Latin-1 letters and escapes), UCS-2 and national-language messages. A one-part GSM
// analysis makes no heap allocation either. Fixtures are built outside the measured closures. Run from Benchmarks/: swift package benchmark --target SMSEncodingBenchmarks
import Benchmark
import SMSEncoding

/// Exactly `count` characters of `pattern`, repeated.
private func text(_ pattern: String, count: Int) -> String {
    String(String(repeating: pattern, count: count / pattern.count + 1).prefix(count))
}

let benchmarks: @Sendable () -> Void = {
    // 160 GSM characters, no escapes: the ASCII fast path.
    let gsm160 = text("Your verification code is 654321. It expires in 10 minutes. Do not share it with anyone. ", count: 160)
    // 145 characters, 160 septets: Latin-1 letters and escaped € { } take the general path.
    let gsmLatin160 = text("Café crème à 5€ {ok} Müller ", count: 145)
    // 130 ASCII characters with the escaped { } [ ] ~ \ | ^ and €: 157 septets.
    let gsmEscapes157 = text("Your code is {654321} [ok] ~ \\ | ^ € done. ", count: 130)
    // 70 UCS-2 characters (Chinese).
    let ucs70 = text("您的验证码是654321,十分钟内有效,请勿泄露给他人。", count: 70)
    // Hindi OTP message with all national tables enabled (Hindi locking + single shift).
    let hindi = "आपका सत्यापन कोड 654321 है। इसे किसी के साथ साझा न करें।"

    let plain = SMSEncoder()
    let national = SMSEncoder(options: .init(nationalLanguageTables: .all))
    precondition(plain.segmentCount(gsm160) == 1 && plain.analyze(gsm160).length == 160)
    precondition(plain.analyze(gsmLatin160).length == 160 && plain.analyze(gsmLatin160).encoding == .gsm7)
    precondition(plain.analyze(gsmEscapes157).length == 157 && plain.analyze(gsmEscapes157).encoding == .gsm7)
    precondition(plain.analyze(ucs70).length == 70 && plain.analyze(ucs70).encoding == .ucs2)
    precondition(national.analyze(hindi).encoding == .gsm7)

    // The count path must not allocate: the thresholds allow 0 mallocs at every percentile.
    let noAllocation: [BenchmarkMetric: BenchmarkThresholds] = [
        .mallocCountTotal: .init(absolute: [.p0: 0, .p25: 0, .p50: 0, .p75: 0, .p90: 0, .p99: 0, .p100: 0])
    ]
    let countConfiguration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        thresholds: noAllocation
    )
    let analyzeConfiguration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        scalingFactor: .kilo,
        maxDuration: .seconds(2)
    )
    // A one-part GSM 7-bit analysis must not allocate either (its part is built when read).
    let onePartAnalyzeConfiguration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        thresholds: noAllocation
    )

    Benchmark("SMSEncoding.segmentCount-GSM-160", configuration: countConfiguration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(plain.segmentCount(gsm160)) }
    }
    Benchmark("SMSEncoding.segmentCount-GSM-Latin-escapes-160", configuration: countConfiguration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(plain.segmentCount(gsmLatin160)) }
    }
    Benchmark("SMSEncoding.segmentCount-UCS2-70", configuration: countConfiguration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(plain.segmentCount(ucs70)) }
    }
    Benchmark("SMSEncoding.segmentCount-national-all-Hindi", configuration: countConfiguration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(national.segmentCount(hindi)) }
    }
    Benchmark("SMSEncoding.analyze-GSM-160", configuration: onePartAnalyzeConfiguration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(plain.analyze(gsm160)) }
    }
    Benchmark("SMSEncoding.analyze-GSM-Latin-escapes-160", configuration: onePartAnalyzeConfiguration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(plain.analyze(gsmLatin160)) }
    }
    Benchmark("SMSEncoding.analyze-GSM-escapes-157", configuration: onePartAnalyzeConfiguration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(plain.analyze(gsmEscapes157)) }
    }
    Benchmark("SMSEncoding.analyze-UCS2-70", configuration: analyzeConfiguration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(plain.analyze(ucs70)) }
    }
}
