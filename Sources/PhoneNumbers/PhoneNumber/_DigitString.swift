/// A short string of ASCII digits kept inline (no heap): national numbers while they are parsed.
/// Capacity 64; appends beyond it are dropped, so callers refuse longer input first.
struct _DigitString {
    static let capacity = 64
    private var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    private(set) var count = 0

    init() {}

    init(_ digits: UnsafeBufferPointer<UInt8>) {
        append(digits)
    }

    /// The byte at `i` (no bounds check beyond the capacity).
    @inline(__always)
    subscript(i: Int) -> UInt8 {
        withUnsafeBytes(of: storage) { $0[i] }
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        guard count < Self.capacity else { return }
        let i = count
        withUnsafeMutableBytes(of: &storage) { $0[i] = byte }
        count &+= 1
    }

    /// Writes `byte` after the digits and counts it only when `keep` is true: a conditional
    /// append without a branch on `keep`.
    @inline(__always)
    mutating func append(_ byte: UInt8, keep: Bool) {
        guard count < Self.capacity else { return }
        let i = count
        withUnsafeMutableBytes(of: &storage) { $0[i] = byte }
        count &+= keep ? 1 : 0
    }

    mutating func append(_ digits: UnsafeBufferPointer<UInt8>) {
        let n = min(digits.count, Self.capacity - count)
        guard n > 0 else { return }
        let start = count
        withUnsafeMutableBytes(of: &storage) { raw in
            for i in 0..<n { raw[start &+ i] = digits[i] }
        }
        count &+= n
    }

    @inline(__always)
    func withBuffer<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let n = count
        // The borrowed storage itself, not a 64-byte copy of it.
        return withUnsafeBytes(of: storage) { raw in
            body(UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), count: n))
        }
    }
}
