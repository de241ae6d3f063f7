import Foundation
@testable import SMSTemplates
import SMSKitTestSupport
import Testing

/// What a hostile caller or a hostile file cannot do to the renderer.
///
/// - Argument values are data: template syntax in a value comes out as written, and the
///   controls that could reorder or hide text (bidi embeddings, overrides, isolates, marks, C0
///   and C1 controls) are removed, in every bundled locale and message.
/// - A locale string is a language tag, never a path: it only selects among catalogs already
///   loaded, so `../../etc` reaches no file.
/// - Catalog files of absurd size, devices and pipes are refused without being read into memory.
@Suite struct SMSTemplatesSecurityTests {
    /// The characters the renderer promises to remove from values, written out here (not taken
    /// from the implementation): C0 and C1 controls, ALM, LRM, RLM, LRE/RLE/PDF/LRO/RLO, and the
    /// isolates LRI/RLI/FSI/PDI.
    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    static let hostileScalars: [Unicode.Scalar] = Array(
        "{}'#|,= {code} {appName} {minutes, plural, other {#}} ''{''} Acme مرحبا שלום 中文 😀 é"
            .unicodeScalars)
        + [0x0, 0x7, 0x9, 0xA, 0xD, 0x1B, 0x7F, 0x85, 0x9F, 0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D,
           0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200B, 0x200D, 0xFEFF].map { Unicode.Scalar($0)! }

    /// A marker that no bundled message contains; values start with it so that their first strong
    /// character is Latin (and a right-to-left message's leading mark, if any, is the same as for
    /// the marker alone).
    static let marker = "QQXQ"

    @Test("hostile app names render as their cleaned text in every bundled locale and message", arguments: 0..<2)
    func valuesAreInert(seed: Int) throws {
        let renderer = try SMSTemplateRenderer()
        var random = SplitMix64(seed: 0xB1D1 &+ UInt64(seed))
        var failures: [String] = []
        var checked = 0
        for locale in SMSTemplateRenderer.bundledLocales {
            for id in MessageID.bundled {
                let minutes = id == .verificationCodeWithExpiry ? 7 : nil
                let baseline = try renderer.render(id, locale: locale, code: "4242", appName: Self.marker, minutes: minutes)
                #expect(baseline.text.components(separatedBy: Self.marker).count == 2, "\(locale) \(id) shows the name once")
                for _ in 0..<25 {
                    var tail = String.UnicodeScalarView()
                    for _ in 0..<Int.random(in: 1...40, using: &random) {
                        tail.append(Self.hostileScalars.randomElement(using: &random)!)
                    }
                    let name = Self.marker + String(tail)
                    let cleaned = Self.marker + String(String.UnicodeScalarView(tail.filter { !Self.isForbidden($0) }))
                    let sms = try renderer.render(id, locale: locale, code: "4242", appName: name, minutes: minutes)
                    // Isolates depend on the whole cleaned name (its edges and directions): `_Bidi`.
                    let isRightToLeft = renderer.catalog(for: baseline.locale).map { _ICU.isRightToLeft($0.localeID) } ?? false
                    let shown = _Bidi.isolationReason(cleaned, inRightToLeftMessage: isRightToLeft) == nil
                        ? cleaned : "\u{2068}" + cleaned + "\u{2069}"
                    let expected = baseline.text.replacingOccurrences(of: Self.marker, with: shown)
                    checked += 1
                    if sms.text != expected, failures.count < 10 {
                        failures.append("\(locale) \(id) \(name.unicodeScalars.map { String($0.value, radix: 16) }): \(sms.text)")
                    }
                    // Only the renderer's own isolates, balanced; no other control anywhere.
                    let added = Array(sms.text.unicodeScalars.filter(Self.isForbidden))
                    if added != Array(expected.unicodeScalars.filter(Self.isForbidden)), failures.count < 10 {
                        failures.append("\(locale) \(id): controls \(added.map { String($0.value, radix: 16) })")
                    }
                    let removed = tail.contains(where: Self.isForbidden)
                    if removed != sms.diagnostics.contains(where: { $0.code == .argumentSanitized }), failures.count < 10 {
                        failures.append("\(locale) \(id): sanitized diagnostic missing or spurious")
                    }
                }
            }
        }
        #expect(checked == SMSTemplateRenderer.bundledLocales.count * MessageID.bundled.count * 25)
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test("a hostile code is refused or folded to 1 to 16 ASCII letters, digits and hyphens")
    func hostileCodes() throws {
        let renderer = try SMSTemplateRenderer()
        var random = SplitMix64(seed: 0xC0DE)
        var refused = 0
        for _ in 0..<2_000 {
            var code = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...20, using: &random) {
                code.append(Bool.random(using: &random) ? Unicode.Scalar(UInt8.random(in: 0x30...0x39, using: &random))
                                                         : Self.hostileScalars.randomElement(using: &random)!)
            }
            do {
                let sms = try renderer.render(.verificationCode, locale: "en", code: String(code), appName: "Acme")
                let shown = try #require(sms.text.split(separator: " ").first)
                #expect((1...16).contains(shown.count))
                #expect(shown.utf8.allSatisfy { $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) },
                        "code \(code.map { String($0.value, radix: 16) }) shown as \(shown)")
            } catch {
                #expect((error as? TemplateError)?.code == .invalidCode)
                refused += 1
            }
        }
        #expect(refused > 100)
    }

    // MARK: Locale strings are not paths

    /// Locale strings shaped like paths, URLs and encodings of them.
    static let pathLikeLocales = [
        "../secret", "../../etc/passwd", "/etc/passwd", "..", ".", "./en", "en/../../secret", "en-GB/../../..",
        "..\\..\\secret", "%2e%2e%2fsecret", "en\u{0}../secret", "file:///etc/passwd", "secret", "SECRET", "se-cret",
        "en/../secret", "~/secret", "en-GB\n../secret", "\u{202E}terces/..", "catalogs/../secret", "../catalogs/en-GB",
    ]

    @Test("a locale string only selects among loaded catalogs: no path reaches a file")
    func localesAreNotPaths() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("smskit-security-\(UUID().uuidString)")
        let catalogs = root.appendingPathComponent("catalogs")
        try FileManager.default.createDirectory(at: catalogs, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try "verification_code = {code} is your {appName} code (en-GB file).\n"
            .write(to: catalogs.appendingPathComponent("en-GB.txt"), atomically: true, encoding: .utf8)
        // Files a traversal would reach: next to the catalogs, and named like the locale strings.
        for name in ["secret.txt", "passwd.txt", "secret", "..txt"] {
            try "verification_code = {code} LEAKED {appName}\n".write(to: root.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        try "verification_code = {code} LEAKED {appName}\n".write(to: catalogs.appendingPathComponent(".hidden.txt"), atomically: true, encoding: .utf8)

        let renderer = try SMSTemplateRenderer(catalogs: TemplateCatalog.load(directory: catalogs.path))
        let known = Set(renderer.locales)
        #expect(known.contains("en-GB") && !known.contains { $0.contains("secret") || $0.contains(".") || $0.contains("/") })

        var random = SplitMix64(seed: 0x9A7)
        let pieces = ["..", "/", "\\", "secret", "etc", "passwd", "en", "GB", "-", "_", ".", "%2f", "\u{0}", "catalogs", "txt"]
        var locales = Self.pathLikeLocales
        for _ in 0..<500 {
            locales.append((0..<Int.random(in: 1...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined())
        }
        for locale in locales {
            let resolution = renderer.resolveLocale(locale)
            #expect(known.contains(resolution.locale), "'\(locale)' resolved to \(resolution.locale)")
            #expect(!resolution.chain.contains { $0.contains("/") || $0.contains("..") || $0.contains("\\") })
            do {
                let sms = try renderer.render(.verificationCode, locale: locale, code: "1234", appName: "Acme")
                #expect(!sms.text.contains("LEAKED"), "'\(locale)' reached a file")
                #expect(known.contains(sms.locale))
            } catch {
                // Refusing a malformed tag is fine; it must be the typed locale error.
                #expect(error.code == .invalidLocale, "'\(locale)': \(error)")
            }
        }
    }

    // MARK: Absurd catalog files

    /// A fresh directory for one test.
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("smskit-catalog-size-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("a catalog file larger than 1 MiB is refused before it is read, however large")
    func hugeFilesAreRefused() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Sparse files: 1 MiB + 1 byte, and 64 GiB, which reading would take all memory.
        for (name, size) in [("en.txt", (1 << 20) + 1), ("fr.txt", 1 << 36)] {
            let path = directory.appendingPathComponent(name).path
            #expect(FileManager.default.createFile(atPath: path, contents: nil))
            #expect(truncate(path, off_t(size)) == 0)
            let started = Date()
            #expect { try TemplateCatalog(contentsOfFile: path) } throws: { error in
                let error = error as? TemplateError
                return error?.code == .fileUnreadable && error?.message.contains("larger than 1 MiB") == true && error?.file == path
            }
            #expect(Date().timeIntervalSince(started) < 5)
        }
        // A directory holding one is refused, naming the file.
        #expect { try TemplateCatalog.load(directory: directory.path) } throws: { ($0 as? TemplateError)?.file?.hasSuffix("en.txt") == true }
    }

    @Test("exactly 1 MiB is still read")
    func limitIsInclusive() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let message = "verification_code = {code} is your {appName} code.\n"
        let comment = "# " + String(repeating: "x", count: 97) + "\n"
        var text = message
        while text.utf8.count + comment.utf8.count <= 1 << 20 { text += comment }
        text += String(repeating: "#", count: (1 << 20) - text.utf8.count)
        #expect(text.utf8.count == 1 << 20)
        let path = directory.appendingPathComponent("en.txt").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let catalog = try TemplateCatalog(contentsOfFile: path)
        #expect(catalog.messageIDs == [.verificationCode])
    }

    @Test("devices and pipes are read no further than the limit, and never block on open")
    func devicesAndPipes() throws {
        let started = Date()
        #expect { try TemplateCatalog(contentsOfFile: "/dev/zero", locale: "en") } throws: {
            ($0 as? TemplateError)?.message.contains("larger than 1 MiB") == true
        }
        #expect { try TemplateCatalog(contentsOfFile: "/dev/urandom", locale: "en") } throws: {
            ($0 as? TemplateError)?.code == .fileUnreadable
        }
        // A FIFO with no writer: open(2) would block for ever without O_NONBLOCK.
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("en.txt").path
        #expect(mkfifo(fifo, 0o600) == 0)
        do {
            let catalog = try TemplateCatalog(contentsOfFile: fifo)
            #expect(catalog.messageIDs.isEmpty)
        } catch {
            #expect(error.code == .fileUnreadable)
        }
        #expect { try TemplateCatalog(contentsOfFile: directory.path, locale: "en") } throws: {
            ($0 as? TemplateError)?.message.contains("directory") == true
        }
        #expect(Date().timeIntervalSince(started) < 10)
    }

    /// ICU formats nested arguments recursively: before the limits, a catalog message of 20,000
    /// nested selects crashed the renderer with a stack overflow (SIGSEGV in
    /// icu::MessageFormat::format), and ICU's parser recurses too.
    @Test("deeply nested and very large patterns give a typed error, not a stack overflow")
    func deepPatterns() throws {
        func nested(_ depth: Int) -> String {
            String(repeating: "{a, select, other {", count: depth) + "{code}" + String(repeating: "}}", count: depth)
        }
        let id = try #require(MessageID(rawValue: "deep"))
        // 16 levels are fine.
        let catalog = try TemplateCatalog(parsing: "deep = <\(nested(16))>\n", locale: "en")
        let renderer = try SMSTemplateRenderer(catalogs: [catalog], includeBundled: false)
        #expect(try renderer.render(id, locale: "en", arguments: ["a": "x", "code": "1"]).text == "<1>")
        // Deeper is refused when the catalog is read, with the line and column of the culprit.
        for depth in [17, 300, 5_000, 30_000] {
            #expect { try TemplateCatalog(parsing: "deep = \(nested(depth))\n", locale: "en", file: "deep.txt") } throws: { error in
                let error = error as? TemplateError
                return error?.code == .unsupportedArgument && error?.file == "deep.txt" && error?.line == 1 && error?.column != nil
            }
        }
        let wide = (0..<2_000).map { "{a\($0)}" }.joined(separator: " ")
        #expect { try TemplateCatalog(parsing: "wide = \(wide)\n", locale: "en") } throws: {
            ($0 as? TemplateError)?.message.contains("too many arguments") == true
        }
        // Quoted braces count too, but a message needs far fewer than the limit.
        let quoted = String(repeating: "'{'", count: 1_000) + " {code}"
        #expect(try TemplateCatalog(parsing: "quoted = \(quoted)\n", locale: "en").messageIDs.count == 1)
    }
}
