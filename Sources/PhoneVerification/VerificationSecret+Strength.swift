extension VerificationSecret {
    /// The fewest distinct byte values a secret may have.
    ///
    /// Eight, not more: a secret written as hex has only 16 byte values, and 64 random hex digits
    /// miss at least one of them about one time in four, so a higher bar would refuse good secrets.
    /// Fewer than eight distinct values in 32 random hex digits happens about once in 30 million.
    public static let minimumDistinctByteCount = 8

    /// Why a secret of at least ``minimumByteCount`` bytes is too easy to guess, or `nil` when no
    /// weakness is found.
    ///
    /// Refused: fewer than ``minimumDistinctByteCount`` distinct bytes (`aaaa…`); a block repeated
    /// over the whole secret, the last copy possibly cut short (`abab…`, `secretsecret…`); a
    /// sequence whose steps repeat (`abcdef…`, `acegik…`, `abcbcdcde…`). A phrase of words is not
    /// detected: give random bytes.
    ///
    /// ```swift
    /// VerificationSecret.lowEntropyReason(Array(repeating: UInt8(ascii: "a"), count: 32))
    /// // "has only 1 distinct byte"
    /// ```
    ///
    /// - Parameter bytes: The secret.
    /// - Returns: The reason, as the end of a sentence starting "the secret", or `nil`.
    /// - Complexity: O(*n*) in the length of the secret.
    public static func lowEntropyReason(_ bytes: [UInt8]) -> String? {
        var seen = [Bool](repeating: false, count: 256)
        var distinct = 0
        for byte in bytes where !seen[Int(byte)] {
            seen[Int(byte)] = true
            distinct += 1
        }
        if distinct < minimumDistinctByteCount {
            return "has only \(distinct) distinct byte\(distinct == 1 ? "" : "s") (at least \(minimumDistinctByteCount) are needed)"
        }
        let period = smallestPeriod(bytes)
        if period * 2 <= bytes.count {
            return "repeats a block of \(period) byte\(period == 1 ? "" : "s")"
        }
        let steps = zip(bytes.dropFirst(), bytes).map { $0 &- $1 }
        let stepPeriod = smallestPeriod(steps)
        if stepPeriod * 2 <= steps.count {
            return "is a sequence whose steps repeat every \(stepPeriod) byte\(stepPeriod == 1 ? "" : "s")"
        }
        return nil
    }

    /// The length of the shortest block whose repetition (the last copy possibly cut short) is
    /// `bytes`: the length minus the longest proper border (the prefix function of Knuth, Morris
    /// and Pratt).
    static func smallestPeriod(_ bytes: [UInt8]) -> Int {
        guard bytes.count > 1 else { return bytes.count }
        var border = [Int](repeating: 0, count: bytes.count)
        var length = 0
        for index in 1..<bytes.count {
            while length > 0 && bytes[index] != bytes[length] { length = border[length - 1] }
            if bytes[index] == bytes[length] { length += 1 }
            border[index] = length
        }
        return bytes.count - border[bytes.count - 1]
    }
}
