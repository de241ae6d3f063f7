import Benchmark
import SMSEncoding

let benchmarks: @Sendable () -> Void = {
    Benchmark("SMSEncoding.placeholder") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(1) }
    }
}
