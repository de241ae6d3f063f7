import CoreMetrics
import Foundation
import Logging
import PhoneVerification
import PhoneVerificationKannel
import PhoneVerificationSMPP
import PhoneVerificationWebhooks
import SMSKitHTTPClient
import SMSKitServer
import ServiceLifecycle

/// Where `smskit serve` and `smskit verify` hand verification SMS: `--sender SCHEME:VALUE` (or
/// `SMSKIT_SENDER`); the one place that turns a location into a sender.
///
/// One home for the sender schemes: to add a gateway, add a case, its `parsing` branch and its
/// `makeSender()` line. Today: `outbox:PATH` (JSON lines appended to a file; the default) and
/// `kannel:URL` (Kannel's smsbox `sendsms` URL, e.g.
/// `kannel:http://smskit:PASSWORD@127.0.0.1:13013/cgi-bin/sendsms?from=Acme`; the environment's
/// `SMSKIT_KANNEL_USERNAME` and `SMSKIT_KANNEL_PASSWORD` replace the URL's user and password, so
/// that the password need not be on the command line) and `smpp://SYSTEM_ID:PASSWORD@HOST:PORT?source=…`
/// (an SMSC over SMPP 3.4; `smpps://` for TLS, `bind=pair` for a transmitter and a receiver;
/// `SMSKIT_SMPP_PASSWORD` replaces the password).
///
/// ```swift
/// let location = try SMSSenderLocation(parsing: "outbox:/var/lib/smskit/outbox.jsonl")
/// ```
enum SMSSenderLocation: Sendable, Hashable, CustomStringConvertible {
    /// JSON lines appended to a file (``PhoneVerification/OutboxSender``).
    case outbox(path: String)
    /// Kannel's smsbox (``PhoneVerificationKannel/KannelSender``); the description hides the password.
    case kannel(KannelLocation)
    /// An SMSC over SMPP 3.4 (``PhoneVerificationSMPP/SMPPSender``); the description hides the password.
    case smpp(SMPPLocation)
    /// A provider's HTTPS endpoint (``PhoneVerificationWebhooks/HTTPSSender``): `https://…`, the
    /// signing secret from the private file `SMSKIT_HTTPS_SENDER_SECRET_FILE`; loopback and private
    /// addresses only with `SMSKIT_HTTPS_SENDER_ALLOW_PRIVATE=1`.
    case https(HTTPSLocation)

    /// The endpoint, its signer and the destination policy.
    struct HTTPSLocation: Sendable, Hashable {
        let url: OutboundURL
        let signature: WebhookSignature
        let allowPrivate: Bool
        private let key: [String]

        init(url text: String, environment: [String: String]) throws(ServiceConfigurationError) {
            guard let url = OutboundURL(text), url.isTLS || environment["SMSKIT_HTTPS_SENDER_ALLOW_PRIVATE"] == "1" else {
                throw ServiceConfigurationError("https: needs an https://HOST[:PORT]/PATH URL without user information.")
            }
            guard let path = environment["SMSKIT_HTTPS_SENDER_SECRET_FILE"], !path.isEmpty else {
                throw ServiceConfigurationError("https: needs SMSKIT_HTTPS_SENDER_SECRET_FILE, the private file of the signing secret.")
            }
            do {
                signature = try WebhookSignature(contentsOfFile: path)
            } catch {
                throw ServiceConfigurationError("https: \(error.message)")
            }
            self.url = url
            allowPrivate = environment["SMSKIT_HTTPS_SENDER_ALLOW_PRIVATE"] == "1"
            key = [text, path, "\(allowPrivate)"]
        }

        static func == (lhs: Self, rhs: Self) -> Bool { lhs.key == rhs.key }
        func hash(into hasher: inout Hasher) { hasher.combine(key) }
    }

    /// The SMPP client's configuration and the submit options, from one `smpp://` location.
    struct SMPPLocation: Sendable, Hashable {
        let configuration: SMPPClient.Configuration
        let options: SMPPSender.Options
        private let key: [String?]

        init(url: String, password: String?) throws(SMPPError) {
            var configuration = try SMPPClient.Configuration(url: url)
            if let password { configuration.password = password }
            self.configuration = configuration
            options = try SMPPSender.Options(url: url)
            key = [url, password]
        }

        public static func == (lhs: Self, rhs: Self) -> Bool { lhs.key == rhs.key }
        public func hash(into hasher: inout Hasher) { hasher.combine(key) }
    }

    /// smsbox's `sendsms` URL and the credentials that replace the URL's.
    struct KannelLocation: Sendable, Hashable {
        /// The parsed configuration.
        let configuration: KannelSender.Configuration
        private let key: [String?]

        init(url: String, username: String?, password: String?) throws(KannelError) {
            configuration = try KannelSender.Configuration(url: url, username: username, password: password)
            key = [url, username, password]
        }

        static func == (lhs: Self, rhs: Self) -> Bool { lhs.key == rhs.key }
        func hash(into hasher: inout Hasher) { hasher.combine(key) }
    }

    /// `outbox:smskit-outbox.jsonl` in the working directory, as `smskit verify start`.
    static let `default` = SMSSenderLocation.outbox(path: "smskit-outbox.jsonl")

    /// Reads `SCHEME:VALUE`.
    ///
    /// - Throws: ``ServiceConfigurationError`` for an unknown sender scheme or an empty value.
    /// - Parameters:
    ///   - text: `outbox:PATH` or `kannel:URL`.
    ///   - environment: Where `SMSKIT_KANNEL_USERNAME` and `SMSKIT_KANNEL_PASSWORD` are read.
    init(parsing text: String,
                environment: [String: String] = ProcessInfo.processInfo.environment) throws(ServiceConfigurationError) {
        guard let colon = text.firstIndex(of: ":") else {
            throw ServiceConfigurationError("The sender must look like SCHEME:VALUE, e.g. outbox:PATH.")
        }
        let scheme = text[..<colon].lowercased()
        let value = String(text[text.index(after: colon)...])
        switch scheme {
        case "outbox":
            guard !value.isEmpty else { throw ServiceConfigurationError("outbox: needs a file path, e.g. outbox:smskit-outbox.jsonl.") }
            self = .outbox(path: value)
        case "smpp", "smpps":
            do {
                self = .smpp(try SMPPLocation(url: text, password: environment["SMSKIT_SMPP_PASSWORD"]))
            } catch {
                throw ServiceConfigurationError("smpp: \(error.message)")
            }
        case "https", "http":
            self = .https(try HTTPSLocation(url: text, environment: environment))
        case "kannel":
            do {
                self = .kannel(try KannelLocation(url: value, username: environment["SMSKIT_KANNEL_USERNAME"],
                                                  password: environment["SMSKIT_KANNEL_PASSWORD"]))
            } catch {
                throw ServiceConfigurationError("kannel: \(error.message)")
            }
        default:
            throw ServiceConfigurationError("Unknown sender scheme '\(scheme.prefix(32))': use outbox:PATH, kannel:URL, smpp://… or https://….")
        }
    }

    /// The sender for a long-running server, with the services it needs running beside it: an SMPP
    /// client binds when the server starts and unbinds when it stops. A Kannel sender asks for
    /// delivery reports at `deliveryReportURL` when given.
    func open(logger: Logger, deliveryReportURL: String? = nil)
        -> (sender: @Sendable (Logger, any MetricsFactory) -> any SMSSender, services: [any Service]) {
        switch self {
        case .smpp(let location):
            let client = SMPPClient(configuration: location.configuration, logger: logger)
            let options = location.options
            return ({ _, _ in SMPPSender(client: client, options: options) }, [SMPPSessionService(client: client)])
        case .outbox, .kannel, .https:
            return ({ logger, factory in
                makeSender(logger: logger, metricsFactory: factory, deliveryReportURL: deliveryReportURL)
            }, [])
        }
    }

    /// The sender (an SMPP client binds on the first send and is never unbound: for one-shot
    /// commands); a Kannel sender asks for delivery reports at `deliveryReportURL` when given (a
    /// `dlr-mask` in the Kannel URL then sets the mask).
    func makeSender(logger: Logger, metricsFactory: any MetricsFactory, deliveryReportURL: String? = nil) -> any SMSSender {
        switch self {
        case .outbox(let path):
            if let warning = PrivateFile.warning(for: path) { logger.warning("\(warning)") }
            return OutboxSender(path: path)
        case .kannel(let location):
            var configuration = location.configuration
            if let deliveryReportURL {
                configuration.deliveryReportURL = deliveryReportURL
                if let mask = configuration.parameters.first(where: { $0.name == "dlr-mask" }).flatMap({ Int($0.value) }) {
                    configuration.deliveryReportMask = mask
                    configuration.parameters.removeAll { $0.name == "dlr-mask" }
                }
            }
            return KannelSender(configuration: configuration, logger: logger, metricsFactory: metricsFactory)
        case .smpp(let location):
            // The client binds on the first send and reconnects by itself.
            return SMPPSender(client: SMPPClient(configuration: location.configuration, logger: logger),
                              options: location.options)
        case .https(let location):
            // A configuration without trust roots cannot fail to load.
            let client = try! OutboundHTTPClient(configuration: .init(
                connectTimeout: .seconds(5), totalTimeout: .seconds(15), maximumResponseBytes: 65_536,
                destinations: location.allowPrivate ? .any : .publicOnly))
            return HTTPSSender(url: location.url, signature: location.signature, client: client, logger: logger)
        }
    }

    /// What feeds the reports the sender's gateway pushes back into the verifier: an SMPP
    /// client's receipts; `nil` for senders whose reports come over HTTP (Kannel) or not at all.
    var deliveryReportFeed: (@Sendable (any SMSSender, PhoneVerifier) async -> Void)? {
        guard case .smpp = self else { return nil }
        return { sender, verifier in
            guard let smpp = sender as? SMPPSender else { return }
            await SMPPReceiptFeed(client: smpp.client, verifier: verifier).run()
        }
    }

    var description: String {
        switch self {
        case .outbox(let path): "outbox:\(path)"
        case .kannel(let location): "kannel:" + location.configuration.redactedURL
        case .smpp(let location): location.configuration.redactedLocation
        case .https(let location): location.url.redacted
        }
    }
}
