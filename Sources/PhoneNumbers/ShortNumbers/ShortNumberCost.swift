/// The expected cost of calling or texting a short number (libphonenumber's `ShortNumberCost`).
///
/// Emergency numbers count as toll free. A number that matches no cost category, or is not a
/// possible short number of the region, is ``unknownCost``: it may be premium rate.
///
/// ```swift
/// let engine = PhoneNumberEngine()
/// engine.expectedCost(of: PhoneNumber(countryCode: 1, nationalNumber: 24280), forRegion: "US")  // .premiumRate
/// engine.expectedCost(of: PhoneNumber(countryCode: 1, nationalNumber: 112), forRegion: "US")    // .tollFree
/// ```
public enum ShortNumberCost: String, Sendable, Hashable, Codable, CaseIterable {
    /// Free to call.
    case tollFree = "toll_free"
    /// Charged at the standard rate.
    case standardRate = "standard_rate"
    /// Charged at a premium rate.
    case premiumRate = "premium_rate"
    /// The data does not say; treat it as possibly premium.
    case unknownCost = "unknown_cost"
}
