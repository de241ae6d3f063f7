import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// SMSKit as an HTTP service: phone numbers, SMS segments and localized messages for gateways
/// written in any language.
///
/// Endpoints (see `openapi.yaml`, served at `GET /openapi.yaml`): `POST /v1/numbers/check`,
/// `POST /v1/numbers/check-stream` (NDJSON), `POST /v1/numbers/find` (JSON, NDJSON or CSV),
/// `POST /v1/numbers/match`, `POST /v1/segments`, `POST /v1/messages/render`,
/// `POST /v1/verifications`, `POST /v1/verifications/{id}/check`,
/// `GET /healthz`, `GET /readyz`, `GET /metrics` (Prometheus).
///
/// ```swift
/// var configuration = SMSKitServerConfiguration()
/// configuration.apiKeys = try APIKeys(parsing: keysFileText)
/// let server = try SMSKitServer(configuration: configuration)
/// try await server.run()  // until SIGTERM or SIGINT, then drains in-flight requests
/// ```
public struct SMSKitServer: Sendable {
    /// The configuration it was made with.
    public let configuration: SMSKitServerConfiguration
    let state: ServerState
    let responder: RouterResponder<SMSKitRequestContext>
    let logger: Logger
    let connections: ConnectionLimiter
    /// Where accepting pauses: a backstop under the limiter, for connections accepted faster
    /// than their handlers could close the ones they displace.
    let acceptLimit: Int

    /// Creates a server (nothing listens until ``run(onListening:)``).
    ///
    /// - Throws: ``ServiceConfigurationError`` when keys are required but none are configured.
    public init(configuration: SMSKitServerConfiguration) throws {
        let (level, maxConnections, fileLimit) = try Self.checked(configuration)
        var logger = Logger(label: "smskit.serve")
        logger.logLevel = level
        self.configuration = configuration
        self.logger = logger
        let metrics = ServiceMetrics()
        self.connections = ConnectionLimiter(limit: maxConnections, metrics: metrics)
        let backstop = maxConnections + max(16, maxConnections / 4)
        self.acceptLimit = fileLimit.map { max(maxConnections, min(backstop, $0 - ConnectionLimiter.reservedDescriptors / 2)) } ?? backstop
        let verifications = try configuration.verification.map { settings throws(ServiceConfigurationError) in
            try VerificationEndpoints(settings: settings, metrics: metrics, logger: logger)
        }
        do {
            self.state = try ServerState(configuration: configuration, metrics: metrics, verifications: verifications)
        } catch {
            throw ServiceConfigurationError("The message templates could not be loaded.")
        }
        self.responder = Endpoint.responder(Endpoint.all, state: state)
    }

    /// Checks a configuration as ``init(configuration:)`` does, without building anything: a
    /// front end calls it before it opens a store, so that a usage error leaves no file behind.
    ///
    /// - Throws: ``ServiceConfigurationError`` naming what to fix.
    public static func validate(_ configuration: SMSKitServerConfiguration) throws {
        _ = try checked(configuration)
    }

    private static func checked(_ configuration: SMSKitServerConfiguration) throws -> (Logger.Level, Int, Int?) {
        guard let level = Logger.Level(rawValue: configuration.logLevel) else {
            throw ServiceConfigurationError("'\(configuration.logLevel.prefix(32))' is not a log level.")
        }
        if configuration.requiresAPIKey && configuration.apiKeys.count == 0 {
            throw ServiceConfigurationError("No API keys: give --keys-file or SMSKIT_API_KEYS (or --no-auth for a local experiment).")
        }
        guard (0...65535).contains(configuration.port) else {
            throw ServiceConfigurationError("The port must be from 0 to 65535.")
        }
        let (maxConnections, fileLimit) = try checkedLimits(configuration)
        return (level, maxConnections, fileLimit)
    }

    /// Checks the request, body, rate and time limits of a configuration alone (``validate(_:)``
    /// checks them too): a front end that reads them first reports a bad limit first.
    ///
    /// - Throws: ``ServiceConfigurationError`` naming the limit to fix.
    package static func validateLimits(_ configuration: SMSKitServerConfiguration) throws {
        _ = try checkedLimits(configuration)
    }

    /// The limits checked, the connection limit they come to and the open-file limit it was checked against.
    private static func checkedLimits(_ configuration: SMSKitServerConfiguration) throws -> (Int, Int?) {
        guard configuration.rateLimitPerSecond >= 0, configuration.rateLimitPerSecond.isFinite else {
            throw ServiceConfigurationError("The rate limit must be 0 or more.")
        }
        guard configuration.maxFindTextLength > 0 else {
            throw ServiceConfigurationError("The find text length limit must be positive.")
        }
        guard configuration.maxFindNumbers > 0 else { throw ServiceConfigurationError("The find answer limit must be positive.") }
        guard configuration.wrongKeysPerMinute >= 0 else { throw ServiceConfigurationError("The wrong-key limit must be 0 or more.") }
        guard configuration.idleTimeoutSeconds > 0, configuration.bodyTimeoutSeconds > 0, configuration.rateLimitBurst > 0,
              configuration.streamTimeoutSeconds > 0 else {
            throw ServiceConfigurationError("Timeouts and the rate burst must be positive.")
        }
        guard configuration.maxBodyBytes > 0, configuration.maxLineBytes > 0, configuration.maxBatchCount > 0,
              configuration.maxSegmentsAnswerBytes > 0, configuration.maxStreamBytes > 0 else {
            throw ServiceConfigurationError("The body, line, batch, answer and stream limits must be positive.")
        }
        guard configuration.badReportsPerSecond >= 0, configuration.badReportsPerSecond.isFinite,
              configuration.badReportBurst > 0 else {
            throw ServiceConfigurationError("The bad-report limit must be 0 or more and its burst positive.")
        }
        let fileLimit = ConnectionLimiter.openFileLimit()
        let maxConnections = configuration.maxConnections ?? ConnectionLimiter.defaultLimit(fileLimit: fileLimit)
        guard maxConnections > 0 else { throw ServiceConfigurationError("The connection limit must be positive.") }
        if let fileLimit, maxConnections > fileLimit - ConnectionLimiter.reservedDescriptors {
            throw ServiceConfigurationError(
                "The connection limit \(maxConnections) does not leave \(ConnectionLimiter.reservedDescriptors) of the \(fileLimit) open files this process may have; lower it or raise the open-file limit (ulimit -n).")
        }
        return (maxConnections, fileLimit)
    }

    /// The Hummingbird application (for tests and embedding); `onListening` gets the bound port.
    public func makeApplication(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        var decoder = HTTP1Channel.Configuration.DecoderConfiguration()
        decoder.maxHeaderFieldSize = 8 * 1024
        decoder.maxHeaderListSize = 16 * 1024
        decoder.maxHeaderFieldCount = 100
        let connections = self.connections
        let http = HTTP1Channel.Configuration(
            additionalChannelHandlers: [connections.handler(), ExpectContinueHandler()],
            idleTimeout: .seconds(Int64(configuration.idleTimeoutSeconds)), httpDecoderConfiguration: decoder)
        return Application(
            responder: responder,
            server: .http1(configuration: http),
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: nil,
                availableConnectionsDelegate: MaximumAvailableConnections(acceptLimit, logger: logger)),
            services: state.verifications?.services ?? [],
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
            logger: logger
        )
    }

    /// Raises the process's soft limit on open files (`RLIMIT_NOFILE`) to its hard limit, so that
    /// the default connection limit (half of it) is as high as the system allows; returns the
    /// soft limit after that (nil when unlimited or unknown). Call it before ``init(configuration:)``.
    @discardableResult
    public static func raiseOpenFileLimit() -> Int? {
        ConnectionLimiter.raiseOpenFileLimit()
    }

    /// Listens until SIGTERM or SIGINT, then stops accepting, lets in-flight requests finish and
    /// returns.
    public func run(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        try await makeApplication(onListening: onListening).runService()
    }
}
