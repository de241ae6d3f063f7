import SMSKitJSON

/// The error document, one shape for every front end that answers in JSON: the service's error
/// bodies and `smskit verify … --format json` refusals both write
/// `{"error":{"code":"...","message":"..."}}`, so that a client parses one shape.
package struct ErrorDocument: Sendable, Equatable {
    /// A stable, snake_case code such as `resend_cooldown`.
    package var code: String
    /// A message for people.
    package var message: String

    package init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// The `error` member alone, for documents that carry other members (a refused check keeps
    /// its `status`).
    package var member: (String, JSONValue) {
        ("error", .object([("code", .string(code)), ("message", .string(message))]))
    }

    /// The whole document.
    package var json: JSONValue { .object([member]) }

    /// `the message` -> `The message.`: the library's messages are clauses; the documents show
    /// sentences.
    package static func sentence(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst() + (text.hasSuffix(".") ? "" : ".")
    }
}
