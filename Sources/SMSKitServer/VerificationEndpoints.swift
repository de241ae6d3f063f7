#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes
import Logging
import NIOCore
import PhoneNumbers
import PhoneVerification
import ServiceLifecycle
import Synchronization
import SMSKitJSON

/// `POST /v1/verifications` (start: `{"number", "region", "lang", "client_key"}`) and
/// `POST /v1/verifications/{id}/check` (`{"code"}`), over ``PhoneVerification/PhoneVerifier``.
///
/// Statuses: a start answers 200 with the fields of `smskit verify start --format json`; a
/// check answers 200 for `approved` and `incorrect_code` (with `attempts_left`), 404
/// `not_found`, 409 `already_used`, 410 `expired` and 429 `too_many_attempts` (with
/// `Retry-After`: this verification is closed for good, a new one may be started after the
/// resend cooldown). Refusals of a start: 422 for numbers and values the engine refuses
/// (`invalid_number`, `fictional_number`, `region_not_allowed`, `refused_number_type`,
/// `invalid_language_code`, `invalid_client_key`), 429 with `Retry-After` for every limit
/// (`number_rate_limited`, `client_rate_limited`, `too_many_failed_checks`, `range_blocked`,
/// `resend_cooldown`), 503 with
/// `Retry-After` when the store cannot be reached (nothing is approved then), 502 when the SMS
/// could not be handed to the gateway (the verification is closed; start again).
struct VerificationEndpoints: Sendable {
    let verifier: PhoneVerifier
    let gate: StoreGate
    let services: [any Service]
    let metrics: ServiceMetrics
    let clock: VerificationClock
    let logger: Logger
    let engine = PhoneNumberEngine()

    init(settings: VerificationSettings, metrics: ServiceMetrics, logger: Logger) throws(ServiceConfigurationError) {
        let opened = settings.store
        let sender = settings.sender(logger, metrics.factory)
        do {
            verifier = try PhoneVerifier(
                store: opened.store, sender: MeteredSender(base: sender, metrics: metrics),
                secret: settings.secret, testNumbers: settings.testNumbers, configuration: settings.verifier,
                clock: settings.clock)
        } catch {
            throw ServiceConfigurationError("The verification settings are not usable: \(error.message)")
        }
        gate = StoreGate(prepare: opened.prepare)
        // A service group shuts its services down in reverse order, after the HTTP server: the
        // sender's go last in the list so that they end first, once no request can use them.
        var services = opened.services + settings.services
        if let interval = settings.sweepInterval {
            services.append(VerificationSweepService(verifier: verifier, interval: interval, logger: logger))
        }
        if let feed = settings.deliveryReportFeed {
            services.append(DeliveryReportFeedService(feed: feed, sender: sender, verifier: verifier))
        }
        services += settings.senderServices
        self.services = services
        self.metrics = metrics
        self.clock = settings.clock
        self.logger = logger
    }

    // MARK: Stats

    /// `GET /v1/stats?by=region|range|carrier&limit=N`: the conversion counters of the values that
    /// sent the most SMS over the window (20 by default, at most 1,000).
    func stats(by: String?, limit: String?) async throws -> JSONValue {
        guard let dimension = ConversionDimension(rawValue: by ?? "region") else {
            throw ServiceError.invalidRequest("'by' is region, range or carrier.")
        }
        var count = 20
        if let limit {
            guard let value = Int(limit), (1...PhoneVerifier.maximumStatsLimit).contains(value) else {
                throw ServiceError.invalidRequest("'limit' is a whole number from 1 to \(PhoneVerifier.maximumStatsLimit).")
            }
            count = value
        }
        try await prepareStore("stats")
        let rows: [ConversionStats]
        do {
            rows = try await verifier.conversionStats(by: dimension, limit: count)
        } catch {
            throw serviceError(error)
        }
        return ConversionStatsDocument.json(rows, by: dimension, window: verifier.configuration.conversion?.window)
    }

    // MARK: Start

    struct StartQuery: Decodable, Sendable {
        var number: String
        var region: String?
        var lang: String?
        var client_key: String?
    }

    /// - Parameters:
    ///   - callerAddress: The peer's IP address, the client key for the per-client limit...
    ///   - trusted: ...unless the API key is trusted, when the body's `client_key` wins (a
    ///     gateway that calls on behalf of its own users sends their IP).
    func start(_ body: ByteBuffer, callerAddress: String?, trusted: Bool) async throws -> JSONValue {
        let query = try RequestDecoding.decode(StartQuery.self, from: body)
        var region: RegionCode?
        if let text = query.region {
            guard let code = RegionCode(text) else {
                throw ServiceError.invalidRequest("'region' is not a region code (two letters such as GB, or 001).")
            }
            region = code
        }
        let clientKey = trusted ? (query.client_key ?? callerAddress) : callerAddress
        try await prepareStore("start")
        let started: StartedVerification
        do {
            started = try await verifier.start(phoneNumber: query.number, defaultRegion: region,
                                               languageCode: query.lang, clientKey: clientKey)
        } catch {
            metrics.verification("start", outcome: error.code.name)
            // The message may hold the number: only the code is logged.
            logger.debug("start refused", metadata: ["code": "\(error.code.name)"])
            throw serviceError(error)
        }
        logger.debug("start", metadata: [
            "number": "\(PhoneVerifier.redacted(e164: started.e164))", "region": "\(started.region ?? "-")",
            "resend": "\(started.isResend)", "test": "\(started.isTest)",
        ])
        metrics.verification("start", outcome: started.isTest ? "test" : started.isResend ? "resent" : "started")
        if !started.isTest { metrics.verificationSMS(region: started.region) }
        for rule in started.monitored {
            metrics.monitored(rule)
            // Which rule and where, never the number.
            logger.warning("a rule in monitor mode would have refused a start",
                           metadata: ["rule": "\(rule)", "region": "\(started.region ?? "-")"])
        }
        return VerificationDocuments.started(started)
    }

    // MARK: Check

    struct CheckQuery: Decodable, Sendable {
        var code: String
    }

    /// The check's status and body; statuses other than 200 carry the error body too.
    func check(id: String, _ body: ByteBuffer) async throws -> (HTTPResponse.Status, JSONValue, HTTPFields) {
        let query = try RequestDecoding.decode(CheckQuery.self, from: body)
        try await prepareStore("check")
        let result: CheckResult
        do {
            result = try await verifier.check(id: id, code: query.code)
        } catch {
            metrics.verification("check", outcome: error.code.name)
            throw serviceError(error)
        }
        metrics.verification("check", outcome: result.status)
        var headers = HTTPFields()
        let status: HTTPResponse.Status
        let message: String
        switch result {
        case .approved(let e164):
            metrics.approval(region: (try? engine.parse(e164: e164)).flatMap(engine.region(of:))?.identifier)
            return (.ok, .object(VerificationDocuments.checked(result)), headers)
        case .incorrectCode:
            return (.ok, .object(VerificationDocuments.checked(result)), headers)
        case .notFound:
            (status, message) = (.notFound, "There is no verification with this ID.")
        case .alreadyUsed:
            (status, message) = (.conflict, "This verification was already approved; a code is good once.")
        case .expired:
            (status, message) = (.gone, "This verification has expired; start a new one.")
        case .tooManyAttempts:
            headers[.retryAfter] = String(max(1, verifier.configuration.resendCooldown.components.seconds))
            (status, message) = (.tooManyRequests, "Too many wrong codes for this verification; start a new one.")
        }
        return (status, .object(VerificationDocuments.checked(result) + [
            ErrorDocument(code: result.status, message: message).member,
        ]), headers)
    }

    // MARK: Readiness

    /// Whether the store answers within `timeout` and passes its readiness probe: a read and a
    /// write that touch its tables (a damaged SQLite file fails it, as it fails every start).
    func isStoreReachable(timeout: Duration) async -> Bool {
        let (gate, store, now) = (gate, verifier.store, clock.now())
        do {
            return try await withDeadline(timeout, timeoutError: .storeUnavailable) {
                try await gate.prepare()
                try await store.probeReadiness(now: now)
                return true
            }
        } catch {
            return false
        }
    }

    // MARK: Errors

    func prepareStore(_ operation: String) async throws {
        let gate = gate
        let timeout = verifier.configuration.storeTimeout ?? .seconds(5)
        do {
            try await withDeadline(timeout, timeoutError: .storeUnavailable) { try await gate.prepare() }
        } catch {
            metrics.verification(operation, outcome: VerificationError.Code.storeUnavailable.name)
            throw ServiceError.storeUnavailable
        }
    }

    /// The HTTP form of a verification error: the caller's mistakes and the guard's refusals
    /// keep their message (it names only the caller's input); faults say nothing internal.
    func serviceError(_ error: VerificationError) -> ServiceError {
        let code = error.code
        switch code {
        case .invalidNumber, .fictionalNumber, .regionNotAllowed, .refusedNumberType, .invalidLanguageCode,
             .invalidClientKey, .malformedCode:
            if code != .invalidNumber, code != .invalidLanguageCode, code != .invalidClientKey, code != .malformedCode {
                metrics.refusal(code.name)
            }
            return ServiceError(.unprocessableContent, code.name, ErrorDocument.sentence(error.message))
        case .numberDenied:
            metrics.refusal(code.name)
            return ServiceError(.unprocessableContent, code.name, "This number is not sent codes.")
        case .numberRateLimited, .clientRateLimited, .rangeBlocked, .resendCooldown, .tooManyFailedChecks,
             .regionCapped, .conversionHold:
            metrics.refusal(code.name)
            var headers = HTTPFields()
            let seconds = error.retryAfter.map { $0.timeIntervalSince(clock.now()) } ?? 1
            headers[.retryAfter] = String(max(1, Int(seconds.rounded(.up))))
            return ServiceError(.tooManyRequests, code.name, ErrorDocument.sentence(error.message), headers: headers)
        case .sendFailed:
            return ServiceError(.badGateway, code.name, "The SMS could not be handed to the gateway; the verification was closed, start again.")
        default:
            return code.isStoreFault ? .storeUnavailable : .internalError
        }
    }
}

/// Runs the store's preparation (creating PostgreSQL tables) until it has succeeded once; the
/// server starts without it, so that a database that is down at start is a 503, not a crash.
final class StoreGate: Sendable {
    private let work: @Sendable () async throws -> Void
    private let done = Atomic<Bool>(false)

    init(prepare: @escaping @Sendable () async throws -> Void) {
        work = prepare
    }

    func prepare() async throws {
        if done.load(ordering: .acquiring) { return }
        try await work()
        done.store(true, ordering: .releasing)
    }
}

extension ServiceError {
    static var storeUnavailable: ServiceError {
        var headers = HTTPFields()
        headers[.retryAfter] = "5"
        return ServiceError(.serviceUnavailable, "store_unavailable",
                            "The verification store cannot be reached; nothing was approved. Retry later.", headers: headers)
    }
}

/// Deletes expired verifications and empty windows in the background, until graceful shutdown.
struct VerificationSweepService: Service, CustomStringConvertible {
    let verifier: PhoneVerifier
    let interval: Duration
    let logger: Logger

    /// What ServiceLifecycle logs at debug: never the verifier's configuration (its number lists).
    var description: String { "VerificationSweepService(every: \(interval))" }

    func run() async throws {
        let logger = logger
        await cancelWhenGracefulShutdown {
            await verifier.sweepPeriodically(every: interval) { error in
                logger.warning("the sweep of expired verifications failed", metadata: ["code": "\(error.code.name)"])
            }
        }
    }
}

/// Runs a sender's delivery report feed (see ``VerificationSettings/deliveryReportFeed``) until
/// graceful shutdown.
struct DeliveryReportFeedService: Service {
    let feed: @Sendable (any SMSSender, PhoneVerifier) async -> Void
    let sender: any SMSSender
    let verifier: PhoneVerifier

    func run() async throws {
        let (feed, sender, verifier) = (feed, sender, verifier)
        await cancelWhenGracefulShutdown { await feed(sender, verifier) }
        // The feed also ends when its sender's session ends, which on shutdown may come before
        // this service is told to stop; a service group takes a service that returns before then
        // for a failure, so wait for the shutdown.
        try? await gracefulShutdown()
    }
}
