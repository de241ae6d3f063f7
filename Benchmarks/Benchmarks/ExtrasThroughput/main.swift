// Passes of one time zone or carrier lookup over the numbers of a corpus, for
// Benchmarks/extras-instructions.sh (cachegrind's instruction counts, which this shared machine's
// timings cannot give):
//
//   ExtrasThroughput CORPUS LOOKUP PASSES
//
// LOOKUP: type, timeZones, geographicalTimeZones, sendingDecision, carrierName,
// carrierNameForValidNumber, portable. The corpus is parsed first (one pass, not a lookup pass);
// prints a checksum so that the work is not optimized away.
#if canImport(Glibc)
import Glibc
#endif
import PhoneNumberCarriers
import PhoneNumberTimeZones
import PhoneNumbers

let arguments = CommandLine.arguments
guard arguments.count == 4, let passes = Int(arguments[3]), passes >= 0,
      let file = fopen(arguments[1], "r") else {
    print("usage: ExtrasThroughput CORPUS LOOKUP PASSES")
    exit(64)
}
let engine = PhoneNumberEngine()
var numbers: [PhoneNumber] = []
var line: UnsafeMutablePointer<CChar>?
var capacity = 0
while getline(&line, &capacity, file) > 0 {
    let text = String(cString: line!).split(separator: "\n")[0].split(separator: "\t")[0]
    if let number = try? engine.parse(e164: String(text)) { numbers.append(number) }
}
let russian = CarrierLocale("ru")!
let instant = UTCInstant(secondsSince1970: 1_768_471_200)
var checksum = 0
let lookup: (PhoneNumber) -> Int
switch arguments[2] {
case "type": lookup = { engine.type(of: $0).hashValue & 1 }
case "timeZones": lookup = { engine.timeZones(of: $0).count }
case "geographicalTimeZones": lookup = { engine.geographicalTimeZones(of: $0).count }
case "sendingDecision": lookup = { engine.sendingDecision(for: $0, at: instant).isAllowed ? 1 : 0 }
case "carrierName": lookup = { engine.carrierName(of: $0, locale: .english)?.utf8.count ?? 0 }
case "carrierNameForValidNumber": lookup = { engine.carrierName(ofValidNumber: $0, locale: russian)?.utf8.count ?? 0 }
case "portable": lookup = { engine.isMobileNumberPortable(engine.region(of: $0) ?? .unknown) ? 1 : 0 }
default:
    print("unknown lookup \(arguments[2])")
    exit(64)
}
for _ in 0 ..< passes {
    for number in numbers { checksum &+= lookup(number) }
}
print("numbers=\(numbers.count) checksum=\(checksum)")
