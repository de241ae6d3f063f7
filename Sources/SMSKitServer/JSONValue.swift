import NIOCore
import SMSKitJSON

extension JSONValue {
    /// Appends the value, compact, to `buffer`.
    func write(to buffer: inout ByteBuffer) {
        var bytes: [UInt8] = []
        write(to: &bytes)
        buffer.writeBytes(bytes)
    }

    /// The value as a buffer, with a final newline.
    var buffer: ByteBuffer {
        var bytes: [UInt8] = []
        write(to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        return ByteBuffer(bytes: bytes)
    }
}
