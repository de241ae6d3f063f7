/// How a requested locale was matched to a catalog.
///
/// ```swift
/// let resolution = renderer.resolveLocale("es-MX")
/// resolution.locale       // "es-419"
/// resolution.chain        // ["es-MX", "es-419", "es"]
/// resolution.diagnostics  // [note: no catalog for es-MX; used its CLDR parent es-419 [parentLocale]]
/// renderer.resolveLocale("ar-MA").numberingSystem  // "latn" (CLDR's default in Morocco)
/// ```
public struct LocaleResolution: Sendable, Hashable {
    /// The string that was asked for, cut to 64 characters.
    public var requested: String
    /// The canonical BCP 47 form ICU gave it (`iw` → `he`, `pt_BR` → `pt-BR`), or nil when the
    /// string is not a well-formed tag.
    public var canonical: String?
    /// The locales tried, most specific first, as BCP 47 tags (CLDR parent chain).
    public var chain: [String]
    /// The catalog's locale that was chosen, as a BCP 47 tag.
    public var locale: String
    /// Whether the request asked for Latin digits with `-u-nu-latn`.
    public var requestsLatinDigits: Bool
    /// The numbering system numbers such as `{minutes}` are written in, before
    /// `RenderOptions.latinDigits`: the requested locale's, region included (`"latn"` for `ar-EG`,
    /// `"arab"` for `ar-u-nu-arab`, `"arabext"` for `fa`), or the one a `-u-nu-` keyword asks for.
    public var numberingSystem: String = "latn"
    /// Notes and warnings: fallbacks, aliases, unrecognized strings.
    public var diagnostics: [TemplateDiagnostic]
}
