// Fuzzes catalog loading and rendering. The input is split at 0xFF bytes (never part of UTF-8):
//   flags (one byte), catalog file, 0xFF, catalog locale, 0xFF, requested locale, 0xFF, values ...
// The catalog bytes are written to a file and loaded with TemplateCatalog(contentsOfFile:locale:);
// every message it defines is rendered, for the catalog's locale and for the requested one, with
// the values given to every argument name the pattern mentions (plus code, appName, minutes).
// Flags: bit 0 layers the catalog over the bundled ones, bit 1 forces Latin digits, bit 2 turns
// bidi isolation off, bits 3-4 make each value an integer or a decimal instead of text.
// Properties checked on every input:
// - loading and rendering give a catalog, a message or a TemplateError, never a trap;
// - the output has no '{' unless a value or the catalog (through ICU quoting, '{...}') brings
//   one: an argument the template mentions is always filled;
// - the output has no bidi embedding or override (U+202A-U+202E) unless the catalog has one;
// - a message rendered with all-text values (the literal-pieces path, no ICU call) equals the
//   same message rendered through ICU (one value given as the equal integer).
import FuzzDriver
import SMSTemplates

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

private let path = "/tmp/smskit-fuzz-catalog-\(getpid()).txt"

/// Writes the catalog bytes to the scratch file.
private func writeCatalog(_ bytes: ArraySlice<UInt8>) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    precondition(fd >= 0, "cannot create \(path)")
    defer { close(fd) }
    let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    precondition(written == bytes.count, "cannot write \(path)")
}

/// The argument names a pattern mentions: every `{name` followed by `}` or `,` (a superset of
/// what ICU sees: quoted text is scanned too; extra names only give a diagnostic).
private func argumentNames(_ pattern: String) -> [String] {
    var names: Set<String> = ["code", "appName", "minutes"]
    let scalars = Array(pattern.unicodeScalars)
    var index = 0
    while index < scalars.count {
        defer { index += 1 }
        guard scalars[index] == "{" else { continue }
        var end = index + 1
        while end < scalars.count, scalars[end] == " " { end += 1 }
        let start = end
        while end < scalars.count, scalars[end].properties.isXIDContinue { end += 1 }
        var after = end
        while after < scalars.count, scalars[after] == " " { after += 1 }
        if end > start, after < scalars.count, scalars[after] == "}" || scalars[after] == "," {
            names.insert(String(String.UnicodeScalarView(scalars[start..<end])))
        }
    }
    return names.sorted()
}

private func isBidiEmbedding(_ scalar: Unicode.Scalar) -> Bool { (0x202A...0x202E).contains(scalar.value) }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let flags = data[0]
    let parts = UnsafeBufferPointer(start: data + 1, count: size - 1)
        .split(separator: 0xFF, omittingEmptySubsequences: false).map { Array($0) }
    guard parts.count >= 2 else { return 0 }
    writeCatalog(parts[0][...])
    let catalogLocale = String(decoding: parts[1], as: UTF8.self)
    let requested = parts.count > 2 ? String(decoding: parts[2], as: UTF8.self) : catalogLocale
    let texts = parts.count > 3 ? parts[3...].map { String(decoding: $0, as: UTF8.self) } : ["123456", "Acme"]

    guard let catalog = try? TemplateCatalog(contentsOfFile: path, locale: catalogLocale) else { return 0 }
    let source = String(decoding: parts[0], as: UTF8.self)
    let sourceHasQuoting = source.contains("'")
    let sourceHasEmbedding = source.unicodeScalars.contains(where: isBidiEmbedding)
    var options = RenderOptions(latinDigits: flags & 2 != 0, bidiIsolation: flags & 4 != 0 ? .never : .automatic)
    options.encodingAnalysis = .segmentCountOnly
    guard let renderer = try? SMSTemplateRenderer(catalogs: [catalog], includeBundled: flags & 1 != 0,
                                                   defaultLocale: catalog.locale) else { return 0 }

    for id in catalog.messageIDs {
        guard let pattern = catalog.pattern(for: id) else { preconditionFailure("a listed message has no pattern") }
        var arguments: [String: TemplateValue] = [:]
        for (position, name) in argumentNames(pattern).enumerated() {
            let text = texts[position % texts.count]
            switch (flags >> 3) & 3 {
            case 1 where name != "code": arguments[name] = .integer(text.utf8.count)
            case 2 where name != "code": arguments[name] = .decimal(Double(text.utf8.count) / 4)
            default: arguments[name] = name == "minutes" ? .integer(text.utf8.count) : .text(text)
            }
        }
        let valuesHaveBrace = arguments.values.contains { "\($0)".contains("{") }
        for locale in [catalog.locale, requested] {
            guard let message = try? renderer.render(id, locale: locale, arguments: arguments, options: options) else { continue }
            if !sourceHasQuoting && !valuesHaveBrace {
                precondition(!message.text.contains("{"), "\(id): an argument is left unfilled in \(message.text.debugDescription)")
            }
            if !sourceHasEmbedding {
                precondition(!message.text.unicodeScalars.contains(where: isBidiEmbedding),
                             "\(id): a bidi embedding or override in \(message.text.debugDescription)")
            }
            // The literal-pieces path against ICU: give one single-digit text value as an integer.
            guard options.latinDigits, arguments.values.allSatisfy({ if case .text = $0 { true } else { false } }) else { continue }
            for (name, value) in arguments.sorted(by: { $0.key < $1.key }) where name != "code" {
                guard case .text(let text) = value, text.utf8.count == 1, let digit = text.utf8.first,
                      digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { continue }
                var numeric = arguments
                numeric[name] = .integer(Int(digit - UInt8(ascii: "0")))
                guard let throughICU = try? renderer.render(id, locale: locale, arguments: numeric, options: options) else { continue }
                precondition(throughICU.text == message.text,
                             "\(id): pieces give \(message.text.debugDescription), ICU gives \(throughICU.text.debugDescription)")
                break
            }
        }
    }
    return 0
}

@_cdecl("TemplateCatalogFuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
