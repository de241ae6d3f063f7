/// SplitMix64 (Steele, Lea and Flood 2014): a tiny deterministic generator shared by the test
/// targets, so that property, security and robustness tests check the same inputs on every run
/// and a failure reproduces.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound` (`bound` > 0) from the high half of a full-width product.
    public mutating func next(below bound: UInt64) -> UInt64 {
        next().multipliedFullWidth(by: bound).high
    }

    /// A value in `0..<bound` (`bound` > 0) by remainder.
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// One of `items` (not empty), chosen with ``below(_:)``.
    public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}
