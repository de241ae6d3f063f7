import SMSEncoding

/// A rendered SMS: the text, the locale actually used, what happened on the way, and the SMS
/// encoding analysis of the final text.
///
/// ```swift
/// let sms = try renderer.render(.verificationCode, locale: "pt_BR", code: "042917", appName: "Acme")
/// sms.text        // "Acme: seu código de verificação é 042917."
/// sms.locale      // "pt-BR"
/// sms.segmentCount           // 1
/// sms.encoding?.encoding      // .gsm7
/// ```
public struct RenderedMessage: Sendable, Hashable {
    /// The text to send, including any delivery lines (SMS Retriever hash, WebOTP).
    public var text: String
    /// The message rendered.
    public var messageID: MessageID
    /// The locale of the catalog that was used, as a BCP 47 tag (`"es-419"` for `es-MX`).
    public var locale: String
    /// The locale string the caller asked for, cut to 64 characters.
    public var requestedLocale: String
    /// Fallbacks, sanitized arguments, bidi isolates, budget warnings.
    public var diagnostics: [TemplateDiagnostic]

    /// The number of SMS segments `text` needs with the renderer's `SMSEncoder`.
    public var segmentCount: Int
    /// The segment budget the message was checked against: the render options' `segmentBudget`,
    /// else the catalog's `# @budget` for the message, else the default locale catalog's; nil
    /// when none applies.
    public var segmentBudget: Int?
    /// Whether `segmentCount` is over `segmentBudget` (then `diagnostics` has an
    /// `.overSegmentBudget` warning).
    public var isOverBudget: Bool { segmentBudget.map { segmentCount > $0 } ?? false }
    /// How `text` goes over the air, from the renderer's `SMSEncoder`: GSM 7-bit or UCS-2, national
    /// language tables, segment count and the parts with their headers; nil when the render
    /// options asked for `.segmentCountOnly`. If the encoder's options allow text changes (smart
    /// encoding), send `encoding.text`.
    public var encoding: SMSAnalysis?
}
