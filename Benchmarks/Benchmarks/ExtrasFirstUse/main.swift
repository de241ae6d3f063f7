// The core engine's first use in a process that also links PhoneNumberTimeZones and
// PhoneNumberCarriers (compare with MetadataFirstUse, which links PhoneNumbers alone: the new
// modules read their tables in place, so the engine's first use must not change), then the first
// time zone, carrier and sending-window lookups. Benchmarks/first-use.sh runs it with
// PRODUCT=ExtrasFirstUse. Prints one line:
//   first_use engine_us=<X> engine_faults=<N> first_zone_us=<..> zone_faults=<..> first_carrier_us=<..>
//   carrier_faults=<..> first_window_us=<..> window_faults=<..> maxrss_kb=<..>
#if canImport(Glibc)
import Glibc
#endif
import PhoneNumberCarriers
import PhoneNumberTimeZones
import PhoneNumbers

func nanoseconds() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_nsec)
}

func usage() -> rusage {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage
}

func microseconds(_ from: UInt64, _ to: UInt64) -> String {
    let tenths = (to - from) / 100
    return "\(tenths / 10).\(tenths % 10)"
}

let faults0 = usage().ru_minflt
let t0 = nanoseconds()
let engine = PhoneNumberEngine()
let t1 = nanoseconds()
let faults1 = usage().ru_minflt
guard let number = try? engine.parse(e164: "+16502530000"), let mobile = try? engine.parse(e164: "+40721234567") else {
    print("ExtrasFirstUse: the numbers did not parse")
    exit(1)
}
let zone = engine.timeZones(of: number).first
let t2 = nanoseconds()
let faults2 = usage().ru_minflt
let carrier = engine.carrierName(of: mobile, locale: .english)
let t3 = nanoseconds()
let faults3 = usage().ru_minflt
let decision = engine.sendingDecision(for: number, at: UTCInstant(secondsSince1970: 1_768_471_200))
let t4 = nanoseconds()
let faults4 = usage().ru_minflt
guard zone?.identifier == "America/Los_Angeles", carrier?.text == "Vodafone",
      decision == .notBefore(UTCInstant(secondsSince1970: 1_768_492_800)) else {
    print("ExtrasFirstUse: unexpected answers: \(String(describing: zone)) \(String(describing: carrier)) \(decision)")
    exit(1)
}
print("first_use engine_us=\(microseconds(t0, t1)) engine_faults=\(faults1 - faults0)",
      "first_zone_us=\(microseconds(t1, t2)) zone_faults=\(faults2 - faults1)",
      "first_carrier_us=\(microseconds(t2, t3)) carrier_faults=\(faults3 - faults2)",
      "first_window_us=\(microseconds(t3, t4)) window_faults=\(faults4 - faults3)",
      "maxrss_kb=\(usage().ru_maxrss)")
