import ArgumentParser
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SMSKitServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `smskit serve`: SMSKit as an HTTP service (see the `SMSKitServer` module and its
/// `openapi.yaml`).
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve numbers, segments and messages over HTTP (JSON and NDJSON), with API keys and rate limits.",
        discussion: """
            Listens on 127.0.0.1:8080 by default; put a TLS reverse proxy (nginx, Caddy, HAProxy) \
            in front to expose it. Every option also comes from the environment variable in \
            brackets; a flag wins over the environment.

            API KEYS: --keys-file names a file with one key a line (at least 16 characters; '#' \
            starts a comment) or 'sha256:HEX' lines, so the file need not hold keys in clear \
            (printf %s "$KEY" | sha256sum). SMSKIT_API_KEYS holds comma-separated keys. Keys are \
            kept only as SHA-256 digests and compared in constant time. Clients send \
            'Authorization: Bearer KEY' or 'X-API-Key: KEY'; /healthz, /readyz and /openapi.yaml \
            need none.

            ENDPOINTS: POST /v1/numbers/check, POST /v1/numbers/check-stream (NDJSON), \
            POST /v1/segments, POST /v1/messages/render, GET /healthz, GET /readyz, GET /metrics, \
            GET /openapi.yaml.

            SIGTERM or SIGINT stops accepting connections, lets in-flight requests finish and \
            exits 0.

            EXAMPLES:
              SMSKIT_API_KEYS=change-me-to-a-long-random-key smskit serve --port 8080
              curl -s -H 'Authorization: Bearer change-me-to-a-long-random-key' \\
                -d '{"number":"020 7946 0000","region":"GB"}' http://127.0.0.1:8080/v1/numbers/check
            """
    )

    @Option(help: "Listen address [SMSKIT_HOST]; default 127.0.0.1.")
    var host: String?

    @Option(help: "TCP port, 0 for a free one [SMSKIT_PORT]; default 8080.")
    var port: Int?

    @Option(name: .customLong("keys-file"), help: ArgumentHelp("File of API keys [SMSKIT_KEYS_FILE].", valueName: "PATH"))
    var keysFile: String?

    @Flag(name: .customLong("no-auth"), help: "Accept requests without a key (local experiments only).")
    var noAuth = false

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

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical [SMSKIT_LOG_LEVEL]; default info.")
    var logLevel: String?

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let configuration = try makeConfiguration(environment)
        let server: SMSKitServer
        do {
            server = try SMSKitServer(configuration: configuration)
        } catch let error as ServiceConfigurationError {
            throw CLIError.usage(error.description)
        }
        // A launcher may have blocked these signals; the graceful shutdown needs them.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)

        let outcome = ServeOutcome()
        let done = DispatchSemaphore(value: 0)
        let host = configuration.host
        Task {
            do {
                try await server.run { port in
                    _Stderr.write("smskit: listening on http://\(host):\(port)\n")
                }
            } catch {
                outcome.error = error
            }
            done.signal()
        }
        done.wait()
        if let error = outcome.error {
            throw CLIError.failure("the server stopped: \(error)")
        }
    }

    func makeConfiguration(_ environment: [String: String]) throws -> SMSKitServerConfiguration {
        var configuration = SMSKitServerConfiguration()
        func value<T: LosslessStringConvertible>(_ flag: T?, _ name: String) throws -> T? {
            if let flag { return flag }
            guard let text = environment[name], !text.isEmpty else { return nil }
            guard let parsed = T(text) else { throw CLIError.usage("\(name) has a value that is not allowed.") }
            return parsed
        }
        if let host = try value(host, "SMSKIT_HOST") { configuration.host = host }
        if let port = try value(port, "SMSKIT_PORT") { configuration.port = port }
        if let bytes = try value(maxBodyBytes, "SMSKIT_MAX_BODY_BYTES") { configuration.maxBodyBytes = bytes }
        if let batch = try value(maxBatch, "SMSKIT_MAX_BATCH") { configuration.maxBatchCount = batch }
        if let bytes = try value(maxLineBytes, "SMSKIT_MAX_LINE_BYTES") { configuration.maxLineBytes = bytes }
        if let rate = try value(rateLimit, "SMSKIT_RATE_LIMIT") {
            guard rate >= 0, rate.isFinite else { throw CLIError.usage("The rate limit must be 0 or more.") }
            configuration.rateLimitPerSecond = rate
        }
        if let burst = try value(rateBurst, "SMSKIT_RATE_BURST") { configuration.rateLimitBurst = burst }
        if let seconds = try value(idleTimeout, "SMSKIT_IDLE_TIMEOUT") { configuration.idleTimeoutSeconds = seconds }
        if let seconds = try value(bodyTimeout, "SMSKIT_BODY_TIMEOUT") { configuration.bodyTimeoutSeconds = seconds }
        guard configuration.idleTimeoutSeconds > 0, configuration.bodyTimeoutSeconds > 0, configuration.rateLimitBurst > 0 else {
            throw CLIError.usage("Timeouts and the rate burst must be positive.")
        }
        configuration.requiresAPIKey = !noAuth
        if let level = logLevel ?? environment["SMSKIT_LOG_LEVEL"] { configuration.logLevel = level }
        do {
            var keys: [APIKeys] = []
            if let path = keysFile ?? environment["SMSKIT_KEYS_FILE"].flatMap({ $0.isEmpty ? nil : $0 }) {
                guard let data = FileManager.default.contents(atPath: path),
                      let text = String(data: data, encoding: .utf8) else {
                    throw CLIError.usage("The keys file cannot be read as UTF-8 text.")
                }
                keys.append(try APIKeys(parsing: text))
            }
            if let list = environment["SMSKIT_API_KEYS"], !list.isEmpty {
                keys.append(try APIKeys(parsing: list, separator: ","))
            }
            configuration.apiKeys = APIKeys(merging: keys)
        } catch let error as ServiceConfigurationError {
            throw CLIError.usage(error.description)
        }
        return configuration
    }
}

/// The error that ended the server, written by its task before it signals the semaphore and
/// read by the main thread after waiting on it (the semaphore orders the two).
private final class ServeOutcome: @unchecked Sendable {
    var error: (any Error)?
}
