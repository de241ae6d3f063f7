/// Which text encoding a ``RecordReader`` expects.
///
/// ```swift
/// let reader = RecordReader(fd: fd, name: "export.txt", dialect: .tab, encoding: .automatic)
/// ```
public enum InputEncoding: String, CaseIterable, Sendable {
    /// UTF-8 (a byte order mark is skipped), or UTF-16 with a byte order mark (decoded);
    /// anything else that can be recognized (UTF-16 without a mark, UTF-32, Latin-1) is refused
    /// with an error naming `iconv`: see ``EncodingDetection/detect(prefix:isWholeInput:)``.
    case automatic
    /// UTF-8, never sniffed (a byte order mark is skipped). Invalid bytes reach the records.
    case utf8 = "utf-8"
    /// UTF-16 little-endian, with or without a byte order mark, decoded to UTF-8.
    case utf16LittleEndian = "utf-16le"
    /// UTF-16 big-endian, with or without a byte order mark, decoded to UTF-8.
    case utf16BigEndian = "utf-16be"
}

/// An encoding that the reader recognized but does not decode, with what gave it away.
///
/// Its ``message(for:)`` tells the user how to convert the file with `iconv`.
public struct UnsupportedEncoding: Hashable, Sendable {
    /// The encoding's name as `iconv -f` spells it: `UTF-16LE`, `UTF-32BE`, `WINDOWS-1252`.
    public var iconvName: String
    /// What the reader saw: `a NUL in every other byte`, `byte order mark FF FE 00 00`.
    public var evidence: String

    /// Creates a description of an unsupported encoding.
    public init(iconvName: String, evidence: String) {
        self.iconvName = iconvName
        self.evidence = evidence
    }

    /// The sentence for the user, naming the input and the `iconv` command that converts it.
    ///
    /// ```swift
    /// UnsupportedEncoding(iconvName: "UTF-16LE", evidence: "a NUL in every other byte, no byte order mark")
    ///     .message(for: "list.csv")
    /// // list.csv looks like UTF-16LE (a NUL in every other byte, no byte order mark); convert it to
    /// // UTF-8 first: iconv -f UTF-16LE -t UTF-8 < list.csv > list-utf8.csv
    /// ```
    public func message(for name: String) -> String {
        let command = name == "<stdin>" || name.isEmpty
            ? "iconv -f \(iconvName) -t UTF-8"
            : "iconv -f \(iconvName) -t UTF-8 < \(name) > \(Self.convertedName(name))"
        return "\(name) looks like \(iconvName) (\(evidence)); convert it to UTF-8 first: \(command)"
    }

    private static func convertedName(_ name: String) -> String {
        let base = name.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? name
        if let dot = base.lastIndex(of: "."), dot != base.startIndex {
            return base[..<dot] + "-utf8" + base[dot...]
        }
        return base + "-utf8"
    }
}

/// Recognizes an input's encoding from its first bytes: a pure function.
///
/// ```swift
/// let prefix: [UInt8] = [0xFF, 0xFE, 0x4E, 0x00]       // BOM, "N"
/// prefix.withUnsafeBytes { EncodingDetection.detect(prefix: $0, isWholeInput: false) }
/// // .utf16(bigEndian: false, byteOrderMarkLength: 2)
/// ```
public enum EncodingDetection: Equatable, Sendable {
    /// UTF-8 (or ASCII); skip `byteOrderMarkLength` bytes (0 or 3).
    case utf8(byteOrderMarkLength: Int)
    /// UTF-16 with a byte order mark of `byteOrderMarkLength` bytes (2) to skip.
    case utf16(bigEndian: Bool, byteOrderMarkLength: Int)
    /// An encoding the reader does not decode.
    case unsupported(UnsupportedEncoding)

    /// How many bytes of the input's start ``detect(prefix:isWholeInput:)`` looks at, at most.
    public static let sampleBytes = 65_536

    /// Recognizes the encoding of an input from its first bytes.
    ///
    /// In order: a byte order mark (UTF-8, UTF-32 LE/BE, UTF-16 LE/BE); NUL bytes in a UTF-32
    /// or UTF-16 pattern (three NULs in every four bytes; a NUL in at least 30% of the odd or
    /// even bytes and under 5% of the others); then UTF-8 validity: at least 3 invalid
    /// sequences, more than four times as many as valid multibyte ones, is read as Latin-1 or
    /// Windows-1252. A few stray bad bytes in a UTF-8 file are left to the records.
    ///
    /// - Parameters:
    ///   - prefix: The input's first bytes (at most ``sampleBytes`` are looked at).
    ///   - isWholeInput: True when `prefix` is the whole input, so that a sequence cut at its
    ///     end is invalid rather than unknown.
    /// - Returns: What to decode, or why not.
    /// - Complexity: O(*n*) in the sample's length.
    public static func detect(prefix: UnsafeRawBufferPointer, isWholeInput: Bool) -> EncodingDetection {
        let bytes = UnsafeRawBufferPointer(rebasing: prefix[0..<min(prefix.count, sampleBytes)])
        let whole = isWholeInput && bytes.count == prefix.count
        func starts(_ mark: [UInt8]) -> Bool { bytes.count >= mark.count && zip(bytes, mark).allSatisfy { $0 == $1 } }
        if starts([0xEF, 0xBB, 0xBF]) { return .utf8(byteOrderMarkLength: 3) }
        if starts([0xFF, 0xFE, 0, 0]) {
            return .unsupported(UnsupportedEncoding(iconvName: "UTF-32LE", evidence: "byte order mark FF FE 00 00"))
        }
        if starts([0, 0, 0xFE, 0xFF]) {
            return .unsupported(UnsupportedEncoding(iconvName: "UTF-32BE", evidence: "byte order mark 00 00 FE FF"))
        }
        if starts([0xFF, 0xFE]) { return .utf16(bigEndian: false, byteOrderMarkLength: 2) }
        if starts([0xFE, 0xFF]) { return .utf16(bigEndian: true, byteOrderMarkLength: 2) }

        // NUL patterns, on the first 4 KiB.
        let nulSample = min(bytes.count, 4096)
        if nulSample >= 8 {
            let quads = nulSample / 4
            var little32 = 0, big32 = 0
            for quad in 0..<quads {
                let b = (bytes[quad * 4], bytes[quad * 4 + 1], bytes[quad * 4 + 2], bytes[quad * 4 + 3])
                if b.1 == 0 && b.2 == 0 && b.3 == 0 && b.0 != 0 { little32 += 1 }
                if b.0 == 0 && b.1 == 0 && b.2 == 0 && b.3 != 0 { big32 += 1 }
            }
            if little32 * 2 >= quads {
                return .unsupported(UnsupportedEncoding(iconvName: "UTF-32LE", evidence: "three NULs in every four bytes, no byte order mark"))
            }
            if big32 * 2 >= quads {
                return .unsupported(UnsupportedEncoding(iconvName: "UTF-32BE", evidence: "three NULs in every four bytes, no byte order mark"))
            }
        }
        if nulSample >= 4 {
            let pairs = nulSample / 2
            var evenNul = 0, oddNul = 0
            for pair in 0..<pairs {
                if bytes[pair * 2] == 0 { evenNul += 1 }
                if bytes[pair * 2 + 1] == 0 { oddNul += 1 }
            }
            if oddNul * 10 >= pairs * 3 && evenNul * 20 < pairs {
                return .unsupported(UnsupportedEncoding(iconvName: "UTF-16LE", evidence: "a NUL in every other byte, no byte order mark"))
            }
            if evenNul * 10 >= pairs * 3 && oddNul * 20 < pairs {
                return .unsupported(UnsupportedEncoding(iconvName: "UTF-16BE", evidence: "a NUL in every other byte, no byte order mark"))
            }
        }

        // UTF-8 validity.
        var invalid = 0
        var multibyte = 0
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 { index += 1; continue }
            let length: Int
            var lower: UInt8 = 0x80, upper: UInt8 = 0xBF   // the second byte's range
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; upper = 0x9F
            case 0xF0: length = 4; lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; upper = 0x8F
            default: invalid += 1; index += 1; continue
            }
            if index + length > count && !whole {
                // Cut by the sample's end: unknown, not counted.
                var complete = true
                for offset in 1..<(count - index) {
                    let byte = bytes[index + offset]
                    if offset == 1 ? (byte < lower || byte > upper) : (byte & 0xC0 != 0x80) { complete = false; break }
                }
                if !complete { invalid += 1 }
                break
            }
            var valid = index + length <= count
            if valid {
                for offset in 1..<length {
                    let byte = bytes[index + offset]
                    if offset == 1 ? (byte < lower || byte > upper) : (byte & 0xC0 != 0x80) { valid = false; break }
                }
            }
            if valid {
                multibyte += 1
                index += length
            } else {
                invalid += 1
                index += 1
            }
        }
        if invalid >= 3 && invalid > 4 * multibyte {
            return .unsupported(UnsupportedEncoding(
                iconvName: "WINDOWS-1252",
                evidence: "\(invalid) bytes that are not UTF-8 in the first \(count) bytes, as in Latin-1 or Windows-1252"))
        }
        return .utf8(byteOrderMarkLength: 0)
    }
}
