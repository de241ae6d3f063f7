import CSMSKitICU

/// Which text encoding a ``RecordReader`` expects: ``automatic``, UTF-8, or any encoding ICU
/// converts (Windows-1252, ISO-8859-x, Shift_JIS, GB18030, KOI8-R, UTF-16, ...), decoded to
/// UTF-8 block by block.
///
/// ```swift
/// let reader = RecordReader(fd: fd, name: "export.txt", dialect: .tab, encoding: .automatic)
/// let legacy = InputEncoding("windows-1252")!      // csvkit's -e, smskit's --encoding
/// InputEncoding("no-such-encoding")                 // nil
/// ```
public struct InputEncoding: Hashable, Sendable, CustomStringConvertible {
    enum Kind: Hashable, Sendable {
        case automatic
        case utf8
        /// An ICU converter, by its canonical name.
        case icu(String)
    }

    let kind: Kind

    init(kind: Kind) { self.kind = kind }

    /// A byte order mark decides; else UTF-8, with the records that hold bytes that are not
    /// UTF-8 reported as such when they are rare, and the input refused, naming the encoding to
    /// give, when it is consistently in a legacy one: see ``EncodingDetection``.
    public static let automatic = InputEncoding(kind: .automatic)
    /// UTF-8, never sniffed (a byte order mark is skipped). Invalid bytes reach the records.
    public static let utf8 = InputEncoding(kind: .utf8)
    /// UTF-16 little-endian, with or without a byte order mark, decoded to UTF-8.
    public static let utf16LittleEndian = InputEncoding(kind: .icu("UTF-16LE"))
    /// UTF-16 big-endian, with or without a byte order mark, decoded to UTF-8.
    public static let utf16BigEndian = InputEncoding(kind: .icu("UTF-16BE"))

    /// An encoding by name: `auto`, or any ICU converter name or alias (`utf-8`, `windows-1252`,
    /// `latin1`, `ISO-8859-15`, `Shift_JIS`, `GB18030`, `KOI8-R`, `UTF-16LE`); case does not
    /// matter. `nil` when ICU does not know the name.
    public init?(_ name: String) {
        let trimmed = name.trimmingSpacesForEncoding
        if trimmed.lowercased() == "auto" || trimmed.lowercased() == "automatic" {
            self = .automatic
            return
        }
        guard let canonical = Self.canonicalName(trimmed) else { return nil }
        self = canonical == "UTF-8" ? .utf8 : InputEncoding(kind: .icu(trimmed))
    }

    /// `auto`, `UTF-8`, or the name given (which ICU knows).
    public var name: String {
        switch kind {
        case .automatic: return "auto"
        case .utf8: return "UTF-8"
        case .icu(let name): return name
        }
    }

    /// The ``name``.
    public var description: String { name }

    /// ICU's canonical name for an encoding name or alias, or `nil` when ICU does not know it.
    static func canonicalName(_ name: String) -> String? {
        guard !name.isEmpty, name.utf8.count < 100, !name.utf8.contains(0) else { return nil }
        var canonical = [CChar](repeating: 0, count: 128)
        guard let decoder = smskit_icu_decoder_open(name, &canonical, Int32(canonical.count)) else { return nil }
        smskit_icu_decoder_close(decoder)
        return String(decoding: canonical.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension String {
    fileprivate var trimmingSpacesForEncoding: String {
        String(self.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

/// An encoding that the reader recognized but does not decode, with what gave it away.
///
/// Its ``message(for:)`` tells the user the `--encoding` to give, and how to convert the file
/// with `iconv`.
public struct UnsupportedEncoding: Hashable, Sendable {
    /// The encoding's name as `--encoding` (ICU) and `iconv -f` take it: `UTF-16LE`, `windows-1252`.
    public var iconvName: String
    /// What the reader saw: `a NUL in every other byte`, `byte order mark FF FE 00 00`.
    public var evidence: String

    /// Creates a description of an unsupported encoding.
    public init(iconvName: String, evidence: String) {
        self.iconvName = iconvName
        self.evidence = evidence
    }

    /// The sentence for the user, naming the input, the `--encoding` to read it with, and the
    /// `iconv` command that converts it.
    ///
    /// ```swift
    /// UnsupportedEncoding(iconvName: "UTF-16LE", evidence: "a NUL in every other byte, no byte order mark")
    ///     .message(for: "list.csv")
    /// // list.csv looks like UTF-16LE (a NUL in every other byte, no byte order mark); read it with
    /// // --encoding UTF-16LE, or convert it to UTF-8 first: iconv -f UTF-16LE -t UTF-8 < list.csv > list-utf8.csv
    /// ```
    public func message(for name: String) -> String {
        let command = name == "<stdin>" || name.isEmpty
            ? "iconv -f \(iconvName) -t UTF-8"
            : "iconv -f \(iconvName) -t UTF-8 < \(name) > \(Self.convertedName(name))"
        return "\(name) looks like \(iconvName) (\(evidence)); read it with --encoding \(iconvName), or convert it to UTF-8 first: \(command)"
    }

    private static func convertedName(_ name: String) -> String {
        let base = name.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? name
        if let dot = base.lastIndex(of: "."), dot != base.startIndex {
            return base[..<dot] + "-utf8" + base[dot...]
        }
        return base + "-utf8"
    }
}

/// Recognizes an input's encoding: a byte order mark, NUL patterns, then how many of its lines
/// hold bytes that are not UTF-8 (a ``UTF8Census``).
///
/// ```swift
/// let prefix: [UInt8] = [0xFF, 0xFE, 0x4E, 0x00]       // BOM, "N"
/// prefix.withUnsafeBytes { EncodingDetection.detect(prefix: $0, isWholeInput: false) }
/// // .utf16(bigEndian: false, byteOrderMarkLength: 2)
/// ```
public enum EncodingDetection: Equatable, Sendable {
    /// UTF-8 (or ASCII); skip `byteOrderMarkLength` bytes (0 or 3).
    case utf8(byteOrderMarkLength: Int)
    /// UTF-16 with a byte order mark of `byteOrderMarkLength` bytes (2) to skip, decoded.
    case utf16(bigEndian: Bool, byteOrderMarkLength: Int)
    /// Another encoding (UTF-32 with a byte order mark, or one asked for), decoded through ICU
    /// after skipping `byteOrderMarkLength` bytes.
    case decoded(InputEncoding, byteOrderMarkLength: Int)
    /// An encoding that is not read without being asked for: the message names the
    /// `--encoding` to give.
    case unsupported(UnsupportedEncoding)

    /// How many bytes of the input's start ``detect(prefix:isWholeInput:)`` looks at, at most.
    public static let sampleBytes = 65_536

    /// Recognizes the encoding of an input from its first bytes.
    ///
    /// In order: a byte order mark (UTF-8, UTF-32 LE/BE, UTF-16 LE/BE) decides; NUL bytes in a
    /// UTF-32 or UTF-16 pattern (three NULs in every four bytes; a NUL in at least 30% of the odd
    /// or even bytes and under 5% of the others) are refused, naming the encoding; then a
    /// ``UTF8Census`` of the bytes: an input that is consistently in a legacy encoding
    /// (``UTF8Census/isLegacy``) is refused naming the likely one, and anything else is UTF-8,
    /// its few bad bytes left to the records. ``RecordReader`` takes the census of a whole
    /// regular file, so that the decision does not depend on where the bad bytes are.
    ///
    /// - Parameters:
    ///   - prefix: The input's first bytes (at most ``sampleBytes`` are looked at).
    ///   - isWholeInput: True when `prefix` is the whole input, so that a sequence cut at its
    ///     end is invalid rather than unknown.
    /// - Returns: What to decode, or why not.
    /// - Complexity: O(*n*) in the sample's length.
    public static func detect(prefix: UnsafeRawBufferPointer, isWholeInput: Bool) -> EncodingDetection {
        let bytes = UnsafeRawBufferPointer(rebasing: prefix[0..<min(prefix.count, sampleBytes)])
        if let marked = marks(bytes) { return marked }
        var census = UTF8Census()
        census.add(bytes)
        if isWholeInput && bytes.count == prefix.count { census.finish() }
        return census.detection
    }

    /// A byte order mark or a NUL pattern at the input's start, or `nil` (then the input is
    /// UTF-8 or a legacy encoding: a ``UTF8Census`` tells).
    public static func marks(_ bytes: UnsafeRawBufferPointer) -> EncodingDetection? {
        func starts(_ mark: [UInt8]) -> Bool { bytes.count >= mark.count && zip(bytes, mark).allSatisfy { $0 == $1 } }
        if starts([0xEF, 0xBB, 0xBF]) { return .utf8(byteOrderMarkLength: 3) }
        if starts([0xFF, 0xFE, 0, 0]) { return .decoded(InputEncoding(kind: .icu("UTF-32LE")), byteOrderMarkLength: 4) }
        if starts([0, 0, 0xFE, 0xFF]) { return .decoded(InputEncoding(kind: .icu("UTF-32BE")), byteOrderMarkLength: 4) }
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
        return nil
    }
}

/// How many lines of an input hold bytes that are not UTF-8, counted over pieces of any size
/// (a sequence cut by a piece's end is finished by the next): what tells a UTF-8 file with a
/// damaged record or two from a file in a legacy encoding.
///
/// ```swift
/// var census = UTF8Census()
/// Array("José;+34 612 345 678\n".unicodeScalars.map { UInt8($0.value) }).withUnsafeBytes { census.add($0) }
/// census.finish()
/// census.badLines   // 1
/// ```
public struct UTF8Census: Sendable {
    /// Lines seen (a last line without a line end included after ``finish()``).
    public private(set) var lines = 0
    /// Lines with at least one byte that is not UTF-8.
    public private(set) var badLines = 0
    /// Lines with UTF-8 multibyte characters and no bad byte.
    public private(set) var utf8Lines = 0
    /// The first line (1-based) with a bad byte.
    public private(set) var firstBadLine: Int?
    /// Bytes around the bad ones (at most ``sampleLimit``), for naming the legacy encoding.
    private(set) var sample: [UInt8] = []
    private var lineIsBad = false
    private var lineHasMultibyte = false
    private var lastWasLineFeed = true
    private var pending: [UInt8] = []
    private var sampledUpTo = 0
    private let countsLines: Bool
    /// Whether any byte that is not UTF-8 was seen (counted lines or not).
    public private(set) var sawBadByte = false

    /// The most bytes kept for naming the encoding.
    public static let sampleLimit = 16_384

    /// Creates an empty census.
    ///
    /// - Parameter countingLines: False for a first quick pass that only looks for a bad byte
    ///   (``sawBadByte``): ASCII is then skipped 32 bytes at a time, and the line counts stay 0.
    public init(countingLines: Bool = true) {
        self.countsLines = countingLines
    }

    /// Consistently in a legacy encoding: at least 3 bad lines, more than four times as many as
    /// lines with UTF-8 multibyte characters, and at least 1 line in 100. Fewer (a damaged
    /// record or two) are UTF-8 with error records.
    public var isLegacy: Bool { badLines >= 3 && badLines > 4 * utf8Lines && badLines * 100 >= lines }

    /// UTF-8, or the legacy encoding refused with the name to give `--encoding`.
    public var detection: EncodingDetection {
        guard isLegacy else { return .utf8(byteOrderMarkLength: 0) }
        let first = firstBadLine.map { ", the first on line \($0)" } ?? ""
        return .unsupported(UnsupportedEncoding(
            iconvName: likelyEncoding,
            evidence: "\(badLines) of \(lines) lines hold bytes that are not UTF-8\(first)"))
    }

    /// ICU's charset detector on the bytes around the bad ones; Windows-1252 for Latin-1 (its
    /// superset, as browsers read both) and when nothing better is found.
    public var likelyEncoding: String {
        var name = [CChar](repeating: 0, count: 64)
        let confidence = sample.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { smskit_icu_detect_charset($0.baseAddress, Int32($0.count), &name, Int32(name.count)) }
        }
        let found = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard confidence >= 10, !found.hasPrefix("UTF"), !found.hasPrefix("ISO-8859-1"), InputEncoding(found) != nil else {
            return "windows-1252"
        }
        return found
    }

    /// Counts the lines of the next piece of input.
    public mutating func add(_ piece: UnsafeRawBufferPointer) {
        guard !pending.isEmpty else { return scan(piece) }
        let joined = pending + Array(piece)
        pending.removeAll()
        joined.withUnsafeBytes { scan($0) }
    }

    /// Ends the input: a sequence cut by its end is bad, and a last line without a line end counts.
    public mutating func finish() {
        if !pending.isEmpty {
            lineIsBad = true
            sawBadByte = true
            pending.removeAll()
            lastWasLineFeed = false
        }
        if !lastWasLineFeed && countsLines { endLine() }
        lastWasLineFeed = true
    }

    private mutating func endLine() {
        lines += 1
        if lineIsBad {
            badLines += 1
            if firstBadLine == nil { firstBadLine = lines }
        } else if lineHasMultibyte {
            utf8Lines += 1
        }
        lineIsBad = false
        lineHasMultibyte = false
    }

    private mutating func scan(_ bytes: UnsafeRawBufferPointer) {
        let count = bytes.count
        guard count > 0 else { return }
        sampledUpTo = 0
        var index = 0
        while index < count {
            if !countsLines {
                // Only a bad byte matters: ASCII 32 bytes at a time.
                while index + 32 <= count {
                    let any = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                        | bytes.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self)
                        | bytes.loadUnaligned(fromByteOffset: index + 16, as: UInt64.self)
                        | bytes.loadUnaligned(fromByteOffset: index + 24, as: UInt64.self)
                    if any & 0x8080_8080_8080_8080 != 0 { break }
                    index += 32
                }
                if index >= count { break }
            }
            // Eight ASCII bytes at a time: only their line feeds matter.
            if index + 8 <= count {
                let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                if word & 0x8080_8080_8080_8080 == 0 {
                    let x = word ^ 0x0A0A_0A0A_0A0A_0A0A
                    let nonZero = ((x & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | x
                    let lineFeeds = (~nonZero & 0x8080_8080_8080_8080).nonzeroBitCount
                    if lineFeeds > 0 && countsLines {
                        endLine()
                        lines += lineFeeds - 1
                    }
                    index += 8
                    continue
                }
            }
            let lead = bytes[index]
            if lead < 0x80 {
                if lead == 0x0A && countsLines { endLine() }
                index += 1
                continue
            }
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
            default:
                bad(at: index, in: bytes)
                index += 1
                continue
            }
            var valid = true
            for offset in 1..<length {
                guard index + offset < count else {
                    // Cut by the piece's end: the next piece (or finish()) tells.
                    pending = Array(bytes[index...])
                    lastWasLineFeed = false
                    return
                }
                let byte = bytes[index + offset]
                if offset == 1 ? (byte < lower || byte > upper) : (byte & 0xC0 != 0x80) { valid = false; break }
            }
            if valid {
                lineHasMultibyte = true
                index += length
            } else {
                bad(at: index, in: bytes)
                index += 1
            }
        }
        lastWasLineFeed = bytes[count - 1] == 0x0A
    }

    private mutating func bad(at index: Int, in bytes: UnsafeRawBufferPointer) {
        lineIsBad = true
        sawBadByte = true
        guard sample.count < Self.sampleLimit, index >= sampledUpTo else { return }
        let lower = max(sampledUpTo, index - 24), upper = min(bytes.count, index + 24)
        sample += bytes[lower..<upper]
        sample.append(0x0A)
        sampledUpTo = upper
    }
}
