// Fuzzes the tel: URI and extension paths of the parser. Byte 0 picks a form, byte 1 the default
// region; the rest is split at 0xFF into the number part A, a second part B (phone-context or
// subaddress) and the extension D, which are put into the form:
//   tel:A   tel:A;phone-context=B   tel:A;ext=D   tel:A;ext=D;phone-context=B   tel:A;isub=B
//   tel:A;ext=D;isub=B   A ext. D   A x D   A #D   A D#   A,,D   A;D   A extension D   A доб. D ...
// Properties checked on every input:
// - parsing gives a number or a typed error, never a trap; the byte and String entry points agree;
// - a valid number round-trips: its RFC 3966 and E.164 forms parse back (without a default region)
//   to the same number, and its international form does when the extension is short enough for
//   the region's extension prefix to be read back (libphonenumber's limits);
// - when A is a plain number (an optional leading '+', ASCII digits, spaces, dashes, dots,
//   brackets; at least 3 digits) and D is ASCII digits within the form's limit, a number parsed
//   from the form has exactly D as its extension (or none, for the forms without one).
import FuzzDriver
import PhoneNumbers

private let engine = PhoneNumberEngine()
private let regions: [RegionCode?] = [nil, "US", "GB", "DE", "IN", "BR", "AR", "IT", "RU", "JP", "AU", "FR", "MX", "ES", "CN"]

/// A way to write a number with an extension or URI parameters.
private struct Form: Sendable {
    /// The text, with A, B and D put in.
    var build: @Sendable (String, String, String) -> String
    /// The most extension digits the form's pattern takes; 0 when the form has no extension; nil
    /// when B and D can both make one (no claim).
    var extensionLimit: Int?
    /// Whether the form puts B into the number (a phone-context), so that A must not start with '+'.
    var usesContext = false
}

private let forms: [Form] = [
    Form(build: { a, _, _ in "tel:\(a)" }, extensionLimit: 0),
    Form(build: { a, b, _ in "tel:\(a);phone-context=\(b)" }, extensionLimit: 0, usesContext: true),
    Form(build: { a, _, d in "tel:\(a);ext=\(d)" }, extensionLimit: 20),
    Form(build: { a, b, d in "tel:\(a);ext=\(d);phone-context=\(b)" }, extensionLimit: 20, usesContext: true),
    Form(build: { a, b, _ in "tel:\(a);isub=\(b)" }, extensionLimit: 0),
    Form(build: { a, b, d in "tel:\(a);ext=\(d);isub=\(b)" }, extensionLimit: 20),
    Form(build: { a, b, d in "tel:\(a);isub=\(b);phone-context=\(d)" }, extensionLimit: 0, usesContext: true),
    Form(build: { a, _, d in "\(a) ext. \(d)" }, extensionLimit: 20),
    Form(build: { a, _, d in "\(a) extension \(d)" }, extensionLimit: 20),
    Form(build: { a, _, d in "\(a) EXT\(d)" }, extensionLimit: 20),
    Form(build: { a, _, d in "\(a), ext: \(d)#" }, extensionLimit: 20),
    Form(build: { a, _, d in "\(a) доб. \(d)" }, extensionLimit: 20),
    Form(build: { a, _, d in "\(a) anexo \(d)" }, extensionLimit: 20),
    Form(build: { a, _, d in "\(a) ｅｘｔｎ \(d)" }, extensionLimit: 20),
    Form(build: { a, _, d in "\(a) x\(d)" }, extensionLimit: 9),
    Form(build: { a, _, d in "\(a) ｘ\(d)" }, extensionLimit: 9),
    Form(build: { a, _, d in "\(a) #\(d)" }, extensionLimit: 9),
    Form(build: { a, _, d in "\(a) int \(d)" }, extensionLimit: 9),
    Form(build: { a, _, d in "\(a) ~\(d)" }, extensionLimit: 9),
    Form(build: { a, _, d in "\(a) \(d)#" }, extensionLimit: 6),
    Form(build: { a, _, d in "\(a),,\(d)" }, extensionLimit: 15),
    Form(build: { a, _, d in "\(a);\(d)" }, extensionLimit: 15),
    Form(build: { a, _, d in "\(a),\(d)" }, extensionLimit: 9),
    Form(build: { a, b, d in "\(a)\(b)\(d)" }, extensionLimit: nil),
]

/// An optional leading '+', then ASCII digits and visual separators, with at least 3 digits.
private func isPlainNumber(_ text: String, allowingPlus: Bool) -> Bool {
    var digits = 0
    for (offset, byte) in text.utf8.enumerated() {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
        case UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "("), UInt8(ascii: ")"): break
        case UInt8(ascii: "+") where offset == 0 && allowingPlus: break
        default: return false
        }
    }
    return digits >= 3
}

private func parseBack(_ text: String) -> PhoneNumber? { try? engine.parse(text, defaultRegion: nil) }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let form = forms[Int(data[0]) % forms.count]
    let region = regions[Int(data[1]) % regions.count]
    let parts = UnsafeBufferPointer(start: data + 2, count: size - 2)
        .split(separator: 0xFF, maxSplits: 2, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    let a = parts[0]
    let b = parts.count > 1 ? parts[1] : "example.com"
    let d = parts.count > 2 ? parts[2] : "123"
    var text = form.build(a, b, d)

    let parsed = try? engine.parse(text, defaultRegion: region)
    let fromBytes = text.withUTF8 { try? engine.parse(utf8: $0, defaultRegion: region) }
    precondition(parsed == fromBytes, "byte and String entry points disagree on \(text.debugDescription)")
    guard let number = parsed else { return 0 }
    for format in PhoneNumberFormat.allCases { _ = engine.format(number, as: format) }

    if let limit = form.extensionLimit, isPlainNumber(a, allowingPlus: !form.usesContext),
       d.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), limit == 0 || (1...limit).contains(d.utf8.count) {
        let expected: String? = limit == 0 ? nil : d
        precondition(number.extension == expected,
                     "\(text.debugDescription): extension \(String(describing: number.extension)), expected \(String(describing: expected))")
    }

    guard engine.isValid(number) else { return 0 }
    let rfc3966 = engine.format(number, as: .rfc3966)
    precondition(parseBack(rfc3966) == number, "\(text.debugDescription): \(rfc3966) does not parse back to \(number)")
    let e164 = engine.formatE164(number)
    var withoutExtension = number
    withoutExtension.extension = nil
    precondition(parseBack(e164) == withoutExtension, "\(text.debugDescription): \(e164) does not parse back")
    if (number.extension?.unicodeScalars.count ?? 0) <= 6 {
        let international = engine.format(number, as: .international)
        precondition(parseBack(international) == number, "\(text.debugDescription): \(international) does not parse back to \(number)")
    }
    return 0
}

@_cdecl("TelURIFuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
