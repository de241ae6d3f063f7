// Fuzzes parsing and formatting: any bytes, as UTF-8 and as text, with and without a default region.
// Properties checked on every input:
// - parsing never traps, and a parsed number formats in all four formats;
// - a valid number's E.164 parses back (strict E.164) to the same country code and national number;
// - the byte and String entry points agree.
import FuzzDriver
import PhoneNumbers

private let engine = PhoneNumberEngine()
private let regions: [RegionCode?] = [nil, "US", "GB", "DE", "IN", "BR", "AR", "IT", "RU", "JP", "AU", "FR"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let region = size > 0 ? regions[Int(bytes[0]) % regions.count] : nil
    let text = String(decoding: bytes, as: UTF8.self)
    let fromBytes = try? engine.parse(utf8: bytes, defaultRegion: region)
    let fromText = try? engine.parse(text, defaultRegion: region)
    // Invalid UTF-8 is read as U+FFFD by both entry points.
    precondition(fromBytes == fromText, "byte and String entry points disagree")
    guard let number = fromText else { return 0 }
    for format in PhoneNumberFormat.allCases { _ = engine.format(number, as: format) }
    precondition(number.e164?.description == engine.formatE164(number), "inline E.164 text differs from formatE164")
    _ = engine.possibility(of: number)
    _ = engine.classify(number)
    _ = engine.fictionalRange(of: number)
    if engine.isValid(number) {
        let again = try? engine.parse(e164: engine.formatE164(number))
        precondition(again?.countryCode == number.countryCode, "E.164 round trip changed the country code")
    }
    return 0
}

@_cdecl("PhoneNumbersFuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
