import CoreMetrics
import Prometheus

/// The service's metrics, in its own Prometheus registry (so that two servers in one process,
/// as in the tests, do not mix their counts).
///
/// - `smskit_http_requests_total{route,method,status}` and
///   `smskit_http_request_duration_seconds{route,method,status}` (histogram);
/// - `smskit_numbers_checked_total{endpoint}`: numbers checked (`check`, `check-stream`), found
///   (`find`) and compared (`match`, two a request);
/// - `smskit_guard_refusals_total{reason}` (`missing_key`, `wrong_key`, `wrong_key_throttled`,
///   `rate_limited`, `body_too_large`, `body_timeout`, `stream_timeout`, `answer_too_large`,
///   `text_too_long`, `too_many_numbers`,
///   `malformed_http`, `connection_evicted` (an idle connection closed at the connection limit),
///   `connection_limit` (a new one closed: every open one was busy), and the verification send guard's `region_not_allowed`,
///   `refused_number_type`, `fictional_number`, `number_rate_limited`, `client_rate_limited`,
///   `too_many_failed_checks`, `range_blocked`, `resend_cooldown`, `region_capped`, `conversion_hold`,
///   `number_denied`);
/// - `smskit_verifications_total{operation,outcome}`: `start` with `started`, `resent`, `test` or
///   the error code; `check` with the check status or the error code;
/// - `smskit_sms_sent_total{encoding,segments}`: SMS the sender accepted;
/// - `smskit_verification_sms_total{region}` (starts that sent an SMS) and
///   `smskit_verification_approvals_total{region}`: this process's conversion by region (the
///   store-wide figures by region, range and carrier are `GET /v1/stats`);
/// - `smskit_guard_monitored_total{rule}`: starts a rule in monitor mode would have refused
///   (`region_capped`, `conversion_hold`, `range_blocked`).
struct ServiceMetrics: Sendable {
    let registry: PrometheusCollectorRegistry
    let factory: PrometheusMetricsFactory

    init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5),
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
        ]
        self.factory = factory
    }

    func request(route: String, method: String, status: Int, duration: Duration) {
        let dimensions = [("route", route), ("method", method), ("status", String(status))]
        Counter(label: "smskit_http_requests_total", dimensions: dimensions, factory: factory).increment()
        let nanoseconds = duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
        CoreMetrics.Timer(label: "smskit_http_request_duration_seconds", dimensions: dimensions, factory: factory)
            .recordNanoseconds(nanoseconds)
    }

    func numbersChecked(_ count: Int, endpoint: String) {
        guard count > 0 else { return }
        Counter(label: "smskit_numbers_checked_total", dimensions: [("endpoint", endpoint)], factory: factory)
            .increment(by: count)
    }

    func refusal(_ reason: String) {
        Counter(label: "smskit_guard_refusals_total", dimensions: [("reason", reason)], factory: factory).increment()
    }

    func verification(_ operation: String, outcome: String) {
        Counter(label: "smskit_verifications_total", dimensions: [("operation", operation), ("outcome", outcome)],
                factory: factory).increment()
    }

    func deliveryReport(outcome: String) {
        Counter(label: "smskit_delivery_reports_total", dimensions: [("outcome", outcome)], factory: factory).increment()
    }

    /// A start that sent an SMS, by the number's region (a small label set: about 250 values).
    func verificationSMS(region: String?) {
        Counter(label: "smskit_verification_sms_total", dimensions: [("region", region ?? "unknown")], factory: factory)
            .increment()
    }

    /// An approved check, by the number's region.
    func approval(region: String?) {
        Counter(label: "smskit_verification_approvals_total", dimensions: [("region", region ?? "unknown")],
                factory: factory).increment()
    }

    /// A start that a rule in monitor mode would have refused.
    func monitored(_ rule: String) {
        Counter(label: "smskit_guard_monitored_total", dimensions: [("rule", rule)], factory: factory).increment()
    }

    func smsSent(encoding: String, segments: Int) {
        Counter(label: "smskit_sms_sent_total", dimensions: [("encoding", encoding), ("segments", String(segments))],
                factory: factory).increment()
    }

    /// The Prometheus text exposition.
    func exposition() -> [UInt8] {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return buffer
    }
}
