/// GSM 7-bit septets: encoding text with a table pair, decoding, and packing into octets.
///
/// Septets are values 0...127. Packing puts them least significant bit first into octets, as in
/// TP-User-Data (3GPP TS 23.038 section 6.1.2.1); `fillBits` leaves room for a user data header so
/// that the first septet starts on a septet boundary of the whole user data.
///
/// ```swift
/// let septets = try GSM7.encode("Hi €")          // [0x48, 0x69, 0x20, 0x1B, 0x65]
/// let octets = try GSM7.pack(septets)           // 5 septets -> 5 octets
/// let back = try GSM7.unpack(octets, septetCount: septets.count)
/// try GSM7.decode(back)                         // "Hi €"
/// ```
public enum GSM7 {
    /// The escape septet to the single-shift table.
    public static let escape: UInt8 = 0x1B

    /// Packs septets into octets.
    ///
    /// - Parameters:
    ///   - septets: Values 0...127.
    ///   - fillBits: Zero bits before the first septet (0...6), for a user data header.
    /// - Returns: `(fillBits + 7 × count + 7) / 8` octets.
    /// - Throws: ``SMSEncodingError`` `.invalidSeptet` or `.invalidFillBits`.
    /// - Complexity: O(*n*).
    public static func pack(_ septets: some Collection<UInt8>, fillBits: Int = 0) throws(SMSEncodingError) -> [UInt8] {
        guard (0...6).contains(fillBits) else {
            throw SMSEncodingError(code: .invalidFillBits, message: "fill bits must be 0...6, not \(fillBits)")
        }
        let bitCount = fillBits + 7 * septets.count
        var octets = [UInt8](repeating: 0, count: (bitCount + 7) / 8)
        var bit = fillBits
        for (index, septet) in septets.enumerated() {
            guard septet < 0x80 else {
                throw SMSEncodingError(code: .invalidSeptet, message: "septet 0x\(String(septet, radix: 16, uppercase: true)) at index \(index) is not 7-bit")
            }
            let octet = bit >> 3
            let shift = bit & 7
            octets[octet] |= septet << shift
            if shift > 1 { octets[octet + 1] |= septet >> (8 - shift) }
            bit += 7
        }
        return octets
    }

    /// Unpacks septets from octets.
    ///
    /// - Parameters:
    ///   - octets: Packed user data (after any user data header).
    ///   - septetCount: How many septets to read (TP-UDL minus the header septets).
    ///   - fillBits: Bits to skip before the first septet (0...6).
    /// - Returns: `septetCount` septets.
    /// - Throws: ``SMSEncodingError`` `.invalidFillBits`, `.invalidLength` for a negative count, or
    ///   `.truncatedData` when `octets` is too short.
    /// - Complexity: O(*n*).
    public static func unpack(_ octets: some Collection<UInt8>, septetCount: Int, fillBits: Int = 0) throws(SMSEncodingError) -> [UInt8] {
        guard (0...6).contains(fillBits) else {
            throw SMSEncodingError(code: .invalidFillBits, message: "fill bits must be 0...6, not \(fillBits)")
        }
        guard septetCount >= 0 else {
            throw SMSEncodingError(code: .invalidLength, message: "septet count must not be negative (\(septetCount))")
        }
        let bytes = Array(octets)
        let needed = (fillBits + 7 * septetCount + 7) / 8
        guard bytes.count >= needed else {
            throw SMSEncodingError(code: .truncatedData, message: "\(septetCount) septets need \(needed) octets, got \(bytes.count)")
        }
        var septets = [UInt8]()
        septets.reserveCapacity(septetCount)
        var bit = fillBits
        for _ in 0..<septetCount {
            let octet = bit >> 3
            let shift = bit & 7
            var value = UInt16(bytes[octet]) >> shift
            if shift > 1 { value |= UInt16(bytes[octet + 1]) << (8 - shift) }
            septets.append(UInt8(value & 0x7F))
            bit += 7
        }
        return septets
    }

    /// Encodes text as septets with a table pair; escaped characters give two septets.
    ///
    /// - Parameters:
    ///   - text: The text; every scalar must be in the locking-shift or single-shift table.
    ///   - tables: The table pair; the default alphabet and extension table by default.
    /// - Returns: The septets, including escapes.
    /// - Throws: ``SMSEncodingError`` `.unencodableCharacter` (with its UTF-16 offset) or
    ///   `.unavailableTable` for a Spanish locking-shift table.
    /// - Complexity: O(*n* log *k*), *k* the table size.
    public static func encode(_ text: String, tables: SMSNationalLanguageTables = .default) throws(SMSEncodingError) -> [UInt8] {
        let (locking, shift) = try indices(tables)
        var septets = [UInt8]()
        septets.reserveCapacity(text.utf8.count)
        var offset = 0
        for scalar in text.unicodeScalars {
            guard appendSeptets(of: scalar.value, locking: locking, shift: shift, to: &septets) else {
                throw SMSEncodingError(
                    code: .unencodableCharacter,
                    message: "U+\(hex(scalar.value)) at UTF-16 offset \(offset) is not in the \(describe(tables)) tables")
            }
            offset += scalar.utf16.count
        }
        return septets
    }

    /// Decodes septets with a table pair.
    ///
    /// Follows TS 23.038: an escape followed by a septet that the single-shift table does not
    /// define shows the locking-shift character; an escape followed by another escape (reserved)
    /// or at the end shows a space. A septet that the locking-shift table does not define becomes
    /// U+FFFD.
    ///
    /// - Parameters:
    ///   - septets: Values 0...127.
    ///   - tables: The table pair the sender used (from the user data header).
    /// - Returns: The text.
    /// - Throws: ``SMSEncodingError`` `.invalidSeptet` or `.unavailableTable`.
    /// - Complexity: O(*n*).
    public static func decode(_ septets: some Collection<UInt8>, tables: SMSNationalLanguageTables = .default) throws(SMSEncodingError) -> String {
        let (locking, shift) = try indices(tables)
        let lockingTable = _gsmLockingTables[locking]
        let shiftTable = _gsmSingleShiftTables[shift]
        var scalars = String.UnicodeScalarView()
        var escaped = false
        for (index, septet) in septets.enumerated() {
            guard septet < 0x80 else {
                throw SMSEncodingError(code: .invalidSeptet, message: "septet 0x\(String(septet, radix: 16, uppercase: true)) at index \(index) is not 7-bit")
            }
            if escaped {
                escaped = false
                if septet == escape {
                    scalars.append(" ")
                } else if shiftTable[Int(septet)] != 0 {
                    scalars.append(Unicode.Scalar(shiftTable[Int(septet)])!)
                } else {
                    scalars.append(scalar(lockingTable[Int(septet)]))
                }
            } else if septet == escape {
                escaped = true
            } else {
                scalars.append(scalar(lockingTable[Int(septet)]))
            }
        }
        if escaped { scalars.append(" ") }
        return String(scalars)
    }

    // MARK: - Internal

    static func indices(_ tables: SMSNationalLanguageTables) throws(SMSEncodingError) -> (Int, Int) {
        if let language = tables.lockingShift, !language.hasLockingShiftTable {
            throw SMSEncodingError(code: .unavailableTable, message: "\(language) has no locking-shift table (only a single-shift table)")
        }
        return (Int(tables.lockingShift?.rawValue ?? 0), Int(tables.singleShift?.rawValue ?? 0))
    }

    /// Appends the septets of one code point; false when the pair cannot encode it.
    @inline(__always)
    static func appendSeptets(of value: UInt32, locking: Int, shift: Int, to septets: inout [UInt8]) -> Bool {
        if let septet = _GSMCharacterIndex.septet(value, in: _gsmIndex.lockingReverse[locking]) {
            septets.append(septet)
            return true
        }
        if let septet = _GSMCharacterIndex.septet(value, in: _gsmIndex.shiftReverse[shift]) {
            septets.append(escape)
            septets.append(septet)
            return true
        }
        return false
    }

    static func scalar(_ value: UInt16) -> Unicode.Scalar {
        value == 0 ? "\u{FFFD}" : Unicode.Scalar(value)!
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    static func describe(_ tables: SMSNationalLanguageTables) -> String {
        let locking = tables.lockingShift.map { "\($0) locking-shift" } ?? "default alphabet"
        let shift = tables.singleShift.map { "\($0) single-shift" } ?? "default extension"
        return "\(locking) and \(shift)"
    }
}
