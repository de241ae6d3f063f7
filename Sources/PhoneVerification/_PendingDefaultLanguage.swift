// TEMPORARY SHIM, FOR THE LEAD TO DELETE AT MERGE.
//
// The l10n-mech branch adds `SMSTemplateRenderer.defaultLanguageCode(forRegion:)` to SMSTemplates;
// it was not on that branch yet when this was written. Once it is merged, delete this file and make
// `PhoneVerifier.defaultLanguage(forRegion:)` call `renderer.defaultLanguageCode(forRegion:)`.
// Until then: a few regions whose language is not the renderer's default, and the renderer's
// default for every other region.

enum _PendingDefaultLanguage {
    static func languageCode(forRegion region: String) -> String? {
        switch region {
        case "BR": return "pt-BR"
        case "PT", "AO", "MZ": return "pt-PT"
        case "ES": return "es"
        case "MX", "AR", "CO", "CL", "PE", "VE", "EC", "GT", "CU", "BO", "DO", "HN", "PY", "SV", "NI", "CR",
             "PA", "UY": return "es-419"
        case "DE", "AT": return "de"
        case "FR": return "fr"
        case "IT": return "it"
        case "NL": return "nl"
        case "PL": return "pl"
        case "RU": return "ru"
        case "UA": return "uk"
        case "TR": return "tr"
        case "JP": return "ja"
        case "KR": return "ko"
        case "CN": return "zh-Hans"
        case "TW", "HK", "MO": return "zh-Hant"
        case "ID": return "id"
        case "MY": return "ms"
        case "VN": return "vi"
        case "TH": return "th"
        case "IL": return "he"
        case "IR": return "fa"
        case "PK": return "ur"
        case "BD": return "bn"
        case "SA", "EG", "AE", "MA", "DZ", "IQ", "JO": return "ar"
        case "TZ", "KE": return "sw"
        case "PH": return "fil"
        default: return nil
        }
    }
}
