import Foundation
import PhoneNumbers

/// One row of the conversion statistics: what happened to the SMS of one region, range or
/// carrier over the conversion window.
public struct ConversionStats: Sendable, Hashable {
    /// The dimension.
    public var dimension: ConversionDimension
    /// The region code, range (`44:7400`) or carrier name.
    public var value: String
    /// SMS sent (first sends and resends), estimated over the window.
    public var sent: Int
    /// Messages delivered (final delivery reports).
    public var delivered: Int
    /// Messages failed (final delivery reports).
    public var failed: Int
    /// Verifications approved.
    public var approved: Int

    /// Creates a row.
    public init(dimension: ConversionDimension, value: String, sent: Int, delivered: Int, failed: Int, approved: Int) {
        self.dimension = dimension
        self.value = value
        self.sent = sent
        self.delivered = delivered
        self.failed = failed
        self.approved = approved
    }

    /// Approved per SMS sent, or `nil` when nothing was sent.
    public var approvalRate: Double? { sent > 0 ? Double(approved) / Double(sent) : nil }
    /// Delivered per SMS sent, or `nil` before any report arrived.
    public var deliveryRate: Double? { sent > 0 && delivered + failed > 0 ? Double(delivered) / Double(sent) : nil }
}

extension PhoneVerifier {
    /// A number as logs may show it: its last four digits only (`…3456`), and only at debug
    /// level. Numbers and codes never appear in logs at the default level.
    ///
    /// ```swift
    /// logger.debug("started", metadata: ["number": "\(PhoneVerifier.redacted(e164: started.e164))"])
    /// ```
    public static func redacted(e164: String) -> String {
        "…" + String(e164.suffix(4))
    }

    /// `text` with every run of 7 or more digits (a `+` before it included) cut to its last four
    /// (`…3456`): for messages from elsewhere (a gateway's answer) that go into a log and may
    /// echo a number.
    ///
    /// ```swift
    /// PhoneVerifier.redactingNumbers(in: "denied: +447400123456")   // "denied: …3456"
    /// ```
    public static func redactingNumbers(in text: String) -> String {
        var out = ""
        var run = ""
        func flush() {
            let digits = run.filter(\.isASCII).filter(\.isNumber).count
            out += digits >= 7 ? redacted(e164: run) : run
            run = ""
        }
        for character in text {
            if character.isASCII && character.isNumber || (character == "+" && run.isEmpty) {
                run.append(character)
            } else {
                flush()
                out.append(character)
            }
        }
        flush()
        return out
    }

    /// The longest list ``conversionStats(by:limit:)`` answers.
    public static let maximumStatsLimit = 1_000

    /// The region, range and carrier (when the metadata names one) that a number's conversion is
    /// counted under, or none when conversion tracking is off or `e164` is not a number.
    ///
    /// A delivery-report handler that counts inside its own store transaction can hit
    /// `key.counterKey(.delivered)` (or `.failed`) in ``ConversionTracking/window`` itself;
    /// ``countDelivery(e164:delivered:)`` does it in one store operation.
    public func conversionKeys(e164: String) -> [ConversionKey] {
        guard let tracking = configuration.conversion, let number = try? engine.parse(e164: e164) else { return [] }
        return conversionKeys(number, region: engine.region(of: number), tracking: tracking)
    }

    /// Counts a message's final delivery state in the conversion statistics of its number's
    /// region, range and carrier: call it once per message (not per part) when its delivery
    /// report says delivered or failed for good.
    ///
    /// ```swift
    /// try await verifier.countDelivery(e164: message.e164, delivered: report.state == .delivered)
    /// ```
    ///
    /// - Parameters:
    ///   - e164: The number the message went to.
    ///   - delivered: `true` for delivered, `false` for failed (rejected, undeliverable, expired).
    /// - Throws: ``VerificationError`` with a store code when the store fails.
    public func countDelivery(e164: String, delivered: Bool) async throws(VerificationError) {
        guard let tracking = configuration.conversion else { return }
        let keys = conversionKeys(e164: e164).map { $0.counterKey(delivered ? .delivered : .failed) }
        guard !keys.isEmpty else { return }
        let now = clock.now()
        try await withStore { [store] in try await store.count(keys, window: tracking.window, now: now) }
    }

    /// How stores count approvals and delivery reports at `now` in their transactions, or `nil`
    /// when conversion tracking is off. Approvals of test numbers count nothing (their codes are known).
    func conversionCounting(now: Date) -> ConversionCounting? {
        guard let tracking = configuration.conversion else { return nil }
        return ConversionCounting(window: tracking.window, now: now) { [self] e164, metric in
            guard let number = try? engine.parse(e164: e164) else { return [] }
            if metric == .approved, testNumbers.entry(for: number) != nil { return [] }
            return conversionKeys(number, region: engine.region(of: number), tracking: tracking).map { $0.counterKey(metric) }
        }
    }

    /// The conversion statistics by region, range or carrier: the `limit` values that sent the
    /// most SMS over the window, the most first (ties by value).
    ///
    /// Figures are window estimates (``WindowCounter``), rounded to whole messages.
    ///
    /// ```swift
    /// for row in try await verifier.conversionStats(by: .region, limit: 10) {
    ///     print(row.value, row.sent, row.approvalRate ?? 0)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - dimension: What to break the figures down by.
    ///   - limit: The most rows (1 to ``maximumStatsLimit``).
    /// - Returns: One row per value, empty when conversion tracking is off.
    /// - Throws: ``VerificationError`` `.invalidConfiguration` for a limit out of range, or a store fault.
    public func conversionStats(by dimension: ConversionDimension, limit: Int = 20) async throws(VerificationError)
        -> [ConversionStats] {
        guard (1...Self.maximumStatsLimit).contains(limit) else {
            throw VerificationError(.invalidConfiguration, "the limit must be 1 to \(Self.maximumStatsLimit), not \(limit)")
        }
        guard let tracking = configuration.conversion else { return [] }
        let now = clock.now()
        let prefix = ConversionKey.prefix(.sent, dimension)
        let top = try await withStore { [store] in try await store.topCounters(prefix: prefix, limit: limit, now: now) }
        let values = top.map { String($0.key.dropFirst(prefix.count)) }
        let others = values.flatMap { value in
            [ConversionMetric.delivered, .failed, .approved].map { ConversionKey(dimension, value).counterKey($0) }
        }
        let counters = try await withStore { [store] in try await store.counters(others) }
        let ms = now.millisecondsSince1970
        let window = tracking.window.windowMilliseconds
        func estimate(_ counter: WindowCounter?) -> Int {
            guard let counter else { return 0 }
            return Int((counter.rolled(to: ms, window: window).weighted(at: ms, window: window) + window / 2) / window)
        }
        let rows = zip(values, top).map { value, sent in
            let key = ConversionKey(dimension, value)
            return ConversionStats(dimension: dimension, value: value, sent: estimate(sent.counter),
                                   delivered: estimate(counters[key.counterKey(.delivered)]),
                                   failed: estimate(counters[key.counterKey(.failed)]),
                                   approved: estimate(counters[key.counterKey(.approved)]))
        }
        // A value whose counts all left the window is no row (its data goes at the next sweep).
        return rows.filter { $0.sent + $0.delivered + $0.failed + $0.approved > 0 }.sorted { $0.sent != $1.sent ? $0.sent > $1.sent : $0.value < $1.value }
    }
}

// A verifier or its guard printed into a log (a service's description of its services, say)
// names no number of the allow and deny lists and nothing of the secret.
extension PhoneVerifier: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String { "PhoneVerifier(store: \(type(of: store)), sender: \(type(of: sender)))" }
    public var debugDescription: String { description }
}

extension SendGuard: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String {
        "SendGuard(allowedNumbers: \(allowedNumbers.count), deniedNumbers: \(deniedNumbers.count), "
            + "regionCaps: \(regionCaps.map { "\($0.defaultLimit.map(String.init) ?? "none") default, \($0.perRegion.count) regions" } ?? "none"))"
    }
    public var debugDescription: String { description }
}
