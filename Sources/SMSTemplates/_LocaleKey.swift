/// How catalogs and requested locales are matched. Internal: not API.
///
/// Both sides are reduced to a *key*: the ICU locale ID with the language's default script
/// dropped and an explicit other script kept (`zh-Hans` → `zh`, `zh-Hant` → `zh_Hant`,
/// `sr-Latn` → `sr_Latn`, `pt-BR` → `pt_BR`). A request becomes a chain of keys: its own key,
/// then CLDR parents as ICU's data gives them (`es_MX` → `es_419` → `es`; `pt_AO` → `pt_PT` →
/// `pt`; `zh_Hant_HK` → `zh_Hant`, never `zh`), then, for a tag without a region, the likely
/// region's key (`pt` → `pt_BR`, as CLDR's `pt` is Brazilian Portuguese), then the `alternates`
/// (`no`, `nn` → `nb`; `yue` → `zh_Hant`).
enum _LocaleKey {
    /// The key of a canonical ICU locale ID, or nil if ICU cannot maximize it.
    static func catalogKey(forLocaleID id: String) -> String? {
        let base = id.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let parts = _ICU.subtags(String(base))
        guard !parts.language.isEmpty else { return nil }
        var key = String(parts.language)
        if let script = parts.script, script != likelyScript(of: parts.language) { key += "_" + script }
        if let region = parts.region { key += "_" + region }
        return key
    }

    /// The script a language is written in by default (`zh` → `Hans`, `sr` → `Cyrl`).
    static func likelyScript(of language: Substring) -> Substring? {
        guard let maximized = _ICU.addLikelySubtags(String(language)) else { return nil }
        return _ICU.subtags(maximized).script
    }

    /// Languages whose readers read another catalog's language when theirs is missing:
    /// Norwegian (`no`) and Nynorsk (`nn`) read Bokmål (`nb`); Cantonese (`yue`, written in
    /// Traditional Chinese characters in Hong Kong and Macau) reads `zh-Hant`, and `yue-Hans`
    /// (Guangdong) reads `zh-Hans`. Serbian needs none: `sr` is Cyrillic and `sr-Latn-*` reaches
    /// `sr-Latn` by CLDR's own chain.
    static func alternates(of key: String) -> [String] {
        let parts = _ICU.subtags(key)
        switch parts.language {
        case "no", "nn": return ["nb"]
        case "yue": return parts.script == "Hans" ? ["zh"] : ["zh_Hant"]
        default: return []
        }
    }

    /// The chain of keys for a canonical request ID, most specific first; at most 14 entries.
    static func chain(forLocaleID id: String) -> [String] {
        let base = String(id.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)[0])
        let requested = _ICU.subtags(base)
        guard let maximized = _ICU.addLikelySubtags(base) else { return [] }
        let full = _ICU.subtags(maximized)
        var stem = String(requested.language)
        if let script = full.script, script != likelyScript(of: requested.language) { stem += "_" + script }

        var chain: [String] = []
        func walk(from start: String) {
            var current = start
            // Bounded: ICU's data can hold parent cycles through aliases (no_NO → nb_NO → no ...).
            for _ in 0..<12 {
                guard chain.count < 12, current != "root", !current.isEmpty else { return }
                if !chain.contains(current) { chain.append(current) }
                guard let parent = _ICU.parent(current), parent != current, !chain.contains(parent) else { return }
                current = parent
            }
        }
        if let region = requested.region {
            walk(from: stem + "_" + region)
        } else {
            walk(from: stem)
            // The likely region's key comes right after the tag's own, before the parents CLDR
            // gives the tag (`hi_Latn` → `hi_Latn_IN`, then its parent `en_IN`), not after `en`.
            if let region = full.region {
                let stemChain = chain
                chain = []
                walk(from: stem + "_" + region)
                let regional = chain.filter { !stemChain.contains($0) }
                chain = Array(stemChain.prefix(1)) + regional + stemChain.dropFirst()
            }
        }
        // Fallbacks CLDR's parent chain does not give (see `alternates`), after the chain.
        for key in chain {
            for alternate in alternates(of: key) where !chain.contains(alternate) && chain.count < 14 {
                chain.append(alternate)
            }
        }
        return chain
    }
}
