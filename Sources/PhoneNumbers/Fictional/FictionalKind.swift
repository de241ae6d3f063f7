/// Why a telephone number counts as fictional, from the strongest claim to the weakest.
///
/// A fictional number is one that no real person should ever be reached on: regulators keep some
/// ranges out of service so that films, books and documentation can print them, and test tooling
/// has conventions of its own. The kind tells you how much that claim rests on.
///
/// The raw value is the spelling used in the range table (`Resources/FictionalRanges`) and in the
/// `fictional` column of the `smskit` output.
///
/// ```swift
/// if let range = FictionalRanges.all.first, range.kind == .reservedForFiction {
///     print(range.kind.rawValue)  // "reserved-for-fiction"
/// }
/// ```
public enum FictionalKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// The national regulator reserves the range for drama, fiction and examples, and the regulator's
    /// own text (or a verbatim quote of it) was checked: Ofcom's numbers for drama, ACMA's numbers for
    /// creative works, the Bundesnetzagentur's drama numbers, NANPA's 555-0100 to 555-0199.
    case reservedForFiction = "reserved-for-fiction"

    /// A North American number in the 555 exchange outside the reserved 555-0100 to 555-0199 block,
    /// such as Firebase's example test number +1 650-555-3434.
    ///
    /// Test tooling uses these, but NANPA returned them to assignable inventory, so a number of this
    /// kind may one day belong to someone. 555-1212 (directory assistance) and 555-4334 are excluded.
    case nanp555Convention = "nanp-555-convention"

    /// Reported as fictional or reserved by secondary sources only; the regulator's text could not be
    /// checked, or sources disagree. Treat it as a hint, not a guarantee.
    case reported = "reported"
}
