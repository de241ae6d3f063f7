import Foundation
import PhoneVerificationPostgres
import Testing

@Suite("PostgresSchema")
struct PostgresSchemaTests {
    @Test("the embedded schema is schema.sql (run tools/generate_postgres_schema_swift.sh)")
    func embeddingIsCurrent() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let file = try String(contentsOf: root.appendingPathComponent("Sources/PhoneVerificationPostgres/schema.sql"),
                              encoding: .utf8)
        #expect(PostgresSchema.text + "\n" == file)
    }

    @Test("statements split at `;` line ends outside `$$` bodies, with the prefix replaced")
    func statements() {
        let text = """
            -- a comment; not a statement
            CREATE TABLE smskit_a (x INT);

            -- a function whose body has semicolons
            CREATE FUNCTION smskit_f() RETURNS INT LANGUAGE plpgsql AS $$
            BEGIN
                -- inside;
                RETURN 1;
            END $$;
            DROP TABLE IF EXISTS smskit_b;
            """
        let statements = PostgresSchema.statements(prefix: "t1", text: text)
        #expect(statements == [
            "CREATE TABLE t1_a (x INT)",
            "CREATE FUNCTION t1_f() RETURNS INT LANGUAGE plpgsql AS $$\nBEGIN\n    -- inside;\n    RETURN 1;\nEND $$",
            "DROP TABLE IF EXISTS t1_b",
        ])
        let schema = PostgresSchema.statements(prefix: "t1")
        #expect(schema.count >= 14)
        #expect(!schema.contains { $0.contains(PostgresSchema.filePrefix) || $0.hasSuffix(";") || $0.isEmpty })
    }
}
