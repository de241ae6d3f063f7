// Fuzzes finding numbers in text: any bytes, with and without a default region, at each leniency.
// Properties checked on every input:
// - the search never traps and ends;
// - matches are in order, do not overlap, lie inside the text, and their offsets in both units
//   give back their raw text;
// - each match's raw text parses to its number.
import FuzzDriver
import PhoneNumbers

private let engine = PhoneNumberEngine()
private let regions: [RegionCode?] = [nil, "US", "GB", "DE", "IN", "BR", "RU", "JP", "FR", "EG"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let region = size > 0 ? regions[Int(bytes[0]) % regions.count] : nil
    let leniency = PhoneNumberLeniency.allCases[size > 1 ? Int(bytes[1]) % 4 : 1]
    let text = String(decoding: bytes, as: UTF8.self)
    let scalars = Array(text.unicodeScalars)
    let utf8 = Array(text.utf8)
    var end = 0
    for match in engine.findNumbers(inUTF8: bytes, defaultRegion: region, leniency: leniency) {
        precondition(match.range.lowerBound >= end && match.range.upperBound <= scalars.count, "match out of order or bounds")
        end = match.range.upperBound
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[match.range])
        precondition(String(view) == match.rawString, "scalar offsets do not give the raw text")
        precondition(String(decoding: utf8[match.utf8Range], as: UTF8.self) == match.rawString, "UTF-8 offsets do not give the raw text")
        precondition((try? engine.parse(match.rawString, defaultRegion: region)) == match.number, "raw text parses to another number")
    }
    return 0
}

@_cdecl("MatcherFuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
