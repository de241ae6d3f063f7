import Foundation

/// The store's schema (`schema.sql`, embedded by `tools/generate_postgres_schema_swift.sh`) as
/// the statements ``PostgresVerificationStore/createSchema()`` runs one by one: PostgreSQL's
/// extended protocol, which postgres-nio speaks, takes one statement per query.
package enum PostgresSchema {
    /// The name the file uses for the table prefix.
    package static let filePrefix = "smskit_"

    /// The statements of `text` in order, with the file's prefix replaced by `prefix` + `_`.
    ///
    /// A statement ends at a line ending in `;` outside a `$$`-quoted body; a comment line never
    /// ends one, and comments before a statement are dropped. `prefix` must be a cleaned
    /// ``PostgresVerificationStore/tablePrefix`` (letters, digits, `_`): it is spliced into SQL.
    package static func statements(prefix: String, text: String = text) -> [String] {
        let renamed = text.replacingOccurrences(of: filePrefix, with: prefix + "_")
        var statements: [String] = []
        var current: [Substring] = []
        var inBody = false
        for line in renamed.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let isComment = trimmed.hasPrefix("--")
            if current.isEmpty && (trimmed.isEmpty || isComment) { continue }
            current.append(line)
            // A `$$` opens or closes a body: an odd count on one line flips the state.
            if line.components(separatedBy: "$$").count % 2 == 0 { inBody.toggle() }
            if !inBody && !isComment && trimmed.hasSuffix(";") {
                let statement = current.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
                statements.append(String(statement.dropLast()))
                current = []
            }
        }
        return statements
    }
}
