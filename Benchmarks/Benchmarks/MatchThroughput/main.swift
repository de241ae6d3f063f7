// Passes of one matching or dialling call over the oracle fixtures' inputs, for
// Benchmarks/match-benchmark.sh (wall time per call beside Python phonenumbers on the same inputs,
// and valgrind's allocation counts):
//
//   MatchThroughput FIXTURES LOOKUP PASSES
//
// LOOKUP: baseline, matchNumbers (the `nn` rows of match.tsv), matchNumberText (`ns`), matchTexts
// (`ss`), dedupeKey (the numbers of dialling.tsv), outOfCountry, mobileDialing, mobileDigits,
// canDial (dialling.tsv's numbers and calling regions). Inputs are read and parsed first (not
// timed); prints the calls, the nanoseconds per call of the fastest pass and a checksum.
#if canImport(Glibc)
import Glibc
#endif
import PhoneNumbers

let arguments = CommandLine.arguments
guard arguments.count == 4, let passes = Int(arguments[3]), passes >= 0 else {
    print("usage: MatchThroughput FIXTURES LOOKUP PASSES")
    exit(64)
}

/// The rows of a fixture (header dropped), fields split on tabs; no field of the rows read here
/// has an escape.
func rows(_ name: String) -> [[Substring]] {
    guard let file = fopen(arguments[1] + "/" + name, "r") else {
        print("cannot open \(arguments[1])/\(name)")
        exit(1)
    }
    var out: [[Substring]] = []
    var line: UnsafeMutablePointer<CChar>?
    var capacity = 0
    var first = true
    while getline(&line, &capacity, file) > 0 {
        let text = String(cString: line!)
        if first { first = false; continue }
        out.append(text.dropLast().split(separator: "\t", omittingEmptySubsequences: false))
    }
    fclose(file)
    return out
}

/// `cc:nsn;ext=x` (match.tsv) or the cc, nsn, ext columns (dialling.tsv) as a number.
func number(_ cc: Substring, _ nsn: Substring, _ ext: Substring?) -> PhoneNumber {
    var zeros = nsn.prefix(while: { $0 == "0" }).count
    if zeros == nsn.count { zeros -= 1 }
    return PhoneNumber(countryCode: Int(cc)!, nationalNumber: UInt64(nsn.dropFirst(zeros))!, leadingZeros: zeros,
                       extension: ext.flatMap { $0.isEmpty ? nil : String($0) })
}

func number(_ field: Substring) -> PhoneNumber {
    let parts = field.split(separator: ";ext=", maxSplits: 1, omittingEmptySubsequences: false)
    let head = parts[0].split(separator: ":")
    return number(head[0], head[1], parts.count > 1 ? parts[1] : nil)
}

let engine = PhoneNumberEngine()
let lookup = arguments[2]
var calls: [() -> Int] = []
switch lookup {
case "baseline", "matchNumbers", "matchNumberText", "matchTexts":
    let kind = ["matchNumbers": "nn", "matchNumberText": "ns", "matchTexts": "ss", "baseline": "nn"][lookup]!
    for row in rows("match.tsv") where row[0] == kind {
        switch lookup {
        case "baseline": calls.append { 1 }
        case "matchNumbers":
            let (a, b) = (number(row[1]), number(row[2]))
            calls.append { engine.match(a, b).isMatch ? 1 : 0 }
        case "matchNumberText":
            let (a, b) = (number(row[1]), String(row[2]))
            calls.append { engine.match(a, b).isMatch ? 1 : 0 }
        default:
            let (a, b) = (String(row[1]), String(row[2]))
            calls.append { engine.match(a, b).isMatch ? 1 : 0 }
        }
    }
default:
    for row in rows("dialling.tsv") {
        let n = number(row[0], row[1], row[2])
        let from = RegionCode(row[3]) ?? .unknown
        switch lookup {
        case "dedupeKey": calls.append { n.dedupeKey.utf8.count }
        case "outOfCountry": calls.append { engine.formatOutOfCountry(n, callingFrom: from).utf8.count }
        case "mobileDialing": calls.append { engine.formatForMobileDialing(n, callingFrom: from, withFormatting: true).utf8.count }
        case "mobileDigits": calls.append { engine.formatForMobileDialing(n, callingFrom: from, withFormatting: false).utf8.count }
        case "canDial": calls.append { engine.canBeInternationallyDialled(n) ? 1 : 0 }
        default:
            print("unknown lookup \(lookup)")
            exit(64)
        }
    }
}
// Each pass timed on its own; the fastest is reported (as the Python side's best of 3): on this
// shared machine a pass that other processes interrupted only adds time.
var checksum = 0
var best = Double.infinity
for _ in 0 ..< passes {
    var start = timespec(), end = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    for call in calls { checksum &+= call() }
    clock_gettime(CLOCK_MONOTONIC, &end)
    best = min(best, Double(end.tv_sec - start.tv_sec) * 1e9 + Double(end.tv_nsec - start.tv_nsec))
}
let perCall = passes > 0 && !calls.isEmpty ? best / Double(calls.count) : 0
print("lookup=\(lookup) calls=\(calls.count) ns_per_call=\((perCall * 10).rounded() / 10) checksum=\(checksum)")
