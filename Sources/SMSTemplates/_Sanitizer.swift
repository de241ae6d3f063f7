/// Cleans argument values before ICU sees them. Internal: not API.
///
/// Removed: C0 and C1 controls (U+0000–U+001F, U+007F–U+009F: a newline in an app name would
/// break the WebOTP last-line rule), and the bidi controls that can reorder or hide text around
/// them: LRM/RLM (U+200E, U+200F), ALM (U+061C), the embeddings and overrides U+202A–U+202E and
/// the isolates U+2066–U+2069 (SMSKit adds its own balanced isolates where it judges them needed).
enum _Sanitizer {
    static func isRemoved(_ value: UInt32) -> Bool {
        switch value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// Appends the cleaned `text` to `output`; returns the number of scalars kept and whether any
    /// were removed. Printable ASCII is copied without per-scalar work.
    @inline(__always)
    static func append(_ text: String, to output: inout String) -> (scalars: Int, removed: Bool, isASCII: Bool) {
        var isPrintableASCII = true
        var count = 0
        for byte in text.utf8 {
            count += 1
            if byte < 0x20 || byte >= 0x7F { isPrintableASCII = false; break }
        }
        if isPrintableASCII {
            output.append(text)
            return (count, false, true)
        }
        var kept = 0
        var removed = false
        var isASCII = true
        for scalar in text.unicodeScalars {
            if isRemoved(scalar.value) { removed = true; continue }
            output.unicodeScalars.append(scalar)
            kept += 1
            if scalar.value >= 0x80 { isASCII = false }
        }
        return (kept, removed, isASCII)
    }

    /// Cleans a one-time code: removes what `append` removes, folds any Unicode decimal digit to
    /// ASCII (autofill reads ASCII digits only), and accepts 1 to 16 ASCII letters, digits or
    /// hyphens. Returns nil when the code is not acceptable.
    static func appendCode(_ code: String, to output: inout String) -> (ok: Bool, folded: Bool, removed: Bool) {
        // Fast path: already 1 to 16 ASCII letters, digits or hyphens (checked over the contiguous
        // UTF-8 bytes, without the UTF8View iterator).
        let utf8 = code.utf8
        if utf8.count >= 1, utf8.count <= 16, utf8.withContiguousStorageIfAvailable({ bytes in
            for byte in bytes {
                switch byte {
                case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D: continue
                default: return false
                }
            }
            return true
        }) == true {
            output.append(code)
            return (true, false, false)
        }
        var length = 0
        var folded = false
        var removed = false
        for scalar in code.unicodeScalars {
            var ascii: UInt8
            switch scalar.value {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D:
                ascii = UInt8(scalar.value)
            default:
                if isRemoved(scalar.value) { removed = true; continue }
                guard let digit = _ICU.digitValue(scalar) else { return (false, folded, removed) }
                ascii = UInt8(ascii: "0") + UInt8(digit)
                folded = true
            }
            length += 1
            guard length <= 16 else { return (false, folded, removed) }
            output.unicodeScalars.append(Unicode.Scalar(ascii))
        }
        return (length > 0, folded, removed)
    }
}
