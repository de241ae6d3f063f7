/// Codes and verification IDs from the system's cryptographically secure generator.
///
/// `SystemRandomNumberGenerator` reads `getrandom(2)` on Linux and `arc4random_buf` on Apple
/// platforms: both are CSPRNGs.
enum _Random {
    /// The length of a verification ID: 16 random bytes in URL-safe base64 without padding.
    static let idLength = 22

    /// A code of `length` ASCII digits, uniform over 0 ..< 10^length, leading zeros kept.
    static func code(length: Int) -> String {
        precondition((4...10).contains(length))
        var upper: UInt64 = 1
        for _ in 0..<length { upper &*= 10 }
        var generator = SystemRandomNumberGenerator()
        var value = UInt64.random(in: 0..<upper, using: &generator)  // unbiased (rejection sampling)
        return String(unsafeUninitializedCapacity: length) { buffer in
            for index in stride(from: length - 1, through: 0, by: -1) {
                buffer[index] = UInt8(truncatingIfNeeded: value % 10) &+ 0x30
                value /= 10
            }
            return length
        }
    }

    /// A verification ID: 128 random bits as 22 URL-safe base64 characters.
    static func id() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        let alphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
        return String(unsafeUninitializedCapacity: idLength) { buffer in
            // 128 bits, six at a time from the top; the last character carries the final 2 bits.
            let table = alphabet.utf8Start
            for index in 0..<idLength {
                let shift = 128 - 6 * (index + 1)
                let sextet: UInt64
                if shift >= 64 {
                    sextet = (high >> UInt64(shift - 64)) & 63
                } else if shift > -6 && shift < 0 {
                    sextet = (low << UInt64(-shift)) & 63
                } else if shift >= 0 && shift + 6 > 64 {
                    sextet = ((high << UInt64(64 - shift)) | (low >> UInt64(shift))) & 63
                } else {
                    sextet = (low >> UInt64(shift)) & 63
                }
                buffer[index] = table[Int(sextet)]
            }
            return idLength
        }
    }

    /// Whether `text` has the shape of a verification ID: 22 characters of the URL-safe alphabet.
    static func isWellFormedID(_ text: String) -> Bool {
        var count = 0
        for byte in text.utf8 {
            count &+= 1
            guard count <= idLength else { return false }
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                continue
            default:
                return false
            }
        }
        return count == idLength
    }

    /// Whether `code` is 4 to 10 ASCII digits.
    static func isWellFormedCode(_ code: String) -> Bool {
        var count = 0
        for byte in code.utf8 {
            guard byte &- UInt8(ascii: "0") < 10 else { return false }
            count &+= 1
            guard count <= 10 else { return false }
        }
        return count >= 4
    }
}
