// Fuzzes rendering with arbitrary argument values and locale strings. The input is split at the
// first two 0xFF bytes into locale, code and app name; the first byte picks the message.
// Properties checked on every input:
// - rendering gives a message or a typed error, never a trap;
// - a rendered message contains no unfilled argument ("{code}", "{appName}", "{minutes") unless an
//   argument value itself contains braces (values are printed as they are), and no bidi override.
import FuzzDriver
import SMSTemplates

private let renderer = try! SMSTemplateRenderer()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let bytes = UnsafeBufferPointer(start: data + 1, count: size - 1)
    let fields = bytes.split(separator: 0xFF, maxSplits: 2, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    let locale = fields.count > 0 ? fields[0] : ""
    let code = fields.count > 1 ? fields[1] : "123456"
    let app = fields.count > 2 ? fields[2] : "Acme"
    let id = MessageID.bundled[Int(data[0]) % MessageID.bundled.count]
    let minutes = id == .verificationCodeWithExpiry ? Int(data[0]) : nil
    guard let message = try? renderer.render(id, locale: locale, code: code, appName: app, minutes: minutes) else { return 0 }
    // Argument values are printed as they are, so only check when they bring no braces themselves.
    if !code.contains("{"), !app.contains("{") {
        for placeholder in ["{code}", "{appName}", "{minutes"] {
            precondition(!message.text.contains(placeholder), "unfilled argument \(placeholder)")
        }
    }
    for scalar in message.text.unicodeScalars {
        precondition(!(0x202A...0x202E).contains(scalar.value), "bidi override in the output")
    }
    return 0
}

@_cdecl("SMSTemplatesFuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
