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

    /// Appends the run of digits and separators at `bytes[start...]` (as `append(_:keep:)` per
    /// byte: every byte written, digits kept) and returns where the run ends and how many digits
    /// it has, those past the capacity included. `classes` has one byte per byte value: bit 0 for
    /// a digit, bit 1 for a separator, neither for a byte that ends the run.
    ///
    /// While the rest of the input fits, the loop keeps the count in a register and tests
    /// nothing but the class: `append(_:keep:)` per byte tests the capacity and stores the count
    /// back to memory each time.
    @inline(__always)
    mutating func appendRun(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, classes: UnsafePointer<UInt8>
    ) -> (end: Int, digits: Int) {
        let n = bytes.count
        var i = start
        let before = count
        var k = before
        let room = Self.capacity &- before
        let fastEnd = n &- start <= room ? n : start &+ room
        withUnsafeMutableBytes(of: &storage) { raw in
            let out = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            while i < fastEnd {
                let byte = bytes[i]
                let kind = classes[Int(byte)]
                if kind & 3 == 0 { break }
                out[k] = byte  // k < before + room: within the capacity
                k &+= Int(kind & 1)
                i &+= 1
            }
        }
        count = k
        var digits = k &- before
        // Input longer than the room left (rare): the rest byte by byte, as `append(_:keep:)`
        // does. Tested on `fastEnd`, not on where the run stopped, which varies: one more
        // mispredicted branch per run.
        while fastEnd < n, i < n {
            let byte = bytes[i]
            let kind = classes[Int(byte)]
            if kind & 3 == 0 { break }
            let isDigit = kind & 1 != 0
            append(byte, keep: isDigit)
            digits &+= isDigit ? 1 : 0
            i &+= 1
        }
        return (i, digits)
    }

    /// Appends `table[c]` for each scalar `c` of `scalars` (all ASCII: the table has 128
    /// entries), keeping it unless it is "@": `append(_:keep:)` per scalar, with the count in a
    /// register while the scalars fit the capacity (see ``appendRun(_:from:classes:)``).
    @inline(__always)
    mutating func appendMapped(_ scalars: UnsafeBufferPointer<Unicode.Scalar>, through table: UnsafePointer<UInt8>) {
        let n = scalars.count
        var i = 0
        var k = count
        let fastEnd = min(n, Self.capacity &- k)
        withUnsafeMutableBytes(of: &storage) { raw in
            let out = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            while i < fastEnd {
                let byte = table[Int(scalars[i].value)]
                out[k] = byte  // k < count + fastEnd: within the capacity
                k &+= byte != UInt8(ascii: "@") ? 1 : 0
                i &+= 1
            }
        }
        count = k
        while i < n {
            let byte = table[Int(scalars[i].value)]
            append(byte, keep: byte != UInt8(ascii: "@"))
            i &+= 1
        }
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

    /// ``withBuffer(_:)`` over the storage itself, by address: for a `let` or a parameter
    /// taken by value, the compiler copies the 64 bytes to the stack first.
    @inline(__always)
    mutating func withBufferInPlace<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let n = count
        return withUnsafeBytes(of: &storage) { raw in
            body(UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), count: n))
        }
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
