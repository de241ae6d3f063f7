import Foundation
import SMSKitServer
import Testing
@testable import smskit_service

/// The limit options of `smskit serve`, read by one table: every option has its environment
/// variable and sets its own field of the server's configuration, and the server checks the ranges.
@Suite("smskit serve: the limit options")
struct ServeLimitOptionsTests {
    /// The configuration the limits of `arguments` and `environment` make.
    static func configuration(_ arguments: [String], _ environment: [String: String]) throws -> SMSKitServerConfiguration {
        var configuration = SMSKitServerConfiguration()
        try ServeLimitOptions.parse(arguments).apply(to: &configuration, environment: environment)
        return configuration
    }

    @Test("every limit option is in the table, named in its help by its environment variable")
    func tableCoversEveryOption() throws {
        let table = ServeLimitOptions.table
        #expect(Mirror(reflecting: try ServeLimitOptions.parse([])).children.count == table.count)
        #expect(Set(table.map(\.environment)).count == table.count)
        let help = ServeCommand.helpMessage(columns: 10_000)
        for limit in table {
            #expect(help.contains("[\(limit.environment)]"), "\(limit.environment) is not in the help of smskit serve")
        }
    }

    @Test("each environment variable sets its own field; an option wins over the variable")
    func eachVariableSetsItsField() throws {
        // A different value for each limit, so that two limits that set one field would show.
        var environment: [String: String] = [:]
        for (index, limit) in ServeLimitOptions.table.enumerated() { environment[limit.environment] = String(index + 2) }
        let c = try Self.configuration([], environment)
        let fields: [String: Double] = [
            "SMSKIT_MAX_BODY_BYTES": Double(c.maxBodyBytes), "SMSKIT_MAX_BATCH": Double(c.maxBatchCount),
            "SMSKIT_MAX_LINE_BYTES": Double(c.maxLineBytes), "SMSKIT_RATE_LIMIT": c.rateLimitPerSecond,
            "SMSKIT_RATE_BURST": Double(c.rateLimitBurst), "SMSKIT_IDLE_TIMEOUT": Double(c.idleTimeoutSeconds),
            "SMSKIT_BODY_TIMEOUT": Double(c.bodyTimeoutSeconds), "SMSKIT_MAX_CONNECTIONS": Double(c.maxConnections ?? -1),
            "SMSKIT_MAX_SEGMENTS_ANSWER_BYTES": Double(c.maxSegmentsAnswerBytes),
            "SMSKIT_MAX_FIND_TEXT_LENGTH": Double(c.maxFindTextLength), "SMSKIT_MAX_FIND_NUMBERS": Double(c.maxFindNumbers),
            "SMSKIT_MAX_STREAM_BYTES": Double(c.maxStreamBytes), "SMSKIT_STREAM_TIMEOUT": Double(c.streamTimeoutSeconds),
            "SMSKIT_WRONG_KEYS_PER_MINUTE": Double(c.wrongKeysPerMinute), "SMSKIT_BAD_REPORT_LIMIT": c.badReportsPerSecond,
            "SMSKIT_BAD_REPORT_BURST": Double(c.badReportBurst),
        ]
        #expect(fields == environment.mapValues { Double($0)! })

        let flagged = try Self.configuration(["--max-batch", "99", "--rate-limit", "0.5"], environment)
        #expect(flagged.maxBatchCount == 99)
        #expect(flagged.rateLimitPerSecond == 0.5)
        #expect(flagged.maxLineBytes == c.maxLineBytes)
        // An empty variable is no value: the default stays.
        #expect(try Self.configuration([], ["SMSKIT_MAX_BATCH": ""]).maxBatchCount == SMSKitServerConfiguration().maxBatchCount)
    }

    @Test("a value that is not a number, or out of its range, is a usage error naming it", arguments: [
        ([String](), ["SMSKIT_MAX_BODY_BYTES": "4 MiB"], "SMSKIT_MAX_BODY_BYTES has a value that is not allowed"),
        ([], ["SMSKIT_RATE_LIMIT": "-1"], "rate limit must be 0 or more"),
        (["--rate-limit", "inf"], [:], "rate limit must be 0 or more"),
        ([], ["SMSKIT_MAX_FIND_TEXT_LENGTH": "0"], "find text length limit must be positive"),
        (["--wrong-keys-per-minute=-1"], [:], "wrong-key limit must be 0 or more"),
        ([], ["SMSKIT_STREAM_TIMEOUT": "0"], "Timeouts and the rate burst must be positive"),
        (["--max-line-bytes", "0"], [:], "line, batch, answer and stream limits must be positive"),
        ([], ["SMSKIT_BAD_REPORT_BURST": "0"], "bad-report limit must be 0 or more and its burst positive"),
        (["--max-connections", "0"], [:], "connection limit must be positive"),
    ])
    func refused(_ arguments: [String], _ environment: [String: String], _ message: String) throws {
        do {
            _ = try Self.configuration(arguments, environment)
            Issue.record("\(arguments) \(environment) was accepted")
        } catch {
            #expect(String(describing: error).contains(message), "\(error)")
        }
    }
}
