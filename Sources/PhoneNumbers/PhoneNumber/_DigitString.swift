/// A short string of ASCII digits kept inline (no heap): national numbers while they are parsed.
/// Capacity 64; appends beyond it are dropped, so callers refuse longer input first.
struct _DigitString {
    static let capacity = 64
    var bytes = SIMD64<UInt8>(repeating: 0)
    var count = 0

    init() {}

    init(_ digits: UnsafeBufferPointer<UInt8>) {
        for d in digits { append(d) }
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        guard count < Self.capacity else { return }
        bytes[count] = byte
        count &+= 1
    }

    mutating func append(zeros: Int) {
        for _ in 0..<min(max(zeros, 0), Self.capacity) { append(0x30) }
    }

    mutating func append(decimal value: UInt64) {
        if value == 0 { append(0x30); return }
        var reversed = SIMD32<UInt8>(repeating: 0)
        var n = 0
        var v = value
        while v > 0 {
            reversed[n] = UInt8(truncatingIfNeeded: v % 10) &+ 0x30
            v /= 10
            n &+= 1
        }
        while n > 0 {
            n &-= 1
            append(reversed[n])
        }
    }

    mutating func append(_ digits: UnsafeBufferPointer<UInt8>) {
        for d in digits { append(d) }
    }

    @inline(__always)
    func withBuffer<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var copy = bytes
        let n = count
        return withUnsafeBytes(of: &copy) { raw in
            body(UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), count: n))
        }
    }

    /// The value of the digits (at most 19 of them fit).
    var decimalValue: UInt64 {
        var v: UInt64 = 0
        for i in 0..<count { v = v &* 10 &+ UInt64(bytes[i] &- 0x30) }
        return v
    }
}
