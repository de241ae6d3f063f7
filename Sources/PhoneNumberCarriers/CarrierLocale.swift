/// The language (with optional script and region) in which a carrier name is wanted, resolved
/// once, when it is made, into the data's locales to try, in libphonenumber's order:
///
/// 1. zh-TW, zh-HK and zh-MO mean zh-Hant;
/// 2. the full locale, then language and script, then language and region, then the language;
/// 3. English, except for Chinese, Japanese and Korean, which have no English fallback.
///
/// The data has names in ar, be, en, fa, kk, ko, ru, uk, zh and zh-Hant; any other well-formed
/// language gets English names.
///
/// ```swift
/// let locale = CarrierLocale("zh-Hant-TW")!    // also "zh_Hant_TW"
/// CarrierLocale("en")!.identifier               // "en"
/// CarrierLocale("e")                             // nil: not a language code
/// ```
public struct CarrierLocale: Sendable, Hashable, CustomStringConvertible {
    /// The data's locales, in the tables' index order (the generator checks this list).
    static let dataLocales = ["ar", "be", "en", "fa", "kk", "ko", "ru", "uk", "zh", "zh_Hant"]

    /// The locale as given, normalized: "zh_Hant_TW".
    public let identifier: String
    /// Up to eight candidate locale indices, one a byte, each plus one, first in the lowest byte.
    let candidates: UInt64

    /// English.
    public static let english = CarrierLocale("en")!

    /// Parses a language tag: a language of two or three letters, then optionally a script of
    /// four letters and a region of two letters or three digits, separated by "-" or "_"
    /// (letters in any case). Nil for anything else.
    public init?(_ tag: some StringProtocol) {
        guard tag.utf8.count <= 16 else { return nil }
        let tag = String(tag)
        let parts = tag.utf8.split(omittingEmptySubsequences: false) { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
        guard (1 ... 3).contains(parts.count) else { return nil }
        func letters(_ part: Substring.UTF8View) -> Bool {
            part.allSatisfy { ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") }
        }
        func text(_ part: some Sequence<UInt8>, upper: Bool) -> String {
            String(decoding: part.map { upper ? $0 & ~0x20 : $0 | 0x20 }, as: UTF8.self)
        }
        let languagePart = parts[0]
        guard (2 ... 3).contains(languagePart.count), letters(languagePart) else { return nil }
        let language = text(languagePart, upper: false)
        var script: String?
        var region: String?
        for part in parts.dropFirst() {
            if part.count == 4, letters(part), script == nil, region == nil {
                script = text(part.prefix(1), upper: true) + text(part.dropFirst(), upper: false)
            } else if part.count == 2, letters(part), region == nil {
                region = text(part, upper: true)
            } else if part.count == 3, part.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), region == nil {
                region = text(part, upper: false)
            } else {
                return nil
            }
        }
        identifier = [language, script, region].compactMap { $0 }.joined(separator: "_")
        candidates = Self.resolve(language: language, script: script, region: region)
    }

    /// libphonenumber's (PyPI phonenumbers' `_find_lang`) order of locales to try.
    static func resolve(language: String, script: String?, region: String?) -> UInt64 {
        var full = language
        if let script { full += "_" + script }
        if let region { full += "_" + region }
        var order: [String] = []
        if ["zh_TW", "zh_HK", "zh_MO"].contains(full) { order.append("zh_Hant") }
        order.append(full)
        if let script { order.append(language + "_" + script) }
        if let region { order.append(language + "_" + region) }
        order.append(language)
        if language != "zh", language != "ja", language != "ko" { order.append("en") }
        var packed: UInt64 = 0
        var shift: UInt64 = 0
        var seen: Set<Int> = []
        for name in order {
            guard let index = dataLocales.firstIndex(of: name), seen.insert(index).inserted, shift < 64 else { continue }
            packed |= UInt64(index + 1) << shift
            shift += 8
        }
        return packed
    }

    /// The identifier, e.g. "zh_Hant_TW".
    public var description: String { identifier }

    public static func == (a: CarrierLocale, b: CarrierLocale) -> Bool { a.identifier == b.identifier }
    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }
}
