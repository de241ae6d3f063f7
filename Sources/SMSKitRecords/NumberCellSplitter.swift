/// Splits a cell that holds several phone numbers into its pieces, with their byte offsets.
///
/// Separators: ` ::: ` (Google Contacts), newlines, `;`, ` or ` (any case, also ` oder `,
/// ` ou `, ` o `), `|`, and `/` or `,` only when both sides hold at least seven digits (so that
/// `030/1234567`, a German area code, and `+44 20 7946 0000, ext. 2` stay whole). Pieces are
/// trimmed of spaces and tabs; empty pieces are dropped.
///
/// ```swift
/// let cell = "+44 7700 900123 ::: +44 20 7946 0000"
/// NumberCellSplitter.split(cell).map { String(decoding: Array(cell.utf8)[$0], as: UTF8.self) }
/// // ["+44 7700 900123", "+44 20 7946 0000"]
/// ```
public enum NumberCellSplitter {
    /// The byte ranges of the numbers in `cell` (UTF-8), in order; one range for a cell with
    /// one number, none for an empty cell.
    ///
    /// - Parameter cell: The cell's bytes.
    /// - Returns: Byte ranges into `cell`.
    /// - Complexity: O(*n*) in the cell's length.
    public static func split(_ cell: UnsafeRawBufferPointer) -> [Range<Int>] {
        let count = cell.count
        var pieces: [Range<Int>] = []
        var pieceStart = 0
        var index = 0
        func digits(_ range: Range<Int>) -> Int {
            var total = 0
            for position in range where cell[position] >= UInt8(ascii: "0") && cell[position] <= UInt8(ascii: "9") { total += 1 }
            return total
        }
        func lowered(_ byte: UInt8) -> UInt8 { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte }
        func word(_ text: StaticString, at position: Int) -> Bool {
            let length = text.utf8CodeUnitCount
            guard position + length <= count else { return false }
            for offset in 0..<length where lowered(cell[position + offset]) != text.utf8Start[offset] { return false }
            return true
        }
        func add(_ end: Int) {
            var lower = pieceStart, upper = end
            while lower < upper, cell[lower] == 0x20 || cell[lower] == 0x09 || cell[lower] == 0x0D { lower += 1 }
            while upper > lower, cell[upper - 1] == 0x20 || cell[upper - 1] == 0x09 || cell[upper - 1] == 0x0D { upper -= 1 }
            if lower < upper { pieces.append(lower..<upper) }
        }
        while index < count {
            let byte = cell[index]
            var separator = 0
            switch byte {
            case UInt8(ascii: ":"):
                if word(":::", at: index) { separator = 3 }
            case UInt8(ascii: ";"), UInt8(ascii: "\n"), UInt8(ascii: "|"):
                separator = 1
            case UInt8(ascii: "/"), UInt8(ascii: ","):
                // Only between two whole numbers.
                let next = index + 1
                var end = next
                while end < count, cell[end] != byte, cell[end] != UInt8(ascii: ";"), cell[end] != UInt8(ascii: "\n") { end += 1 }
                if digits(pieceStart..<index) >= 7 && digits(next..<end) >= 7 { separator = 1 }
            case UInt8(ascii: " "):
                for text: StaticString in [" or ", " oder ", " ou ", " o "] where word(text, at: index) {
                    separator = text.utf8CodeUnitCount
                    break
                }
            default:
                break
            }
            if separator > 0 {
                add(index)
                index += separator
                pieceStart = index
            } else {
                index += 1
            }
        }
        add(count)
        return pieces
    }

    /// The byte ranges of the numbers in `cell`: see ``split(_:)-(UnsafeRawBufferPointer)``.
    public static func split(_ cell: String) -> [Range<Int>] {
        var text = cell
        return text.withUTF8 { split(UnsafeRawBufferPointer($0)) }
    }
}
