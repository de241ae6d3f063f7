// Strings of at most 15 ASCII bytes built straight in Swift's small-string form.
//
// On 64-bit little-endian targets a String whose UTF-8 fits in 15 bytes is stored inline in its
// two words: the bytes from the first byte on, and in the last byte the discriminator 0xE0
// (immortal, small, ASCII) with the count in its low four bits. That layout is part of the
// standard library's ABI. `String(unsafeUninitializedCapacity:)` reaches the same value through
// a runtime call and a UTF-8 validation pass: ~170 instructions for a 12-byte E.164 number, more
// than the rest of its formatting. The store checks the layout once against the standard
// library's own result (`_Tables.smallStringsVerified`); elsewhere the general initializer is used.

enum _SmallString {
    /// Whether this target may have the layout at all (checked again at run time).
    static var targetHasLayout: Bool {
        #if (arch(x86_64) || arch(arm64)) && _endian(little)
        MemoryLayout<String>.size == 16
        #else
        false
        #endif
    }

    /// Makes a String of `count` ASCII bytes (not checked) that `write` stores at the pointer it
    /// gets; in the small form when `inline` is true and `count` ≤ 15.
    @inline(__always)
    static func make(count: Int, inline: Bool, _ write: (UnsafeMutablePointer<UInt8>) -> Void) -> String {
        if inline, count <= 15 {
            var words: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &words) { write($0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
            return make(inline: words, count: count)
        }
        return String(unsafeUninitializedCapacity: count) { buffer in
            write(buffer.baseAddress!)
            return count
        }
    }

    /// The String whose first `count` (≤ 15) ASCII bytes are in `words` (in memory order), the
    /// bytes after them zero. Only when the layout was verified.
    @inline(__always)
    static func make(inline words: (UInt64, UInt64), count: Int) -> String {
        // Moved out of memory rather than `unsafeBitCast`: a bit cast to String retains the result
        // (a runtime call, ~14 instructions, though a small String holds no reference); `move()`
        // takes the value as it is.
        var raw = (words.0, words.1 | UInt64(0xE0 | count) &<< 56)
        return withUnsafeMutablePointer(to: &raw) {
            $0.withMemoryRebound(to: String.self, capacity: 1) { $0.move() }
        }
    }

    /// Whether `make(count:inline: true, ...)` gives exactly the standard library's String, for
    /// every length 0...15: same contents, count, equality, hash and contiguous UTF-8.
    static func verifyLayout() -> Bool {
        guard targetHasLayout else { return false }
        let sample: [UInt8] = Array("+12345678901234".utf8)
        for count in 0...15 {
            let made = make(count: count, inline: true) { out in
                for k in 0..<count { out[k] = sample[k] }
            }
            let reference = String(decoding: sample[0..<count], as: UTF8.self)
            guard made == reference, made.utf8.count == count, made.count == count,
                  made.hashValue == reference.hashValue, Array(made.utf8) == Array(sample[0..<count]),
                  made.utf8.withContiguousStorageIfAvailable({ Array($0) }) == Array(sample[0..<count]),
                  unsafeBitCast(made, to: (UInt64, UInt64).self) == unsafeBitCast(reference, to: (UInt64, UInt64).self)
            else { return false }
        }
        return true
    }
}
