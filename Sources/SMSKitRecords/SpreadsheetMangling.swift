/// What spreadsheets do to phone numbers, recognized in a cell.
///
/// Excel shows a long digit string as a number in scientific notation (`4.47911E+11`, or
/// `4,47911E+11` where the decimal separator is a comma) and saves it so: the trailing digits
/// are lost, and no parser can bring them back. Users protect numbers with a leading
/// apostrophe (`'+4930...`), which Excel hides but some exports keep.
///
/// ```swift
/// SpreadsheetMangling.isScientificNotation("4.47911E+11")   // true: report spreadsheet_number
/// SpreadsheetMangling.isScientificNotation("+44 20 7946 0000") // false
/// SpreadsheetMangling.strippingApostrophe("'+49 30 1234567")  // "+49 30 1234567"
/// ```
public enum SpreadsheetMangling {
    /// Whether a cell is a number in scientific notation: optional spaces and sign, one to three
    /// digits, optionally `.` or `,` and digits, then `E` or `e`, an optional sign and digits.
    ///
    /// - Parameter cell: The cell's bytes.
    /// - Returns: True for `4.47911E+11`, `4,47911E+11`, `4.5e11`, `+4.47911E+011`.
    public static func isScientificNotation(_ cell: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        let count = cell.count
        func isDigit(_ at: Int) -> Bool { at < count && cell[at] >= UInt8(ascii: "0") && cell[at] <= UInt8(ascii: "9") }
        while index < count, cell[index] == 0x20 { index += 1 }
        if index < count, cell[index] == UInt8(ascii: "+") || cell[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        while isDigit(index) { index += 1 }
        guard index > integerStart, index - integerStart <= 3 else { return false }
        if index < count, cell[index] == UInt8(ascii: ".") || cell[index] == UInt8(ascii: ",") {
            index += 1
            let fractionStart = index
            while isDigit(index) { index += 1 }
            guard index > fractionStart else { return false }
        }
        guard index < count, cell[index] == UInt8(ascii: "E") || cell[index] == UInt8(ascii: "e") else { return false }
        index += 1
        if index < count, cell[index] == UInt8(ascii: "+") || cell[index] == UInt8(ascii: "-") { index += 1 }
        let exponentStart = index
        while isDigit(index) { index += 1 }
        guard index > exponentStart else { return false }
        while index < count, cell[index] == 0x20 { index += 1 }
        return index == count
    }

    /// Whether a cell is a number in scientific notation: see ``isScientificNotation(_:)-(UnsafeRawBufferPointer)``.
    public static func isScientificNotation(_ cell: String) -> Bool {
        var text = cell
        return text.withUTF8 { isScientificNotation(UnsafeRawBufferPointer($0)) }
    }

    /// The range of `cell` without one leading apostrophe (`'`, or U+2019 `’`), after spaces.
    ///
    /// - Parameter cell: The cell's bytes.
    /// - Returns: The byte range to parse.
    public static func apostropheStripped(_ cell: UnsafeRawBufferPointer) -> Range<Int> {
        var index = 0
        while index < cell.count, cell[index] == 0x20 { index += 1 }
        if index < cell.count, cell[index] == UInt8(ascii: "'") { return (index + 1)..<cell.count }
        if index + 2 < cell.count, cell[index] == 0xE2, cell[index + 1] == 0x80, cell[index + 2] == 0x99 {
            return (index + 3)..<cell.count
        }
        return 0..<cell.count
    }

    /// `cell` without one leading apostrophe: see ``apostropheStripped(_:)``.
    public static func strippingApostrophe(_ cell: String) -> String {
        var text = cell
        return text.withUTF8 { buffer in
            let bytes = UnsafeRawBufferPointer(buffer)
            return String(decoding: bytes[apostropheStripped(bytes)], as: UTF8.self)
        }
    }
}
