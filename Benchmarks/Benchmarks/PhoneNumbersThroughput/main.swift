// Whole-corpus throughput of PhoneNumbers, the same work as Benchmarks/harness/harness.cc does
// with libphonenumber: per line parse, isValid, type, format E.164; one thread.
//
//   swift run -c release PhoneNumbersThroughput CORPUS [--repeat N] [--check | --classify | --e164] [--string] [--bytes]
//
// The E.164 form is made as `number.e164` (an `E164Text`, inline: no allocation); with --string
// as `engine.formatE164(number)`, a String, which allocates for the E.164 forms of 16 bytes or
// more; the line then starts with "smskit_string". With --check, each line goes through the one-call API instead: engine.check(text, defaultRegion:)
// (parse, possibility, validity, type, region, fictional range, E.164 in one pass); the line
// then starts with "smskit_check". --classify does the PhoneNumbersBenchmarks work: parse,
// classify (validity, type and region in one call), E.164; --e164 the same with parse(e164:)
// (strict E.164 input only). With --bytes, each input is parsed from its UTF-8 in one buffer
// of the whole corpus (`parse(utf8:defaultRegion:)`, `parse(e164UTF8:)`; not with --check), and
// the line starts with "smskit_bytes" ("smskit_string_bytes" with --string).
// Benchmarks/instructions.sh runs this under cachegrind.
//
// CORPUS has one input per line, optionally followed by a tab and the default region; lines
// starting with '+' default to no region. Prints
//   smskit numbers_per_sec=<X> ns_per_number=<Y> valid=<count>
// using the median of N timed passes.
import Foundation
import PhoneNumbers

var arguments = CommandLine.arguments.dropFirst()
var repeatCount = 5
var path: String?
nonisolated(unsafe) var useCheck = false
nonisolated(unsafe) var useClassify = false
nonisolated(unsafe) var useE164 = false
nonisolated(unsafe) var useString = false
nonisolated(unsafe) var useBytes = false
while let argument = arguments.popFirst() {
    if argument == "--repeat", let value = arguments.popFirst(), let n = Int(value), n > 0 {
        repeatCount = n
    } else if argument == "--check" {
        useCheck = true
    } else if argument == "--classify" {
        useClassify = true
    } else if argument == "--e164" {
        useE164 = true
    } else if argument == "--string" {
        useString = true
    } else if argument == "--bytes" {
        useBytes = true
    } else if argument.hasPrefix("-") {
        FileHandle.standardError.write("usage: PhoneNumbersThroughput CORPUS [--repeat N] [--check | --classify | --e164] [--string] [--bytes]\n".data(using: .utf8)!)
        exit(64)
    } else {
        path = argument
    }
}
if useCheck && useBytes {
    FileHandle.standardError.write("PhoneNumbersThroughput: --check takes Strings; --bytes is for the parse modes\n".data(using: .utf8)!)
    exit(64)
}
guard let path, let text = try? String(contentsOfFile: path, encoding: .utf8) else {
    FileHandle.standardError.write("PhoneNumbersThroughput: cannot read the corpus\n".data(using: .utf8)!)
    exit(1)
}
let inputs: [PhoneNumberInput] = text.split(separator: "\n").map { line in
    let parts = line.split(separator: "\t", maxSplits: 1)
    let region = parts.count > 1 ? RegionCode(parts[1]) : nil
    return PhoneNumberInput(String(parts[0]), defaultRegion: region == .unknown ? nil : region)
}

guard !inputs.isEmpty else {
    FileHandle.standardError.write("PhoneNumbersThroughput: the corpus has no inputs\n".data(using: .utf8)!)
    exit(1)
}

/// The corpus as one UTF-8 buffer and each input as a range of it (--bytes): what a gateway holds
/// after reading a request or a file, and what the C++ harness's loop has, a `const std::string&`.
/// A loop over `[PhoneNumberInput]` copies each String out of the array: a retain and a release
/// per input (atomic for Strings over 15 bytes), which is the loop's cost, not the parser's.
struct ByteInput {
    var start: Int
    var end: Int
    var defaultRegion: RegionCode?
}
let (corpusBytes, byteInputs) = (useBytes ? inputs : []).reduce(into: ([UInt8](), [ByteInput]())) { corpus, input in
    let start = corpus.0.count
    corpus.0.append(contentsOf: input.text.utf8)
    corpus.1.append(ByteInput(start: start, end: corpus.0.count, defaultRegion: input.defaultRegion))
}

/// Resident memory of this process in KiB (Linux /proc), or 0.
func residentKiB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
    return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
}

let rssBefore = residentKiB()
let readyStart = DispatchTime.now().uptimeNanoseconds
let engine = PhoneNumberEngine()
_ = engine.isValid(try! engine.parse(e164: "+16502530000"))
let readyNanoseconds = DispatchTime.now().uptimeNanoseconds - readyStart
func pass() -> (valid: Int, checksum: Int) {
    if useBytes { return passOverBytes() }
    var valid = 0
    var checksum = 0
    if useCheck {
        for input in inputs {
            let result = engine.check(input.text, defaultRegion: input.defaultRegion)
            if result.isValid { valid += 1 }
            checksum &+= result.type == .mobile ? 1 : 0
            checksum &+= result.e164?.utf8.count ?? 0
        }
        return (valid, checksum)
    }
    if useClassify || useE164 {
        for input in inputs {
            guard let number = useE164 ? try? engine.parse(e164: input.text)
                                       : try? engine.parse(input.text, defaultRegion: input.defaultRegion) else { continue }
            let (region, type) = engine.classify(number)
            if type != .unknown { valid += 1 }
            checksum &+= region == nil ? 0 : 1
            checksum &+= useString ? engine.formatE164(number).utf8.count : number.e164?.count ?? 0
        }
        return (valid, checksum)
    }
    for input in inputs {
        guard let number = try? engine.parse(input.text, defaultRegion: input.defaultRegion) else { continue }
        if engine.isValid(number) { valid += 1 }
        checksum &+= engine.type(of: number) == .mobile ? 1 : 0
        checksum &+= useString ? engine.formatE164(number).utf8.count : number.e164?.count ?? 0
    }
    return (valid, checksum)
}

/// `pass()` over the UTF-8 of each input (`parse(utf8:defaultRegion:)`, `parse(e164UTF8:)`).
func passOverBytes() -> (valid: Int, checksum: Int) {
    corpusBytes.withUnsafeBufferPointer { all in
        var valid = 0
        var checksum = 0
        for input in byteInputs {
            let bytes = UnsafeBufferPointer(rebasing: all[input.start..<input.end])
            guard let number = useE164 ? try? engine.parse(e164UTF8: bytes)
                                       : try? engine.parse(utf8: bytes, defaultRegion: input.defaultRegion) else { continue }
            if useClassify || useE164 {
                let (region, type) = engine.classify(number)
                if type != .unknown { valid += 1 }
                checksum &+= region == nil ? 0 : 1
            } else {
                if engine.isValid(number) { valid += 1 }
                checksum &+= engine.type(of: number) == .mobile ? 1 : 0
            }
            checksum &+= useString ? engine.formatE164(number).utf8.count : number.e164?.count ?? 0
        }
        return (valid, checksum)
    }
}

let warm = pass()  // warm-up, outside the timed passes
let rssAfter = residentKiB()
FileHandle.standardError.write("PhoneNumbersThroughput: metadata ready in \(readyNanoseconds / 1000) us (first use); resident memory +\(rssAfter - rssBefore) KiB after engine + one pass over the corpus\n".data(using: .utf8)!)
var seconds: [Double] = []
for _ in 0..<repeatCount {
    let start = DispatchTime.now().uptimeNanoseconds
    let result = pass()
    let end = DispatchTime.now().uptimeNanoseconds
    precondition(result.valid == warm.valid)
    seconds.append(Double(end - start) / 1e9)
}
seconds.sort()
let median = seconds[seconds.count / 2]
let n = Double(inputs.count)
FileHandle.standardError.write("PhoneNumbersThroughput: \(inputs.count) lines x \(repeatCount) passes, median \(String(format: "%.3f", median)) s\n".data(using: .utf8)!)
print("\(useCheck ? "smskit_check" : useString ? "smskit_string" : "smskit")\(useBytes ? "_bytes" : "") numbers_per_sec=\(String(format: "%.0f", n / median)) ns_per_number=\(String(format: "%.1f", median * 1e9 / n)) valid=\(warm.valid)")
