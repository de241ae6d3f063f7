/// Builds a String from Unicode scalar values (all valid scalars), encoding UTF-8 directly.
func _makeString<C: Collection>(_ items: C, value: (C.Element) -> UInt32) -> String {
    var byteCount = 0
    for item in items {
        let scalar = value(item)
        byteCount += scalar < 0x80 ? 1 : scalar < 0x800 ? 2 : scalar < 0x10000 ? 3 : 4
    }
    return String(unsafeUninitializedCapacity: byteCount) { buffer in
        var position = 0
        for item in items {
            let scalar = value(item)
            if scalar < 0x80 {
                buffer[position] = UInt8(scalar)
                position += 1
            } else if scalar < 0x800 {
                buffer[position] = UInt8(0xC0 | scalar >> 6)
                buffer[position + 1] = UInt8(0x80 | scalar & 0x3F)
                position += 2
            } else if scalar < 0x10000 {
                buffer[position] = UInt8(0xE0 | scalar >> 12)
                buffer[position + 1] = UInt8(0x80 | scalar >> 6 & 0x3F)
                buffer[position + 2] = UInt8(0x80 | scalar & 0x3F)
                position += 3
            } else {
                buffer[position] = UInt8(0xF0 | scalar >> 18)
                buffer[position + 1] = UInt8(0x80 | scalar >> 12 & 0x3F)
                buffer[position + 2] = UInt8(0x80 | scalar >> 6 & 0x3F)
                buffer[position + 3] = UInt8(0x80 | scalar & 0x3F)
                position += 4
            }
        }
        return position
    }
}
