import CSMSKitICU

/// Swift access to the CSMSKitICU wrapper. Internal: not API.
enum _ICU {
    /// Calls a C function that writes a NUL-terminated string into a buffer and returns its length or -1.
    @inline(__always)
    static func string(capacity: Int = 160, _ body: (UnsafeMutablePointer<CChar>, Int32) -> Int32) -> String? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer -> String? in
            guard let base = buffer.baseAddress else { return nil }
            let length = body(base, Int32(capacity))
            guard length >= 0, Int(length) < capacity else { return nil }
            return String(decoding: UnsafeRawBufferPointer(start: base, count: Int(length)).bindMemory(to: UInt8.self), as: UTF8.self)
        }
    }

    /// BCP 47 (or `pt_BR`-style) tag → canonical ICU locale ID, or nil when not well-formed.
    static func canonicalize(_ tag: String) -> String? {
        var tag = tag
        return tag.withUTF8 { utf8 -> String? in
            guard utf8.count > 0, utf8.count <= 128 else { return nil }
            return utf8.withMemoryRebound(to: CChar.self) { chars in
                string { smskit_icu_locale_canonicalize(chars.baseAddress, Int32(chars.count), $0, $1) }
            }
        }
    }

    static func addLikelySubtags(_ id: String) -> String? {
        string { smskit_icu_locale_add_likely(id, $0, $1) }
    }

    static func parent(_ id: String) -> String? {
        string { smskit_icu_locale_parent(id, $0, $1) }
    }

    static func languageTag(_ id: String) -> String? {
        string { smskit_icu_locale_to_tag(id, $0, $1) }
    }

    static func keyword(_ id: String, _ keyword: String) -> String? {
        string(capacity: 64) { smskit_icu_locale_keyword(id, keyword, $0, $1) }
    }

    /// The current ISO 3166-1 region codes ICU knows, e.g. `["AD", "AE", ...]`.
    static func isoRegions() -> [String] {
        string(capacity: 2048) { smskit_icu_iso_regions($0, $1) }?.split(separator: " ").map(String.init) ?? []
    }

    static func isRightToLeft(_ id: String) -> Bool { smskit_icu_locale_is_rtl(id) != 0 }

    /// The plural categories ICU gives for a locale, e.g. `["few", "many", "one", "other"]` for `ru`.
    static func pluralCategories(_ id: String, ordinal: Bool) -> [String]? {
        string(capacity: 128) { smskit_icu_plural_keywords(id, ordinal ? 1 : 0, $0, $1) }
            .map { $0.split(separator: " ").map(String.init) }
    }

    static func digitValue(_ scalar: Unicode.Scalar) -> Int? {
        let value = smskit_icu_digit_value(scalar.value)
        return value >= 0 ? Int(value) : nil
    }

    enum Direction { case neutral, leftToRight, rightToLeft }

    static func firstStrongDirection(_ text: String) -> Direction {
        var text = text
        let value = text.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { smskit_icu_first_strong_direction($0.baseAddress, Int32($0.count)) }
        }
        switch value {
        case 1: return .leftToRight
        case 2: return .rightToLeft
        default: return .neutral
        }
    }

    /// One paragraph laid out by ICU's bidi algorithm: its direction and, per UTF-16 unit of the
    /// text, its visual position from the left. For checks of how handsets will show a message.
    static func bidiLayout(_ text: String) -> (isRightToLeft: Bool, visual: [Int])? {
        let units = Array(text.utf16)
        guard !units.isEmpty, units.count <= Int(Int32.max) else { return nil }
        var visual = [Int32](repeating: -1, count: units.count)
        var level: Int32 = 0
        let written = units.withUnsafeBufferPointer { input in
            visual.withUnsafeMutableBufferPointer { output in
                smskit_icu_bidi_layout(input.baseAddress, Int32(input.count), output.baseAddress, Int32(output.count), &level)
            }
        }
        guard written == Int32(units.count) else { return nil }
        return (level == 1, visual.map(Int.init))
    }

    /// Splits an ICU locale ID into language, script and region ("zh_Hant_TW").
    static func subtags(_ id: String) -> (language: Substring, script: Substring?, region: Substring?) {
        let base = id.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let parts = base.split(separator: "_", omittingEmptySubsequences: false)
        let language = parts.first ?? ""
        var script: Substring?
        var region: Substring?
        for part in parts.dropFirst() {
            if script == nil, region == nil, part.count == 4 { script = part; continue }
            if region == nil, part.count == 2 || part.count == 3 { region = part; continue }
            break // variants are not used for matching
        }
        return (language, script, region)
    }
}
