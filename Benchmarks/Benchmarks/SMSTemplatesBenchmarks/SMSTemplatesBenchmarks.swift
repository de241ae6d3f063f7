import Benchmark
import SMSTemplates

let benchmarks: @Sendable () -> Void = {
    Benchmark("SMSTemplates.placeholder") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(1) }
    }
}
