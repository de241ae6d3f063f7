// Finds the numbers in a text file with PhoneNumberEngine.findNumbers, for matcher-benchmark.sh:
//   MatcherThroughput FILE REGION LENIENCY PASSES
// prints the matches of one pass and the median wall time of the passes.
import PhoneNumbers

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let arguments = CommandLine.arguments
guard arguments.count == 5, let region = RegionCode(arguments[2]), let leniency = PhoneNumberLeniency(rawValue: arguments[3]),
      let passes = Int(arguments[4]), passes > 0 else {
    print("usage: MatcherThroughput FILE REGION LENIENCY PASSES")
    exit(64)
}
guard let file = fopen(arguments[1], "rb") else {
    print("MatcherThroughput: cannot open \(arguments[1])")
    exit(1)
}
var bytes: [UInt8] = []
var block = [UInt8](repeating: 0, count: 1 << 16)
while true {
    let count = fread(&block, 1, block.count, file)
    if count <= 0 { break }
    bytes.append(contentsOf: block[0..<count])
}
fclose(file)
let text = String(decoding: bytes, as: UTF8.self)
let engine = PhoneNumberEngine()

func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

var times: [Double] = []
var found = 0
for _ in 0..<passes {
    let start = now()
    found = engine.findNumbers(in: text, defaultRegion: region, leniency: leniency).count
    times.append(now() - start)
}
times.sort()
let median = times[times.count / 2]
print("swift matches=\(found) scalars=\(text.unicodeScalars.count) bytes=\(bytes.count) median_ms=\(Int((median * 1000).rounded())) passes=\(passes)")
