/// The name of the carrier a mobile number range was originally given to, in one language of
/// libphonenumber's data: a small index into the generated tables, so that getting one allocates
/// nothing.
///
/// ```swift
/// let name = engine.carrierName(of: try engine.parse(e164: "+40721234567"), locale: .english)
/// name?.text      // "Vodafone"
/// ```
public struct CarrierName: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The name's index in the generated tables.
    let index: UInt16

    init(index: UInt16) { self.index = index }

    /// The name as a String (allocates unless it is 15 bytes of UTF-8 or fewer).
    public var text: String { String(decoding: utf8, as: UTF8.self) }

    /// The name's UTF-8 bytes in the tables' read-only memory, valid for the life of the
    /// process: reading them allocates nothing.
    public var utf8: UnsafeBufferPointer<UInt8> { CarrierTable.utf8(index) }

    public var description: String { text }

    /// Orders names by their code points (the generator sorts them).
    public static func < (a: CarrierName, b: CarrierName) -> Bool { a.index < b.index }
}
