// The metadata's first use in a new process: what the ordo benchmark `PhoneNumbers.metadata-ready`
// cannot see, since it rebuilds the index in a warm process. Run it in fresh processes
// (Benchmarks/first-use.sh runs it several times and prints the median):
//
//   MetadataFirstUse
//
// prints one line:
//   first_use engine_us=<X> engine_faults=<N> first_number_us=<Y> first_format_us=<Z> format_faults=<M>
// engine: `PhoneNumberEngine()`, which builds the shared index (minor page faults counted with
// getrusage); first number: parse(e164:), classify and the E.164 form of one number, which reads
// the tables in place; first format: one national format, which reads the number formats.
// No Foundation, so that nothing but the engine runs between the two readings of each clock.
#if canImport(Glibc)
import Glibc
#endif
import PhoneNumbers

func nanoseconds() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_nsec)
}

func minorFaults() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_minflt
}

func microseconds(_ from: UInt64, _ to: UInt64) -> String {
    let tenths = (to - from) / 100
    return "\(tenths / 10).\(tenths % 10)"
}

let faults0 = minorFaults()
let t0 = nanoseconds()
let engine = PhoneNumberEngine()
let t1 = nanoseconds()
let faults1 = minorFaults()
guard let number = try? engine.parse(e164: "+16502530000") else {
    print("MetadataFirstUse: +16502530000 did not parse")
    exit(1)
}
let classification = engine.classify(number)
let e164 = number.e164?.description
let t2 = nanoseconds()
let faults2 = minorFaults()
let national = engine.format(number, as: .national)
let t3 = nanoseconds()
let faults3 = minorFaults()
guard classification.type == .fixedLineOrMobile, classification.region == "US", e164 == "+16502530000",
      national == "(650) 253-0000" else {
    print("MetadataFirstUse: unexpected answers: \(classification) \(e164 ?? "none") \(national)")
    exit(1)
}
print("first_use engine_us=\(microseconds(t0, t1)) engine_faults=\(faults1 - faults0)",
      "first_number_us=\(microseconds(t1, t2)) first_format_us=\(microseconds(t2, t3))",
      "format_faults=\(faults3 - faults2)")
