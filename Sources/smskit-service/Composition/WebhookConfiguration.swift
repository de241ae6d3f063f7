import Foundation
import Logging
import PhoneVerification
import PhoneVerificationWebhooks
import ServiceLifecycle
import SMSKitHTTPClient
import SMSKitServer

/// The webhooks of `smskit serve`: `--webhook URL` (repeatable, or `SMSKIT_WEBHOOKS` separated by
/// commas), each with the secret in the file of the same position in `--webhook-secret-file`
/// (`SMSKIT_WEBHOOK_SECRET_FILES`; private files, as the verification secret's), and
/// `--webhook-allow-private` (`SMSKIT_WEBHOOK_ALLOW_PRIVATE=1`) to let them reach loopback and
/// private addresses, which are refused by default. The one place that turns these into a
/// dispatcher service.
enum WebhookConfiguration {
    static func endpoints(urls: [String], secretFiles: [String]) throws(ServiceConfigurationError) -> [WebhookEndpoint] {
        guard urls.count == secretFiles.count else {
            throw ServiceConfigurationError(
                "Each webhook needs its secret file: \(urls.count) webhook URLs, \(secretFiles.count) secret files.")
        }
        guard urls.count <= 16 else { throw ServiceConfigurationError("At most 16 webhooks.") }
        var endpoints: [WebhookEndpoint] = []
        for (text, path) in zip(urls, secretFiles) {
            guard let url = OutboundURL(text) else {
                throw ServiceConfigurationError(
                    "'\(text.prefix(64))' is not a webhook URL: http(s)://HOST[:PORT]/PATH, without user information.")
            }
            do {
                endpoints.append(WebhookEndpoint(url: url, signature: try WebhookSignature(contentsOfFile: path)))
            } catch {
                throw ServiceConfigurationError("The secret of the webhook \(url): \(error.message)")
            }
        }
        return endpoints
    }

    /// The dispatcher as a service of the server (stopped on graceful shutdown), or `nil`
    /// without webhooks. The store must keep events and webhook state.
    static func service(endpoints: [WebhookEndpoint], store: any VerificationStore, allowPrivate: Bool,
                        logger: Logger) throws(ServiceConfigurationError) -> (any Service)? {
        guard !endpoints.isEmpty else { return nil }
        guard let outbox = store as? any WebhookOutbox else {
            throw ServiceConfigurationError("This store keeps no webhook state; webhooks need memory, sqlite: or postgres:.")
        }
        let client: OutboundHTTPClient
        do {
            client = try OutboundHTTPClient(configuration: .init(
                connectTimeout: .seconds(5), totalTimeout: .seconds(10), maximumResponseBytes: 16_384,
                destinations: allowPrivate ? .any : .publicOnly))
        } catch {
            throw ServiceConfigurationError("The webhook client cannot be made: \(error)")
        }
        return DispatcherService(dispatcher: WebhookDispatcher(outbox: outbox, endpoints: endpoints, client: client,
                                                               logger: logger))
    }

    struct DispatcherService: Service {
        let dispatcher: WebhookDispatcher

        func run() async throws {
            await cancelWhenGracefulShutdown { await dispatcher.run() }
        }
    }
}
