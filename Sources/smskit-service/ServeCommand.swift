import ArgumentParser
import Logging
import SMSKitCommandLine
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PhoneNumbers
import PhoneVerification
import PhoneVerificationWebhooks
import SMSKitServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `smskit serve`: SMSKit as an HTTP service (see the `SMSKitServer` module and its
/// `openapi.yaml`).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve numbers, segments, messages and phone verification over HTTP (JSON and NDJSON), with API keys and rate limits.",
        discussion: """
            Listens on 127.0.0.1:8080 by default; put a TLS reverse proxy (nginx, Caddy, HAProxy) \
            in front to expose it. Every option also comes from the environment variable in \
            brackets; a flag wins over the environment.

            API KEYS: --keys-file names a file with one key a line (at least 16 characters; '#' \
            starts a comment) or 'sha256:HEX' lines, so the file need not hold keys in clear \
            (printf %s "$KEY" | sha256sum). SMSKIT_API_KEYS holds comma-separated keys. Keys are \
            kept only as SHA-256 digests and compared in constant time. Clients send \
            'Authorization: Bearer KEY' or 'X-API-Key: KEY'; /healthz, /readyz and /openapi.yaml \
            need none. A key followed by ' trusted' may send the verification client key itself \
            ('client_key'); for other keys it is the caller's IP address.

            VERIFICATION: --store memory, sqlite:PATH (default ./smskit-verify.sqlite, the file \
            'smskit verify' uses) or postgres://USER@HOST:PORT/DATABASE (one state for many \
            processes; the server starts while PostgreSQL is down and /readyz answers 503 until \
            it is reachable; TLS by libpq's ?sslmode=disable|prefer|require|verify-ca|verify-full \
            and &sslrootcert=CA.pem, by default prefer on loopback and verify-full elsewhere). --sender outbox:PATH (default ./smskit-outbox.jsonl) or \
            kannel:http://USER@HOST:13013/cgi-bin/sendsms?from=NAME (Kannel's smsbox; the password \
            from SMSKIT_KANNEL_PASSWORD, or in the URL). The server \
            secret (at least 32 bytes; every process of one store needs the same) comes from \
            SMSKIT_VERIFY_SECRET or from the file --secret-file / SMSKIT_VERIFY_SECRET_FILE \
            (mode 0600, owned by the running user; a guessable secret is refused), never from \
            the command line; without one the server refuses to start, \
            unless --dev-secret makes a random one for this process only.

            ENDPOINTS: POST /v1/numbers/check, POST /v1/numbers/check-stream (NDJSON), \
            POST /v1/numbers/find (JSON, NDJSON or CSV), POST /v1/numbers/match, POST /v1/segments, POST /v1/messages/render, POST /v1/verifications, \
            POST /v1/verifications/{id}/check, GET /v1/events (NDJSON), GET /healthz, GET /readyz, \
            GET /metrics, GET /openapi.yaml.

            EVENTS: every verification state change is stored with it, read with \
            GET /v1/events?after=CURSOR, and POSTed to each --webhook URL, signed with HMAC-SHA256 \
            in the SMSKit-Signature header (docs/webhooks.md), at least once, in order per \
            verification, retried for 24 hours.

            SIGTERM or SIGINT stops accepting connections, lets in-flight requests finish, \
            unbinds an SMPP session and exits 0.

            EXAMPLES:
              SMSKIT_API_KEYS=change-me-to-a-long-random-key SMSKIT_VERIFY_SECRET=$(openssl rand -hex 32) \\
                smskit serve --port 8080
              curl -s -H 'Authorization: Bearer change-me-to-a-long-random-key' -H 'Content-Type: application/json' \\
                -d '{"number":"020 7946 0000","region":"GB"}' http://127.0.0.1:8080/v1/numbers/check
              curl -s -H 'Authorization: Bearer change-me-to-a-long-random-key' -H 'Content-Type: application/json' \\
                -d '{"number":"+44 7400 123456"}' http://127.0.0.1:8080/v1/verifications
              curl -s -H 'Authorization: Bearer change-me-to-a-long-random-key' -H 'Content-Type: application/json' \\
                -d '{"code":"614855"}' http://127.0.0.1:8080/v1/verifications/ID/check
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

    @OptionGroup var limits: ServeLimitOptions

    @Option(name: .long, help: ArgumentHelp("Verification store: memory, sqlite:PATH or postgres://... [SMSKIT_VERIFY_STORE]; default sqlite:smskit-verify.sqlite.", valueName: "STORE"))
    var store: String?

    @Option(name: .long, help: ArgumentHelp("Where SMS go: outbox:PATH, kannel:URL, smpp://... or https://... [SMSKIT_SENDER]; default outbox:smskit-outbox.jsonl.", valueName: "SENDER"))
    var sender: String?

    @Option(name: .customLong("delivery-report-url"), help: ArgumentHelp("This service's Kannel report endpoint as Kannel reaches it, e.g. https://HOST/v1/delivery-reports/kannel; Kannel then reports on every part [SMSKIT_DELIVERY_REPORT_URL].", valueName: "URL"))
    var deliveryReportURL: String?

    @Option(name: .customLong("secret-file"), help: ArgumentHelp("File holding the verification secret [SMSKIT_VERIFY_SECRET_FILE].", valueName: "PATH"))
    var secretFile: String?

    @Flag(name: .customLong("dev-secret"), help: "Without a secret, make a random one for this process only (development).")
    var devSecret = false

    @Option(name: .customLong("test-numbers"), help: ArgumentHelp("Test-number file [SMSKIT_VERIFY_TEST_NUMBERS]; default ./smskit-test-numbers.json when present.", valueName: "PATH"))
    var testNumbers: String?

    @Option(name: .customLong("app-name"), help: "The app name in the SMS [SMSKIT_APP_NAME]; default SMSKit.")
    var appName: String?

    @Option(name: .customLong("allow-regions"), help: ArgumentHelp("Only these regions get codes, e.g. GB,IE [SMSKIT_ALLOW_REGIONS]; default all.", valueName: "LIST"))
    var allowRegions: String?

    @Option(name: .customLong("deny-regions"), help: ArgumentHelp("These regions get no codes [SMSKIT_DENY_REGIONS].", valueName: "LIST"))
    var denyRegions: String?

    @Option(name: .customLong("refuse-types"), help: ArgumentHelp("Number types refused, or none [SMSKIT_REFUSE_TYPES]; default premium_rate,shared_cost,uan,pager,voicemail,toll_free,personal_number.", valueName: "LIST"))
    var refuseTypes: String?

    @Option(name: .customLong("refuse-calling-codes"), help: ArgumentHelp("Country calling codes refused, or none [SMSKIT_REFUSE_CALLING_CODES]; default 870,881,882,883.", valueName: "LIST"))
    var refuseCallingCodes: String?

    @Option(name: .customLong("failed-check-limit"), help: ArgumentHelp("Failed checks per number per 24 h before no new verification is made for it, or none [SMSKIT_FAILED_CHECK_LIMIT]; default 10.", valueName: "N"))
    var failedCheckLimit: String?

    @Option(name: .customLong("daily-number-limit"), help: ArgumentHelp("SMS per number per 24 h, resends included, or none [SMSKIT_DAILY_NUMBER_LIMIT]; default 10.", valueName: "N"))
    var dailyNumberLimit: String?

    @Option(name: .customLong("region-caps"), help: ArgumentHelp("SMS per region per 24 h: a default and REGION=N overrides, e.g. 10000,NG=200, or none [SMSKIT_REGION_CAPS]; default 10000.", valueName: "LIST"))
    var regionCaps: String?

    @Option(name: .customLong("range-hold"), help: ArgumentHelp("Hold a number range whose conversion is low: SENT:APPROVED:DELIVERED:HOURS, or none [SMSKIT_RANGE_HOLD]; default 50:0.1:0.3:12.", valueName: "RULE"))
    var rangeHold: String?

    @Option(name: .customLong("region-hold"), help: ArgumentHelp("Hold a region whose conversion is low: SENT:APPROVED:DELIVERED:HOURS, or none [SMSKIT_REGION_HOLD]; default 500:0.1:0.3:6.", valueName: "RULE"))
    var regionHold: String?

    @Option(name: .customLong("monitor"), help: ArgumentHelp("Rules that only log and count what they would refuse: region-caps, range-hold, region-hold, range-velocity [SMSKIT_GUARD_MONITOR].", valueName: "LIST"))
    var monitor: String?

    @Option(name: .customLong("allow-numbers-file"), help: ArgumentHelp("Numbers, one a line, that skip the region rules (not the number limits) [SMSKIT_ALLOW_NUMBERS_FILE].", valueName: "PATH"))
    var allowNumbersFile: String?

    @Option(name: .customLong("deny-numbers-file"), help: ArgumentHelp("Numbers, one a line, that never get a code [SMSKIT_DENY_NUMBERS_FILE].", valueName: "PATH"))
    var denyNumbersFile: String?

    @Option(name: .customLong("retention-days"), help: ArgumentHelp("Days an expired verification is kept before the background sweep deletes it [SMSKIT_VERIFY_RETENTION_DAYS]; default 30.", valueName: "DAYS"))
    var retentionDays: String?

    @Option(name: .customLong("webhook"), help: ArgumentHelp("A URL that gets every verification event, signed (repeatable) [SMSKIT_WEBHOOKS, comma-separated].", valueName: "URL"))
    var webhooks: [String] = []

    @Option(name: .customLong("webhook-secret-file"), help: ArgumentHelp("The private file with the secret of the webhook at the same position (repeatable) [SMSKIT_WEBHOOK_SECRET_FILES].", valueName: "PATH"))
    var webhookSecretFiles: [String] = []

    @Flag(name: .customLong("webhook-allow-private"), help: "Let webhooks reach loopback and private addresses [SMSKIT_WEBHOOK_ALLOW_PRIVATE=1].")
    var webhookAllowPrivate = false

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical [SMSKIT_LOG_LEVEL]; default info.")
    var logLevel: String?

    func run() async throws {
        // Before the configuration: the default connection limit is half of the open-file limit.
        SMSKitServer.raiseOpenFileLimit()
        let environment = ProcessInfo.processInfo.environment
        var (configuration, verification) = try makeConfiguration(environment)
        let server: SMSKitServer
        do {
            // The store is opened here only, once every flag is known to be good: a usage error
            // must not leave a new SQLite file behind.
            try SMSKitServer.validate(configuration)
            configuration.verification = try verification.open()
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

        let host = configuration.host
        do {
            try await server.run { port in
                _Stderr.write("smskit: listening on http://\(host):\(port)\n")
            }
        } catch {
            throw CLIError.failure("the server stopped: \(error)")
        }
    }

    /// The server's configuration, without its verification settings, and those settings with
    /// their store still to open.
    func makeConfiguration(_ environment: [String: String]) throws -> (SMSKitServerConfiguration, PendingVerification) {
        var configuration = SMSKitServerConfiguration()
        if let host = try ServeLimitOptions.value(host, "SMSKIT_HOST", environment) { configuration.host = host }
        if let port = try ServeLimitOptions.value(port, "SMSKIT_PORT", environment) { configuration.port = port }
        try limits.apply(to: &configuration, environment: environment)
        configuration.requiresAPIKey = !noAuth
        if let level = logLevel ?? environment["SMSKIT_LOG_LEVEL"] { configuration.logLevel = level }
        let verification = try verificationSettings(environment)
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
        return (configuration, verification)
    }
}

/// Verification settings whose store location is read but not yet opened.
struct PendingVerification {
    let location: VerificationStoreLocation
    let logger: Logger
    /// The settings, with a store that is never used: ``open()`` puts the real one in.
    let settings: VerificationSettings
    /// The webhooks, whose dispatcher reads the real store's outbox once it is open.
    var webhooks: [WebhookEndpoint] = []
    var webhookAllowPrivate = false

    func open() throws(ServiceConfigurationError) -> VerificationSettings {
        var settings = settings
        settings.store = try location.open(logger: logger)
        if let service = try WebhookConfiguration.service(endpoints: webhooks, store: settings.store.store,
                                                          allowPrivate: webhookAllowPrivate, logger: logger) {
            settings.services.append(service)
        }
        return settings
    }
}

extension ServeCommand {
    func verificationSettings(_ environment: [String: String]) throws -> PendingVerification {
        func setting(_ flag: String?, _ name: String) -> String? {
            flag ?? environment[name].flatMap { $0.isEmpty ? nil : $0 }
        }
        let secret = try secret(environment)
        var settings: VerificationSettings
        let location: VerificationStoreLocation
        var logger = Logger(label: "smskit.serve")
        var hooks: [WebhookEndpoint] = [], allowPrivateHooks = false
        do throws(ServiceConfigurationError) {
            let store = try setting(store, "SMSKIT_VERIFY_STORE").map { text throws(ServiceConfigurationError) in
                try VerificationStoreLocation(parsing: text)
            } ?? .default
            let sender = try setting(sender, "SMSKIT_SENDER").map { text throws(ServiceConfigurationError) in
                try SMSSenderLocation(parsing: text)
            } ?? .default
            logger.logLevel = Logger.Level(rawValue: logLevel ?? environment["SMSKIT_LOG_LEVEL"] ?? "info") ?? .info
            let reportURL = setting(deliveryReportURL, "SMSKIT_DELIVERY_REPORT_URL")
            if let reportURL {
                guard case .kannel = sender else {
                    throw ServiceConfigurationError("--delivery-report-url is for the kannel: sender (SMPP receipts come on the SMPP connection).")
                }
                guard let url = URLComponents(string: reportURL), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                      url.host?.isEmpty == false else {
                    throw ServiceConfigurationError("--delivery-report-url must be an http:// or https:// URL.")
                }
            }
            let opened = sender.open(logger: logger, deliveryReportURL: reportURL)
            location = store
            settings = VerificationSettings(secret: secret, store: OpenedVerificationStore(store: InMemoryVerificationStore()),
                                            sender: opened.sender)
            settings.senderServices = opened.services
            settings.deliveryReportFeed = sender.deliveryReportFeed
            func list(_ flags: [String], _ name: String) -> [String] {
                flags.isEmpty ? (environment[name] ?? "").split(separator: ",").map(String.init) : flags
            }
            hooks = try WebhookConfiguration.endpoints(urls: list(webhooks, "SMSKIT_WEBHOOKS"),
                                                       secretFiles: list(webhookSecretFiles, "SMSKIT_WEBHOOK_SECRET_FILES"))
            allowPrivateHooks = webhookAllowPrivate || environment["SMSKIT_WEBHOOK_ALLOW_PRIVATE"] == "1"
        } catch {
            throw CLIError.usage("\(error)")
        }
        let registry = try _VerifyEnvironment.registry(path: _VerifyEnvironment.testNumbersPath(setting(testNumbers, "SMSKIT_VERIFY_TEST_NUMBERS")))
        settings.testNumbers = registry
        if let name = setting(appName, "SMSKIT_APP_NAME") { settings.verifier.appName = name }
        var sendGuard = settings.verifier.sendGuard
        if let list = setting(allowRegions, "SMSKIT_ALLOW_REGIONS") { sendGuard.allowedRegions = try Self.regions(list, "allowed") }
        if let list = setting(denyRegions, "SMSKIT_DENY_REGIONS") { sendGuard.deniedRegions = try Self.regions(list, "denied") }
        if let list = setting(refuseTypes, "SMSKIT_REFUSE_TYPES") {
            var types = Set<PhoneNumberType>()
            for item in list.split(separator: ",") where item.lowercased() != "none" {
                guard let type = PhoneNumberType(rawValue: item.lowercased()) else {
                    throw CLIError.usage("'\(item.prefix(32))' is not a number type; use premium_rate, shared_cost, uan, pager, voicemail, toll_free, voip, personal_number, ...")
                }
                types.insert(type)
            }
            sendGuard.refusedTypes = types
        }
        if let list = setting(refuseCallingCodes, "SMSKIT_REFUSE_CALLING_CODES") {
            var codes = Set<Int>()
            for item in list.split(separator: ",") where item.lowercased() != "none" {
                let digits = item.hasPrefix("+") ? item.dropFirst() : item[...]
                guard (1...3).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }), let code = Int(digits) else {
                    throw CLIError.usage("'\(item.prefix(32))' is not a country calling code; use 1 to 3 digits, e.g. 882")
                }
                codes.insert(code)
            }
            sendGuard.refusedCallingCodes = codes
        }
        let day = Duration.seconds(86_400)
        if let text = setting(failedCheckLimit, "SMSKIT_FAILED_CHECK_LIMIT") {
            sendGuard.failedCheckLimit = try Self.count(text, "failed-check limit").map { RateLimit(count: $0, window: day) }
        }
        if let text = setting(dailyNumberLimit, "SMSKIT_DAILY_NUMBER_LIMIT") {
            sendGuard.dailyNumberLimit = try Self.count(text, "daily number limit").map { RateLimit(count: $0, window: day) }
        }
        if let text = setting(retentionDays, "SMSKIT_VERIFY_RETENTION_DAYS") {
            guard let days = Int(text), (0...3650).contains(days) else {
                throw CLIError.usage("the retention must be 0 to 3650 days, not '\(text.prefix(32))'")
            }
            settings.verifier.retention = .seconds(days * 86_400)
        }
        if let text = setting(regionCaps, "SMSKIT_REGION_CAPS") { sendGuard.regionCaps = try Self.regionCaps(text) }
        if let text = setting(rangeHold, "SMSKIT_RANGE_HOLD") { sendGuard.rangeHold = try Self.hold(text, "range hold") }
        if let text = setting(regionHold, "SMSKIT_REGION_HOLD") { sendGuard.regionHold = try Self.hold(text, "region hold") }
        if let list = setting(monitor, "SMSKIT_GUARD_MONITOR") {
            for item in list.split(separator: ",") {
                switch item.lowercased() {
                case "region-caps": sendGuard.regionCaps?.monitor = true
                case "range-hold": sendGuard.rangeHold?.monitor = true
                case "region-hold": sendGuard.regionHold?.monitor = true
                case "range-velocity": sendGuard.rangeVelocity?.monitor = true
                default: throw CLIError.usage("'\(item.prefix(32))' is not a rule with a monitor mode; use region-caps, range-hold, region-hold or range-velocity")
                }
            }
        }
        if let path = setting(allowNumbersFile, "SMSKIT_ALLOW_NUMBERS_FILE") { sendGuard.allowedNumbers = try Self.numbers(path) }
        if let path = setting(denyNumbersFile, "SMSKIT_DENY_NUMBERS_FILE") { sendGuard.deniedNumbers = try Self.numbers(path) }
        settings.verifier.sendGuard = sendGuard
        return PendingVerification(location: location, logger: logger, settings: settings, webhooks: hooks,
                                   webhookAllowPrivate: allowPrivateHooks)
    }

    /// `10000,NG=200,GB=none`: a default cap (or `none`) and caps of single regions.
    static func regionCaps(_ text: String) throws -> RegionCaps? {
        if text.lowercased() == "none" { return nil }
        var caps = RegionCaps()
        for item in text.split(separator: ",") {
            let parts = item.split(separator: "=", maxSplits: 1)
            if parts.count == 1 {
                caps.defaultLimit = try count(String(parts[0]), "default region cap")
            } else {
                guard let region = RegionCode(parts[0].uppercased()) else {
                    throw CLIError.usage("'\(parts[0].prefix(32))' in the region caps is not a region code")
                }
                caps.perRegion[region] = try count(String(parts[1]), "cap of \(region)") ?? Int.max
            }
        }
        return caps
    }

    /// `SENT:APPROVED:DELIVERED:HOURS` (`50:0.1:0.3:12`; DELIVERED may be `none`), or `none`.
    static func hold(_ text: String, _ what: String) throws -> ConversionHold? {
        if text.lowercased() == "none" { return nil }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let ratio = { (text: String) -> Double? in Double(text).flatMap { (0...1).contains($0) ? $0 : nil } }
        guard parts.count == 4, let sent = Int(parts[0]), (1...10_000_000).contains(sent),
              let approved = ratio(parts[1]), let hours = Int(parts[3]), (1...8760).contains(hours) else {
            throw CLIError.usage("the \(what) is SENT:APPROVED:DELIVERED:HOURS (e.g. 50:0.1:0.3:12) or none, not '\(text.prefix(64))'")
        }
        var delivered: Double?
        if parts[2].lowercased() != "none" {
            guard let value = ratio(parts[2]) else {
                throw CLIError.usage("the delivered share of the \(what) is 0 to 1 or none, not '\(parts[2].prefix(32))'")
            }
            delivered = value
        }
        return ConversionHold(minimumSent: sent, minimumApprovalRatio: approved, minimumDeliveryRatio: delivered,
                              duration: .seconds(hours * 3600))
    }

    /// A file of numbers, one a line, in international form (`#` starts a comment), as E.164.
    static func numbers(_ path: String) throws -> Set<String> {
        let limit = 16 << 20
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError.usage("cannot read the number file \(path)")
        }
        guard data.count <= limit else { throw CLIError.usage("the number file \(path) is larger than 16 MB") }
        let engine = PhoneNumberEngine()
        var numbers = Set<String>()
        for (index, line) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let text = String(content.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
            if text.isEmpty { continue }
            guard let number = try? engine.parse(text, defaultRegion: nil) else {
                throw CLIError.usage("line \(index + 1) of \(path) is not a number in international form")
            }
            numbers.insert(engine.formatE164(number))
        }
        return numbers
    }

    /// A positive count, or `nil` for `none`.
    static func count(_ text: String, _ what: String) throws -> Int? {
        if text.lowercased() == "none" { return nil }
        guard let count = Int(text), (1...1_000_000).contains(count) else {
            throw CLIError.usage("the \(what) must be 1 to 1000000 or none, not '\(text.prefix(32))'")
        }
        return count
    }

    static func regions(_ list: String, _ what: String) throws -> Set<RegionCode> {
        var regions = Set<RegionCode>()
        for item in list.split(separator: ",") {
            guard let region = RegionCode(item.uppercased()) else {
                throw CLIError.usage("'\(item.prefix(32))' in the \(what) regions is not a region code")
            }
            regions.insert(region)
        }
        return regions
    }

    /// The verification secret: SMSKIT_VERIFY_SECRET, else the secret file (which must exist and
    /// be private), else with --dev-secret a random one for this process; otherwise a usage error.
    func secret(_ environment: [String: String]) throws -> VerificationSecret {
        func usable(_ make: () throws(VerificationError) -> VerificationSecret) throws -> VerificationSecret {
            do {
                return try make()
            } catch {
                throw CLIError.usage("The verification secret is not usable: \(error.message)")
            }
        }
        if let text = environment["SMSKIT_VERIFY_SECRET"], !text.isEmpty {
            return try usable { () throws(VerificationError) in try VerificationSecret(Array(text.utf8)) }
        }
        if let path = secretFile ?? environment["SMSKIT_VERIFY_SECRET_FILE"].flatMap({ $0.isEmpty ? nil : $0 }) {
            return try usable { () throws(VerificationError) in try VerificationSecret(contentsOfFile: path) }
        }
        guard devSecret else {
            throw CLIError.usage("No verification secret: set SMSKIT_VERIFY_SECRET or SMSKIT_VERIFY_SECRET_FILE (or --secret-file), or pass --dev-secret for a local experiment.")
        }
        _Stderr.write("smskit: warning: --dev-secret: a random verification secret for this process only; its verifications cannot be checked by another process or after a restart\n")
        return VerificationSecret.random()
    }
}

