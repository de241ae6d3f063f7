import PhoneVerification
import SMSKitJSON

/// The conversion statistics document of `GET /v1/stats` and `smskit verify stats --format json`:
/// `{"by", "window_seconds", "stats": [{"value", "sent", "delivered", "failed", "approved"}]}`.
package enum ConversionStatsDocument {
    /// The document for `rows`.
    package static func json(_ rows: [ConversionStats], by dimension: ConversionDimension, window: Duration?) -> JSONValue {
        .object([
            ("by", .string(dimension.rawValue)),
            ("window_seconds", window.map { .int(Int($0.components.seconds)) } ?? .null),
            ("stats", .array(rows.map { row in
                .object([
                    ("value", .string(row.value)), ("sent", .int(row.sent)), ("delivered", .int(row.delivered)),
                    ("failed", .int(row.failed)), ("approved", .int(row.approved)),
                ])
            })),
        ])
    }
}
