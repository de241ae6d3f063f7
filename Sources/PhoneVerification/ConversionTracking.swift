import PhoneNumbers

/// What the conversion statistics are broken down by.
public enum ConversionDimension: String, Sendable, Hashable, CaseIterable, Codable {
    /// The number's region (ISO 3166-1 alpha-2, `001` for non-geographic numbers).
    case region
    /// The guard's number range: calling code and the first digits of the national number (`44:7400`).
    case range
    /// The carrier the number's range was given to, where the metadata names one.
    case carrier

    /// The letter of the dimension in counter keys.
    var letter: String {
        switch self {
        case .region: "r"
        case .range: "g"
        case .carrier: "k"
        }
    }
}

/// What one conversion counter counts.
public enum ConversionMetric: String, Sendable, Hashable, CaseIterable, Codable {
    /// SMS sent by starts (first sends and resends).
    case sent
    /// Messages that reached the handset (a final delivery report).
    case delivered
    /// Messages that the network gave up on (a final delivery report).
    case failed
    /// Verifications approved.
    case approved

    var letter: String {
        switch self {
        case .sent: "s"
        case .delivered: "d"
        case .failed: "f"
        case .approved: "a"
        }
    }
}

/// One value of a dimension a number falls in: `region GB`, `range 44:7400`, `carrier Vodafone`.
///
/// Counters live in the store's window table under `x<metric>:<dimension>:<value>` (`xs:r:GB`,
/// `xa:g:44:7400`), and a conversion hold under `xh:<dimension>:<value>`; the sweep removes them
/// as it removes rate-limit windows.
public struct ConversionKey: Sendable, Hashable {
    /// The dimension.
    public var dimension: ConversionDimension
    /// The value (region code, range, carrier name).
    public var value: String

    /// Creates a key.
    public init(_ dimension: ConversionDimension, _ value: String) {
        self.dimension = dimension
        self.value = value
    }

    /// The part of the counter keys after the metric: `r:GB`.
    public var suffix: String { dimension.letter + ":" + value }

    /// The key of one metric's counter: `xs:r:GB`.
    public func counterKey(_ metric: ConversionMetric) -> String { "x" + metric.letter + ":" + suffix }

    /// The key of the dimension value's conversion hold: `xh:r:GB`.
    public var holdKey: String { "xh:" + suffix }

    /// The prefix of every counter of one metric and dimension (`xs:r:`).
    public static func prefix(_ metric: ConversionMetric, _ dimension: ConversionDimension) -> String {
        "x" + metric.letter + ":" + dimension.letter + ":"
    }
}

/// How the verifier counts conversion: SMS sent, delivered and failed, and verifications
/// approved, per region, per range and per carrier, over a sliding window.
///
/// Each counter is a ``WindowCounter``: two buckets as long as the window, the previous one
/// weighted by how much of it still lies in the window, so a figure is an estimate of the last
/// `window` (exact when the traffic is even over the two buckets). Sent is counted when a start
/// sends an SMS (first sends and resends, not test numbers), approved when a check approves (a
/// separate store operation after the approval: a crash between the two loses one approval from
/// the statistics, never a verification), delivered and failed by
/// ``PhoneVerifier/countDelivery(e164:delivered:)`` when a message reaches its final state.
public struct ConversionTracking: Sendable, Hashable {
    /// The sliding window of the counters: 24 h by default.
    public var window: Duration
    /// The digits of the national number in a range: 6 by default (the range velocity detector's length).
    public var rangePrefixLength: Int

    /// Creates the tracking configuration.
    public init(window: Duration = .seconds(86_400), rangePrefixLength: Int = 6) {
        self.window = window
        self.rangePrefixLength = rangePrefixLength
    }
}

/// A per-region cap on SMS sent (first sends and resends) per sliding 24 hours.
///
/// GitLab moved its phone verification to per-dial-code daily limits because global limits trip
/// too late for countries with little traffic: a region that normally takes a few codes a day
/// cannot be made to take thousands. Regions not in ``perRegion`` get ``defaultLimit``.
public struct RegionCaps: Sendable, Hashable {
    /// SMS per region per 24 h, for regions without their own; `nil` for no cap on them.
    public var defaultLimit: Int?
    /// Caps of single regions (they replace the default for that region).
    public var perRegion: [RegionCode: Int]
    /// Monitor mode: a start over the cap is counted and reported in
    /// ``StartedVerification/monitored``, not refused.
    public var monitor: Bool

    /// Creates caps; by default 10,000 SMS per region per 24 h, enforced.
    public init(defaultLimit: Int? = 10_000, perRegion: [RegionCode: Int] = [:], monitor: Bool = false) {
        self.defaultLimit = defaultLimit
        self.perRegion = perRegion
        self.monitor = monitor
    }

    /// The window of the caps: 24 h, sliding.
    public static let window = Duration.seconds(86_400)

    /// The cap of a region, or `nil` when it has none.
    public func limit(for region: RegionCode) -> Int? { perRegion[region] ?? defaultLimit }
}

/// A conversion hold: a region or range whose conversion falls under a floor, over a minimum
/// volume, takes no starts for a while (Twilio's Fraud Guard and Vonage's "volume threshold and
/// conversion rate" blocks work so).
///
/// Over the conversion window (``ConversionTracking/window``), once at least ``minimumSent`` SMS
/// went to the region or range, it is held for ``duration`` when approved / sent is under
/// ``minimumApprovalRatio``, or, once delivery reports arrived for it (delivered + failed > 0),
/// when delivered / sent is under ``minimumDeliveryRatio``. A held start fails with
/// ``VerificationError/Code/conversionHold`` and a `retryAfter` at the hold's end.
public struct ConversionHold: Sendable, Hashable {
    /// SMS in the window before the ratios are looked at.
    public var minimumSent: Int
    /// The least share of SMS followed by an approval (0 to 1).
    public var minimumApprovalRatio: Double
    /// The least share of SMS delivered, once reports arrive (0 to 1), or `nil` to ignore delivery.
    public var minimumDeliveryRatio: Double?
    /// How long a tripped hold lasts.
    public var duration: Duration
    /// Monitor mode: a start the hold would refuse is reported in
    /// ``StartedVerification/monitored``, not refused, and no hold is written.
    public var monitor: Bool

    /// Creates a hold rule.
    public init(minimumSent: Int, minimumApprovalRatio: Double, minimumDeliveryRatio: Double? = nil,
                duration: Duration, monitor: Bool = false) {
        self.minimumSent = minimumSent
        self.minimumApprovalRatio = minimumApprovalRatio
        self.minimumDeliveryRatio = minimumDeliveryRatio
        self.duration = duration
        self.monitor = monitor
    }

    /// The range default: 50 SMS, 10 % approved, 30 % delivered, held 12 h.
    public static let rangeDefault = ConversionHold(minimumSent: 50, minimumApprovalRatio: 0.1,
                                                    minimumDeliveryRatio: 0.3, duration: .seconds(12 * 3600))
    /// The region default: 500 SMS, 10 % approved, 30 % delivered, held 6 h.
    public static let regionDefault = ConversionHold(minimumSent: 500, minimumApprovalRatio: 0.1,
                                                     minimumDeliveryRatio: 0.3, duration: .seconds(6 * 3600))

    func rule(_ key: ConversionKey, window: Duration) -> HoldRule {
        HoldRule(key: key.suffix, window: window, minimumSent: minimumSent,
                 minimumApprovedBasisPoints: Int((minimumApprovalRatio * 10_000).rounded()),
                 minimumDeliveredBasisPoints: minimumDeliveryRatio.map { Int(($0 * 10_000).rounded()) },
                 duration: duration, monitor: monitor)
    }

    var isValid: Bool {
        minimumSent >= 1 && (0...1).contains(minimumApprovalRatio) && duration > .zero
            && (minimumDeliveryRatio.map { (0...1).contains($0) } ?? true)
    }
}
