import CoreMetrics
import Foundation
import Logging
import PhoneVerification
import SMSEncoding
import SMSKitHTTPClient

/// An ``PhoneVerification/SMSSender`` that hands each SMS to Kannel's smsbox through its `sendsms`
/// HTTP interface, one request per part, with the user data headers SMSKit computed.
///
/// Each part goes with `coding=0` (GSM 7-bit; the part's text in UTF-8, `charset=UTF-8`) or `coding=2`
/// (UCS-2; the part's UTF-16BE bytes as they go over the air) and, for a multipart SMS, `udh` (the
/// concatenation header). So the recipient gets exactly SMSKit's parts: its segment count, its
/// concatenation reference, and no character split between two parts. (Kannel's own splitting,
/// with one text, cuts a UTF-16 surrogate pair in two at a part boundary: an emoji arrives broken.)
///
/// Failures are ``KannelError``s. A retry, with backoff, happens only where it cannot send twice:
/// when no connection was made (smsbox down, refused, connect timeout) and when smsbox answers 503.
/// A timeout or a lost connection after the request left, a 4xx or another 5xx is not retried, as
/// `sendsms` has no idempotency key. ``PhoneVerification/PhoneVerifier`` then closes the verification
/// and reports `send_failed`: no code is usable without an SMS.
///
/// Metrics (swift-metrics, through `metricsFactory`): `smskit_kannel_sms_total{result="sent|failed"}`,
/// `smskit_kannel_parts_total{encoding="gsm7|ucs2"}` (parts accepted),
/// `smskit_kannel_retries_total{reason="connection|unavailable"}` and
/// `smskit_kannel_failures_total{reason=<KannelError.Code.name>}`. Log lines (swift-log): one per SMS
/// sent (info), retry (warning) and failure (error), with the verification ID, never the text (it
/// holds the code), the recipient or the password.
///
/// ```swift
/// let sender = KannelSender(configuration: try .init(
///     url: "http://smskit:secret@127.0.0.1:13013/cgi-bin/sendsms?from=Acme"))
/// let verifier = try PhoneVerifier(store: store, sender: sender, secret: secret)
/// ```
public struct KannelSender: SMSSender {
    /// Where smsbox is, the credentials, timeouts and retries.
    public let configuration: Configuration
    private let logger: Logger
    private let metricsFactory: any MetricsFactory
    /// smsbox listens on loopback or the operator's network: every destination is allowed.
    private let client: OutboundHTTPClient

    /// A sender to the smsbox of `configuration`.
    ///
    /// - Parameters:
    ///   - configuration: smsbox's URL, credentials, timeouts and retries.
    ///   - logger: Where sent, retried and failed SMS are logged.
    ///   - metricsFactory: Where the counters go; the global metrics system by default.
    public init(configuration: Configuration, logger: Logger = Logger(label: "smskit.kannel"),
                metricsFactory: any MetricsFactory = MetricsSystem.factory) {
        self.configuration = configuration
        self.logger = logger
        self.metricsFactory = metricsFactory
        // A configuration without trust roots cannot fail to load.
        client = try! OutboundHTTPClient(configuration: .init(
            connectTimeout: configuration.connectTimeout,
            totalTimeout: configuration.connectTimeout + configuration.responseTimeout,
            maximumResponseBytes: 65_536, destinations: .any))
    }

    /// Sends the SMS's parts to smsbox, in order, and returns once smsbox accepted every one.
    ///
    /// - Throws: ``KannelError``; its ``KannelError/acceptedParts`` says how many parts smsbox took
    ///   before the failure.
    public func send(_ sms: OutgoingSMS) async throws {
        let targets = try Self.requestTargets(for: sms, configuration: configuration)
        var accepted = 0
        do throws(KannelError) {
            for target in targets {
                try await submit(target, verificationID: sms.verificationID, part: accepted + 1, of: targets.count)
                accepted += 1
                Counter(label: "smskit_kannel_parts_total", dimensions: [("encoding", sms.encoding.rawValue)],
                        factory: metricsFactory).increment()
            }
        } catch {
            let failure = KannelError(error.code, error.message + Self.progress(accepted, targets.count),
                                      acceptedParts: accepted, partCount: targets.count, httpStatus: error.httpStatus)
            Counter(label: "smskit_kannel_sms_total", dimensions: [("result", "failed")], factory: metricsFactory)
                .increment()
            Counter(label: "smskit_kannel_failures_total", dimensions: [("reason", failure.code.name)],
                    factory: metricsFactory).increment()
            logger.error("Kannel did not take the SMS", metadata: [
                "verification_id": "\(sms.verificationID)", "reason": "\(failure.code.name)",
                "parts": "\(targets.count)", "accepted_parts": "\(accepted)", "kannel": "\(configuration.redactedURL)",
                "error": "\(PhoneVerifier.redactingNumbers(in: failure.message))",
            ])
            throw failure
        }
        Counter(label: "smskit_kannel_sms_total", dimensions: [("result", "sent")], factory: metricsFactory).increment()
        logger.info("Kannel accepted the SMS", metadata: [
            "verification_id": "\(sms.verificationID)", "parts": "\(targets.count)",
            "encoding": "\(sms.encoding.rawValue)",
        ])
    }

    private static func progress(_ accepted: Int, _ count: Int) -> String {
        count > 1 ? " (smsbox accepted \(accepted) of the \(count) parts)" : ""
    }

    /// Sends one part, retrying where no part can be sent twice; returns when smsbox accepted it.
    private func submit(_ target: String, verificationID: String, part: Int, of count: Int)
        async throws(KannelError) {
        var attempt = 1
        while true {
            let retryReason: String
            do {
                let url = OutboundURL("http://\(configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host):\(configuration.port)\(target)")
                guard let url else {
                    throw KannelError(.connectionFailed, "smsbox's address \(configuration.host):\(configuration.port) is not a valid host")
                }
                let response = try await client.send(OutboundHTTPRequest(method: .GET, url: url))
                let body = String(decoding: response.body.prefix(1024), as: UTF8.self)
                switch response.status {
                case 200..<300:
                    return
                case 503 where attempt < configuration.maxAttempts:
                    retryReason = "unavailable"
                case 503:
                    throw KannelError(.unavailable,
                        "smsbox answered 503 \(attempt) times: \(Self.excerpt(body))", httpStatus: 503)
                case 400..<500:
                    throw KannelError(.rejected,
                        "smsbox refused the SMS with \(response.status): \(Self.excerpt(body)); check the sendsms-user and the parameters",
                        httpStatus: response.status)
                default:
                    throw KannelError(.serverError,
                        "smsbox answered \(response.status): \(Self.excerpt(body)); not retried, as it may have queued the SMS",
                        httpStatus: response.status)
                }
            } catch let failure as OutboundHTTPError {
                switch failure.kind {
                case _ where !failure.requestWritten && attempt < configuration.maxAttempts
                    && failure.kind != .malformedResponse && failure.kind != .responseTooLarge:
                    retryReason = "connection"
                case .connectionRefused, .connectTimeout, .connectFailed, .unresolvable, .destinationRefused,
                     .tlsHandshake, .tlsConfiguration:
                    let how = failure.kind == .connectionRefused ? "refused the connection"
                        : failure.kind == .connectTimeout ? "did not accept a connection in time" : "is unreachable"
                    throw KannelError(.connectionFailed,
                        "smsbox at \(configuration.host):\(configuration.port) \(how) (\(attempt) attempts); nothing was sent")
                case .timeout:
                    throw KannelError(.timedOut, failure.requestWritten
                        ? "smsbox did not answer within \(configuration.responseTimeout); not retried, as it may have accepted the SMS"
                        : "the request could not be written to smsbox within \(configuration.responseTimeout)")
                case .connectionLost:
                    throw KannelError(.connectionLost,
                        "smsbox closed the connection before answering; not retried, as it may have accepted the SMS")
                case .malformedResponse, .responseTooLarge:
                    throw KannelError(.malformedResponse,
                        "the answer from \(configuration.host):\(configuration.port) is not HTTP/1.1; is it smsbox's sendsms-port?")
                }
            } catch let error as KannelError {
                throw error
            } catch {
                throw KannelError(.connectionLost, "the request to smsbox failed")
            }

            let delay = backoff(beforeRetry: attempt)
            Counter(label: "smskit_kannel_retries_total", dimensions: [("reason", retryReason)], factory: metricsFactory)
                .increment()
            logger.warning("Kannel retry", metadata: [
                "verification_id": "\(verificationID)", "reason": "\(retryReason)", "attempt": "\(attempt)",
                "part": "\(part)/\(count)", "delay": "\(delay)",
            ])
            do {
                try await Task.sleep(for: delay)
            } catch {
                throw KannelError(.cancelled, "cancelled before smsbox took the SMS")
            }
            attempt += 1
        }
    }

    /// The pause before retry number `attempt`: doubling from the initial backoff, capped, with jitter.
    private func backoff(beforeRetry attempt: Int) -> Duration {
        var delay = configuration.initialBackoff
        for _ in 1..<attempt where delay < configuration.maximumBackoff { delay *= 2 }
        delay = min(delay, configuration.maximumBackoff)
        return delay * Double.random(in: 0.5...1.0)
    }

    /// Kannel's short answer, as printable ASCII, at most 120 characters.
    static func excerpt(_ body: String) -> String {
        let printable = body.unicodeScalars.prefix(120).map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : " " }
        let text = String(printable).trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? "(no reason given)" : text
    }
}
