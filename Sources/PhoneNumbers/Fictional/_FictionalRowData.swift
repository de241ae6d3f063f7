/// The text of one row of the generated fictional-range table. Not API: read it through
/// ``FictionalRange``.
struct _FictionalRowData: Sendable {
    var region: String
    var countryCode: Int
    var first: String
    var last: String
    var kind: FictionalKind
    var source: String
    var note: String
}
