// Passes of one short-number lookup over the numbers (or emergency texts) of the short-number
// fixtures, for Benchmarks/short-instructions.sh (cachegrind's instruction counts and memcheck's
// allocation counts, which this shared machine's timings cannot give):
//
//   ShortNumberThroughput FIXTURES_DIR LOOKUP PASSES
//
// LOOKUP: baseline (the harness's own loop and call), possible, possibleForRegion, valid, validForRegion, cost, costForRegion, carrier,
// smsForRegion (over short_numbers.tsv: calling code, national number, region), emergency,
// connects (over short_emergency.tsv: text, region). The inputs are read first (not a lookup
// pass); prints a checksum so that the work is not optimized away.
#if canImport(Glibc)
import Glibc
#endif
import PhoneNumbers

let arguments = CommandLine.arguments
guard arguments.count == 4, let passes = Int(arguments[3]), passes >= 0 else {
    print("usage: ShortNumberThroughput FIXTURES_DIR LOOKUP PASSES")
    exit(64)
}

func rows(_ name: String) -> [[Substring]] {
    guard let file = fopen(arguments[1] + "/" + name, "r") else {
        print("cannot open \(name)")
        exit(66)
    }
    var out: [[Substring]] = []
    var line: UnsafeMutablePointer<CChar>?
    var capacity = 0
    while getline(&line, &capacity, file) > 0 {
        let text = String(cString: line!)
        out.append(text.dropLast().split(separator: "\t", omittingEmptySubsequences: false))
    }
    return Array(out.dropFirst())
}

let engine = PhoneNumberEngine()
var numbers: [(PhoneNumber, RegionCode)] = []
var texts: [(String, RegionCode)] = []
let lookupName = arguments[2]
if lookupName == "emergency" || lookupName == "connects" {
    // The fixture's escapes (\t, \\) are left as they are: any text will do.
    texts = rows("short_emergency.tsv").map { (String($0[0]), RegionCode($0[1])!) }
} else {
    numbers = rows("short_numbers.tsv").map { row in
        var zeros = row[1].prefix(while: { $0 == "0" }).count
        if zeros == row[1].count { zeros -= 1 }
        return (PhoneNumber(countryCode: Int(row[0])!, nationalNumber: UInt64(row[1].dropFirst(zeros))!, leadingZeros: zeros),
                RegionCode(row[2])!)
    }
}
/// The cost as a small number (not hashValue, which hashes the raw String and costs more than the lookup).
@inline(__always) func code(_ cost: ShortNumberCost) -> Int {
    switch cost {
    case .tollFree: 0
    case .standardRate: 1
    case .premiumRate: 2
    case .unknownCost: 3
    }
}
var checksum = 0
let lookup: (PhoneNumber, RegionCode) -> Int
switch lookupName {
case "baseline": lookup = { n, _ in n.countryCode & 1 }  // the loop and call alone
case "possible": lookup = { n, _ in engine.isPossibleShortNumber(n) ? 1 : 0 }
case "possibleForRegion": lookup = { engine.isPossibleShortNumber($0, forRegion: $1) ? 1 : 0 }
case "valid": lookup = { n, _ in engine.isValidShortNumber(n) ? 1 : 0 }
case "validForRegion": lookup = { engine.isValidShortNumber($0, forRegion: $1) ? 1 : 0 }
case "cost": lookup = { n, _ in code(engine.expectedCost(of: n)) }
case "costForRegion": lookup = { code(engine.expectedCost(of: $0, forRegion: $1)) }
case "carrier": lookup = { n, _ in engine.isCarrierSpecific(n) ? 1 : 0 }
case "smsForRegion": lookup = { engine.isSMSServiceNumber($0, forRegion: $1) ? 1 : 0 }
case "emergency", "connects": lookup = { _, _ in 0 }
default:
    print("unknown lookup \(lookupName)")
    exit(64)
}
for _ in 0 ..< passes {
    if lookupName == "emergency" {
        for (text, region) in texts { checksum &+= engine.isEmergencyNumber(text, region: region) ? 1 : 0 }
    } else if lookupName == "connects" {
        for (text, region) in texts { checksum &+= engine.connectsToEmergencyNumber(text, region: region) ? 1 : 0 }
    } else {
        for (number, region) in numbers { checksum &+= lookup(number, region) }
    }
}
print("inputs=\(numbers.count + texts.count) checksum=\(checksum)")
