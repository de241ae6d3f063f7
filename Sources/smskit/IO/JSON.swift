import SMSKitJSON

/// JSON strings for the commands that write JSON lines byte by byte (``JSONEscaping``).
enum _JSONText {
    /// Appends `"text"` with JSON escapes.
    static func appendString(_ text: String, to out: inout [UInt8]) {
        JSONEscaping.appendQuoted(text, to: &out)
    }

    /// Appends a quoted JSON string from valid UTF-8 bytes.
    static func appendString(bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        JSONEscaping.appendQuoted(bytes: bytes, to: &out)
    }
}
