import ArgumentParser
import SMSKitCommandLine
import SMSKitServer

/// The request, body, rate and time limits of `smskit serve`: each an option, the environment
/// variable read when the option is absent, and the one field of ``SMSKitServerConfiguration``
/// it sets. The ranges are the server's to check (`SMSKitServer.validateLimits`), so a limit added
/// here is declared once and checked once.
struct ServeLimitOptions: ParsableArguments {
    @Option(name: .customLong("max-body-bytes"), help: "Largest JSON body [SMSKIT_MAX_BODY_BYTES]; default 4194304.")
    var maxBodyBytes: Int?

    @Option(name: .customLong("max-batch"), help: "Most numbers in one check array [SMSKIT_MAX_BATCH]; default 10000.")
    var maxBatch: Int?

    @Option(name: .customLong("max-line-bytes"), help: "Longest check-stream line [SMSKIT_MAX_LINE_BYTES]; default 4096.")
    var maxLineBytes: Int?

    @Option(name: .customLong("rate-limit"), help: "Requests a second per key, 0 for no limit [SMSKIT_RATE_LIMIT]; default 50.")
    var rateLimit: Double?

    @Option(name: .customLong("rate-burst"), help: "Requests at once per key [SMSKIT_RATE_BURST]; default 100.")
    var rateBurst: Int?

    @Option(name: .customLong("idle-timeout"), help: "Seconds a silent connection stays open [SMSKIT_IDLE_TIMEOUT]; default 30.")
    var idleTimeout: Int?

    @Option(name: .customLong("body-timeout"), help: "Seconds to receive a whole JSON body [SMSKIT_BODY_TIMEOUT]; default 30.")
    var bodyTimeout: Int?

    @Option(name: .customLong("max-connections"), help: "Connections open at once; at the limit the longest idle one is closed [SMSKIT_MAX_CONNECTIONS]; default half the open-file limit, at most 10000.")
    var maxConnections: Int?

    @Option(name: .customLong("max-segments-answer-bytes"), help: "Largest /v1/segments answer; longer texts get 422 [SMSKIT_MAX_SEGMENTS_ANSWER_BYTES]; default 1048576.")
    var maxSegmentsAnswerBytes: Int?

    @Option(name: .customLong("max-find-text-length"), help: "Longest /v1/numbers/find text, in characters; longer ones get 422 [SMSKIT_MAX_FIND_TEXT_LENGTH]; default 16384.")
    var maxFindTextLength: Int?

    @Option(name: .customLong("max-find-numbers"), help: "Most numbers one /v1/numbers/find answer lists; texts with more get 413 [SMSKIT_MAX_FIND_NUMBERS]; default 1000.")
    var maxFindNumbers: Int?

    @Option(name: .customLong("max-stream-bytes"), help: "Largest check-stream body [SMSKIT_MAX_STREAM_BYTES]; default 67108864.")
    var maxStreamBytes: Int?

    @Option(name: .customLong("stream-timeout"), help: "Seconds a check-stream request may last [SMSKIT_STREAM_TIMEOUT]; default 600.")
    var streamTimeout: Int?

    @Option(name: .customLong("wrong-keys-per-minute"), help: "Wrong API keys an address may send a minute before 429, 0 for no limit [SMSKIT_WRONG_KEYS_PER_MINUTE]; default 10.")
    var wrongKeysPerMinute: Int?

    @Option(name: .customLong("bad-report-limit"), help: "Delivery reports answered 400, 404 or 413 an address may send a second before 429, 0 for no limit [SMSKIT_BAD_REPORT_LIMIT]; default 20.")
    var badReportLimit: Double?

    @Option(name: .customLong("bad-report-burst"), help: "Such reports an address may send at once [SMSKIT_BAD_REPORT_BURST]; default 100.")
    var badReportBurst: Int?

    /// A limit's option, its environment variable and the configuration field it sets.
    struct Limit {
        let environment: String
        let apply: (ServeLimitOptions, [String: String], inout SMSKitServerConfiguration) throws -> Void

        init<T: LosslessStringConvertible>(_ option: KeyPath<ServeLimitOptions, T?>, _ environment: String,
                                           _ field: WritableKeyPath<SMSKitServerConfiguration, T>) {
            self.environment = environment
            apply = { options, variables, configuration in
                if let value = try ServeLimitOptions.value(options[keyPath: option], environment, variables) {
                    configuration[keyPath: field] = value
                }
            }
        }

        /// A limit whose configuration field is optional (`nil` picks a default that depends on the machine).
        init<T: LosslessStringConvertible>(_ option: KeyPath<ServeLimitOptions, T?>, _ environment: String,
                                           _ field: WritableKeyPath<SMSKitServerConfiguration, T?>) {
            self.environment = environment
            apply = { options, variables, configuration in
                if let value = try ServeLimitOptions.value(options[keyPath: option], environment, variables) {
                    configuration[keyPath: field] = value
                }
            }
        }
    }

    /// Every limit, in the order of the options.
    static var table: [Limit] {
        [
            Limit(\.maxBodyBytes, "SMSKIT_MAX_BODY_BYTES", \.maxBodyBytes),
            Limit(\.maxBatch, "SMSKIT_MAX_BATCH", \.maxBatchCount),
            Limit(\.maxLineBytes, "SMSKIT_MAX_LINE_BYTES", \.maxLineBytes),
            Limit(\.rateLimit, "SMSKIT_RATE_LIMIT", \.rateLimitPerSecond),
            Limit(\.rateBurst, "SMSKIT_RATE_BURST", \.rateLimitBurst),
            Limit(\.idleTimeout, "SMSKIT_IDLE_TIMEOUT", \.idleTimeoutSeconds),
            Limit(\.bodyTimeout, "SMSKIT_BODY_TIMEOUT", \.bodyTimeoutSeconds),
            Limit(\.maxConnections, "SMSKIT_MAX_CONNECTIONS", \.maxConnections),
            Limit(\.maxSegmentsAnswerBytes, "SMSKIT_MAX_SEGMENTS_ANSWER_BYTES", \.maxSegmentsAnswerBytes),
            Limit(\.maxFindTextLength, "SMSKIT_MAX_FIND_TEXT_LENGTH", \.maxFindTextLength),
            Limit(\.maxFindNumbers, "SMSKIT_MAX_FIND_NUMBERS", \.maxFindNumbers),
            Limit(\.maxStreamBytes, "SMSKIT_MAX_STREAM_BYTES", \.maxStreamBytes),
            Limit(\.streamTimeout, "SMSKIT_STREAM_TIMEOUT", \.streamTimeoutSeconds),
            Limit(\.wrongKeysPerMinute, "SMSKIT_WRONG_KEYS_PER_MINUTE", \.wrongKeysPerMinute),
            Limit(\.badReportLimit, "SMSKIT_BAD_REPORT_LIMIT", \.badReportsPerSecond),
            Limit(\.badReportBurst, "SMSKIT_BAD_REPORT_BURST", \.badReportBurst),
        ]
    }

    /// Sets every limit given by an option or, failing that, by its environment variable, then
    /// checks them all, before the verification settings and API keys are read, so that a bad
    /// limit is reported as itself rather than behind a store or key problem.
    ///
    /// - Throws: `CLIError.usage` for a value that is not a number or out of its range.
    func apply(to configuration: inout SMSKitServerConfiguration, environment: [String: String]) throws {
        for limit in Self.table {
            try limit.apply(self, environment, &configuration)
        }
        do {
            try SMSKitServer.validateLimits(configuration)
        } catch let error as ServiceConfigurationError {
            throw CLIError.usage(error.description)
        }
    }

    /// The option's value, else the environment variable's (an empty one counts as absent).
    static func value<T: LosslessStringConvertible>(_ option: T?, _ name: String, _ environment: [String: String]) throws -> T? {
        if let option { return option }
        guard let text = environment[name], !text.isEmpty else { return nil }
        guard let parsed = T(text) else { throw CLIError.usage("\(name) has a value that is not allowed.") }
        return parsed
    }
}
