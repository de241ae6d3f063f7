import CSMSKitICU

/// One ICU MessageFormat, compiled once and shared by every thread that renders it.
///
/// Thread safety: the C layer formats under a per-message mutex (ICU's `MessageFormat::format`
/// initialises number formats and plural rules lazily inside a `const` call), so sharing an
/// instance is safe. The handle is immutable from Swift and freed when the last reference goes.
final class _CompiledMessage: @unchecked Sendable {
    struct Argument: Sendable {
        let name: String
        let kinds: Int32
        /// UTF-16 offset of the first use in the pattern.
        let offset: Int

        var isNumeric: Bool { kinds & Int32(SMSKIT_ARG_NUMBER | SMSKIT_ARG_PLURAL | SMSKIT_ARG_SELECTORDINAL) != 0 }
        var isSelect: Bool { kinds & Int32(SMSKIT_ARG_SELECT) != 0 }
    }

    struct CompileError: Error {
        let status: Int32
        /// UTF-16 offset into the pattern, if ICU gave one.
        let offset: Int?
        let reason: String
        var isUnsupportedArgument: Bool { reason.contains("argument") }
    }

    let handle: OpaquePointer
    let arguments: [Argument]
    /// For each plural/selectordinal use: argument name, ordinal flag, selectors as written.
    let pluralUses: [(name: String, ordinal: Bool, selectors: [String])]

    /// For text-only messages: the literal UTF-8 of all pieces, and per piece its range in
    /// `pieceBytes` and the argument that follows it (-1 after the last). Empty otherwise.
    /// See `smskit_icu_message_piece_count`: rendering these needs no ICU call, and a test checks the
    /// result against ICU's MessageFormat for every bundled message.
    let pieceBytes: [UInt8]
    let pieces: [(start: Int, end: Int, argument: Int)]

    /// The most `{` a pattern may hold. ICU parses nested arguments recursively (up to 32,767
    /// levels), so a pattern of tens of thousands of nested braces could overflow the stack
    /// before the C layer sees its nesting; real messages hold a few dozen at most.
    static let maximumBraces = 1_024

    init(pattern: String, localeID: String) throws(CompileError) {
        var braces = 0
        var utf16Offset = 0
        for byte in pattern.utf8 {
            if byte == UInt8(ascii: "{") {
                braces += 1
                if braces > Self.maximumBraces {
                    throw CompileError(status: 65_799 /* U_PATTERN_SYNTAX_ERROR */, offset: utf16Offset,
                                       reason: "more than \(Self.maximumBraces) '{' in one message: too many arguments")
                }
            }
            // UTF-16 units: one per scalar start, two for four-byte sequences.
            if byte & 0xC0 != 0x80 { utf16Offset += byte >= 0xF0 ? 2 : 1 }
        }
        var pattern = pattern
        var error = smskit_icu_message_error()
        let handle = pattern.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) {
                smskit_icu_message_open($0.baseAddress, Int32($0.count), localeID, &error)
            }
        }
        guard let handle else {
            let reason = withUnsafeBytes(of: error.reason) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            throw CompileError(status: error.status, offset: error.offset >= 0 ? Int(error.offset) : nil, reason: reason)
        }
        self.handle = handle
        let count = smskit_icu_message_argument_count(handle)
        var arguments: [Argument] = []
        arguments.reserveCapacity(Int(count))
        for index in 0..<count {
            arguments.append(Argument(
                name: String(cString: smskit_icu_message_argument_name(handle, index)),
                kinds: smskit_icu_message_argument_kinds(handle, index),
                offset: Int(smskit_icu_message_argument_offset(handle, index))))
        }
        self.arguments = arguments

        let needed = smskit_icu_message_plural_selectors(handle, nil, 0)
        var uses: [(String, Bool, [String])] = []
        if needed > 0 {
            let text = String(unsafeUninitializedCapacity: Int(needed)) { buffer in
                buffer.withMemoryRebound(to: CChar.self) {
                    Int(smskit_icu_message_plural_selectors(handle, $0.baseAddress, Int32($0.count)))
                }
            }
            for line in text.split(separator: "\n") {
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                guard fields.count == 3 else { continue }
                uses.append((String(fields[0]), fields[1] == "1", fields[2].split(separator: " ").map(String.init)))
            }
        }
        self.pluralUses = uses

        var bytes: [UInt8] = []
        var pieces: [(Int, Int, Int)] = []
        let pieceCount = smskit_icu_message_piece_count(handle)
        for index in 0..<pieceCount {
            var length: Int32 = 0
            var argument: Int32 = -1
            let start = bytes.count
            if let literal = smskit_icu_message_piece(handle, index, &length, &argument), length > 0 {
                UnsafeRawPointer(literal).withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
                    bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: Int(length)))
                }
            }
            pieces.append((start, bytes.count, Int(argument)))
        }
        self.pieceBytes = bytes
        self.pieces = pieces
    }

    /// Formats a text-only message from its pieces: `values` are the UTF-8 of the (sanitized)
    /// arguments, `spans` their ranges, in `arguments` order.
    func formatPieces(values: UnsafeBufferPointer<UInt8>, spans: (Int) -> Range<Int>) -> String {
        var total = pieceBytes.count
        for piece in pieces where piece.argument >= 0 { total += spans(piece.argument).count }
        return pieceBytes.withUnsafeBufferPointer { literal in
            String(unsafeUninitializedCapacity: total) { output in
                var offset = 0
                for piece in pieces {
                    if piece.end > piece.start {
                        _ = UnsafeMutableBufferPointer(rebasing: output[offset...])
                            .initialize(fromContentsOf: literal[piece.start..<piece.end])
                        offset += piece.end - piece.start
                    }
                    if piece.argument >= 0 {
                        let span = spans(piece.argument)
                        if !span.isEmpty {
                            _ = UnsafeMutableBufferPointer(rebasing: output[offset...])
                                .initialize(fromContentsOf: values[span])
                            offset += span.count
                        }
                    }
                }
                return offset
            }
        }
    }

    deinit { smskit_icu_message_close(handle) }

    /// Formats with `values` in `arguments` order. Text values must be sanitized already.
    func format(_ values: UnsafeBufferPointer<smskit_icu_value>) -> Result<String, TemplateError> {
        var capacity = 512
        while true {
            var status: Int32 = 0
            var needed = 0
            let text = String(unsafeUninitializedCapacity: capacity) { buffer in
                let length = buffer.withMemoryRebound(to: CChar.self) { chars in
                    smskit_icu_message_format(handle, values.baseAddress, Int32(values.count),
                                          chars.baseAddress, Int32(chars.count), &status)
                }
                if status == 15 /* U_BUFFER_OVERFLOW_ERROR */ { needed = Int(length); return 0 }
                return length >= 0 && status <= 0 ? Int(length) : 0
            }
            if status == 15, needed > capacity {
                capacity = needed
                continue
            }
            if status > 0 {
                return .failure(TemplateError(code: .formatting,
                    message: "ICU could not format the message (\(String(cString: smskit_icu_error_name(status))))"))
            }
            return .success(text)
        }
    }
}
