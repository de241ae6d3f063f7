extension PhoneNumberEngine {
    /// Parses a phone number as a person or a system wrote it, exactly as libphonenumber does.
    ///
    /// Accepts any formatting (spaces, dashes, dots, brackets, Unicode punctuation), `+` or `＋`,
    /// the default region's international prefixes (`00`, `011`, ...), national prefixes and
    /// carrier codes, extensions (`ext. 12`, `x12`, `;ext=12`, `#`, ...), RFC 3966 `tel:` URIs with
    /// `;phone-context=` and `;isub=`, decimal digits of any script (`٠١٢`, `०१२`, `０１２`) and
    /// vanity letters (`1-800-FLOWERS`).
    ///
    /// ```swift
    /// let engine = PhoneNumberEngine()
    /// let number = try engine.parse("(650) 253-0000", defaultRegion: "US")
    /// engine.formatE164(number)   // "+16502530000"
    /// ```
    ///
    /// - Parameters:
    ///   - text: The input.
    ///   - defaultRegion: The region national numbers are dialled from; `nil` (or an unknown
    ///     region) only works for input that starts with `+`.
    /// - Throws: ``PhoneNumberError`` with libphonenumber's code: `.notANumber`,
    ///   `.invalidCountryCode` (also when national input has no usable default region),
    ///   `.tooShortAfterIDD`, `.tooShortNSN`, `.tooLong` (including input over 250 characters,
    ///   refused before any other work).
    /// - Complexity: O(n) for ordinary input, O(n²) at worst for the extension search, with
    ///   n ≤ 250.
    public func parse(_ text: String, defaultRegion: RegionCode?) throws(PhoneNumberError) -> PhoneNumber {
        // In place for native and small Strings: no retain and release of a copy.
        try _withUTF8(text) { bytes in
            Result { () throws(PhoneNumberError) in try parse(utf8: bytes, defaultRegion: defaultRegion) }
        }.get()
    }

    /// Parses UTF-8 bytes; see ``parse(_:defaultRegion:)``. Invalid UTF-8 is read as U+FFFD, which
    /// can never be part of a number.
    public func parse(utf8 bytes: UnsafeBufferPointer<UInt8>, defaultRegion: RegionCode?) throws(PhoneNumberError) -> PhoneNumber {
        // The pipeline, libphonenumber's algorithm in four steps; a fast case is an early exit
        // of the step where it can be decided, and the steps after it are the same for all input:
        //  1. Strict E.164, read by words: the whole number (`_parseE164Word`).
        //  2. The number's digits: for digits and separators straight from the bytes
        //     (`_simpleDigits`); for the rest decoding, RFC 3966, extraction, the viability and
        //     extension patterns and normalizing (`_parseFreeForm`).
        //  3. After a "+", strict E.164 digits (`_parseInternationalDigitParts`), then
        //  4. the country code and the national number (both `_parseDigits`).
        // Each exit returns nil, having decided nothing, for input not of its shape; each handles
        // the common shapes of input (E.164, digits with the usual separators) without the
        // general steps, and skipping one never changes a result (PhoneNumbersThroughput
        // measures what each saves).
        if let number = _parseE164Word(bytes) { return number }
        let regionIndex = defaultRegion.flatMap { tables.regionIndex($0) }
        // Step 2 from the bytes: ASCII digits with the common separators, as typed in forms; also
        // strict E.164 that step 1 left (a national prefix may start the number, or its length is
        // unusual). No scan of its own for "+" and digits only: that cost a loop, and a
        // mispredicted exit, on every other input starting with "+".
        if bytes.count <= Self.maxInputLength, !_endsOutsideSimpleShape(bytes) {
            var digits = _DigitString()
            if let pluses = _simpleDigits(bytes, into: &digits) {
                return try _parseDigits(&digits, afterPlus: pluses > 0, regionIndex: regionIndex, extension: nil)
            }
        }
        return try _parseFreeForm(utf8: bytes, regionIndex: regionIndex)
    }

    /// Whether the input ends in an ASCII letter, `#`, `~`, `*`, `,` or `;`, which `_simpleDigits`
    /// refuses after the number starts (and before it there is no digit): it would only scan the
    /// input to return nil. About a third of the input that needs the whole algorithm ends so
    /// ("1-800-FLOWERS", "... x", "...#"); skipping the fast path never changes a result.
    @inline(__always)
    func _endsOutsideSimpleShape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let last = bytes.last, last < 0x80 else { return false }
        // One bit per character, 0x00...0x3F and 0x40...0x7F: no table, no branch.
        let mask = last < 0x40 ? Self._simpleRefusedEndLow : Self._simpleRefusedEndHigh
        return (mask &>> UInt64(last & 0x3F)) & 1 != 0
    }

    /// Whether the input starts with `tel:` in any case (or bytes that read the same with bit 5
    /// set) and no space: an RFC 3966 URI, which nearly always has `;phone-context=`, `;isub=`
    /// or `;ext=` after its digits, where `_simpleDigits` would give up having read the number
    /// ("Tel: +1 ...", with a space, is text the fast path takes). `_simpleDigits` refuses such
    /// input at its first byte; that never changes a result (the whole algorithm reads it).
    @inline(__always)
    func _startsLikeTelURI(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 5, let base = bytes.baseAddress else { return false }
        let word = UnsafeRawPointer(base).loadUnaligned(as: UInt32.self)
        return UInt32(littleEndian: word) | 0x2020_2020 == Self._telColon && base[4] != UInt8(ascii: " ")
    }

    /// `tel:` as a little-endian word.
    static var _telColon: UInt32 { 0x3A6C_6574 }

    /// The characters of ``_endsOutsideSimpleShape(_:)``: `#`, `*`, `,`, `;` below 0x40; the
    /// letters and `~` from 0x40 (a test checks them against `_simpleKind(ascii:)`).
    static var _simpleRefusedEndLow: UInt64 { 1 << 0x23 | 1 << 0x2A | 1 << 0x2C | 1 << 0x3B }
    static var _simpleRefusedEndHigh: UInt64 { 0x07FF_FFFE_07FF_FFFE | 1 << 0x3E }

    /// For each byte value, what it is to a run of `_simpleDigits`: "A" (bit 0) an ASCII digit,
    /// "B" (bit 1) a `.separator` of `_simpleKind(ascii:)`, "@" anything else, bytes that are not
    /// ASCII included (a test checks it against `_simpleKind(ascii:)`). 256 entries: no test of
    /// the byte's high bit before the load.
    static var _simpleRunClasses: StaticString {
        "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@B@@@@@@@BB@@@BBBAAAAAAAAAA@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@B@B@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@"
    }

    /// For tests: the pipeline with step 2 from the bytes (nil when the input is not of that
    /// shape) and with step 2's general form and no shortcut, over the same input.
    package func _parseBothWays(
        utf8 bytes: UnsafeBufferPointer<UInt8>, defaultRegion: RegionCode?
    ) -> (simple: Result<PhoneNumber?, PhoneNumberError>, freeForm: Result<PhoneNumber, PhoneNumberError>) {
        let regionIndex = defaultRegion.flatMap { tables.regionIndex($0) }
        return (Result { () throws(PhoneNumberError) in
                    var digits = _DigitString()
                    guard let pluses = _simpleDigits(bytes, into: &digits) else { return nil }
                    return try _parseDigits(&digits, afterPlus: pluses > 0, regionIndex: regionIndex, extension: nil)
                },
                Result { () throws(PhoneNumberError) in
                    try _parseFreeForm(utf8: bytes, regionIndex: regionIndex, shortcuts: false)
                })
    }

    /// For tests: libphonenumber's whole algorithm with the shortcuts that ``_InputFlags`` allow,
    /// and without them (every search and pass done, as for input that is not ASCII).
    package func _parseFreeFormBothWays(
        utf8 bytes: UnsafeBufferPointer<UInt8>, defaultRegion: RegionCode?
    ) -> (shortcut: Result<PhoneNumber, PhoneNumberError>, full: Result<PhoneNumber, PhoneNumberError>) {
        let regionIndex = defaultRegion.flatMap { tables.regionIndex($0) }
        return (Result { () throws(PhoneNumberError) in try _parseFreeForm(utf8: bytes, regionIndex: regionIndex) },
                Result { () throws(PhoneNumberError) in
                    try _parseFreeForm(utf8: bytes, regionIndex: regionIndex, shortcuts: false)
                })
    }

    /// Steps 2 to 4 of the pipeline over any input (``parse(utf8:defaultRegion:)``), step 2 in its
    /// general form: decoding, then libphonenumber's steps up to normalizing. `shortcuts: false` (for
    /// tests) assumes every ``_InputFlags`` flag, so that no step is skipped, and takes the
    /// general steps after a `+` too.
    func _parseFreeForm(
        utf8 bytes: UnsafeBufferPointer<UInt8>, regionIndex: Int?, shortcuts: Bool = true
    ) throws(PhoneNumberError) -> PhoneNumber {
        // Decode to scalars (at most 250 of them, else the input is refused as too long).
        if bytes.count > Self.maxInputLength {
            var scalars = 0
            for byte in bytes where byte & 0xC0 != 0x80 { scalars += 1 }
            if scalars > Self.maxInputLength { throw Self._inputTooLong }
        }
        // Two buffers of 252 scalars (1,008 bytes each): small enough for the stack, where one
        // buffer of twice the size would be a heap allocation per input.
        return try withUnsafeTemporaryAllocation(of: Unicode.Scalar.self, capacity: Self.maxInputLength + 2) { buffer in
          withUnsafeTemporaryAllocation(of: Unicode.Scalar.self, capacity: Self.maxInputLength + 2) { work in
            Result { () throws(PhoneNumberError) in
                var count = 0
                var seen: UInt8 = 0
                if bytes.count <= Self.maxInputLength {
                    // One scalar per byte, the bytes' flags gathered on the way; a byte that is
                    // not ASCII means starting over with the decoder.
                    let flagTable = _InputFlags.byteTable.utf8Start
                    let n = bytes.count
                    @inline(__always) func copy(_ i: Int) {
                        let byte = bytes[i]
                        buffer[i] = Unicode.Scalar(byte)
                        seen |= flagTable[Int(byte)]
                    }
                    if n >= 4 {
                        // Four bytes a step, then the last four again (rewriting what is already
                        // there): no loop over the 0 to 3 bytes left, whose varying count the
                        // compiler's remainder loop mispredicted.
                        var i = 0
                        while i &+ 4 <= n {
                            copy(i); copy(i &+ 1); copy(i &+ 2); copy(i &+ 3)
                            i &+= 4
                        }
                        copy(n &- 4); copy(n &- 3); copy(n &- 2); copy(n &- 1)
                    } else {
                        for i in 0..<n { copy(i) }
                    }
                    count = n
                }
                var flags = _InputFlags(rawValue: seen & 0x3F)
                if !shortcuts { flags = .all }
                if bytes.count > Self.maxInputLength || flags.contains(.notASCII) {
                    // The flags of ASCII characters stay exact (the bytes of other characters
                    // are never ASCII); their letters and symbols may start an extension.
                    flags = bytes.count > Self.maxInputLength ? .all : flags.union(.extensionLabel)
                    count = try _decode(bytes, into: buffer)
                }
                let input = UnsafeBufferPointer(rebasing: buffer[0..<count])
                return try _parse(input, work: work, regionIndex: regionIndex, flags: flags, international: shortcuts)
            }
          }
        }.get()
    }

    /// Decodes UTF-8 into `buffer` (room for 251 scalars), each ill-formed sequence read as
    /// U+FFFD as the standard library's decoder reads it; returns the number of scalars.
    /// - Throws: `.tooLong` for more than 250 scalars.
    func _decode(
        _ bytes: UnsafeBufferPointer<UInt8>, into buffer: UnsafeMutableBufferPointer<Unicode.Scalar>
    ) throws(PhoneNumberError) -> Int {
        // Well-formed input (nearly all of it) byte by byte for ASCII and a sequence at a time
        // for the rest; the first ill-formed sequence means starting over with the standard
        // decoder, which knows how much of it each U+FFFD stands for.
        var count = 0
        var i = 0
        var wellFormed = true
        while i < bytes.count {
            let byte = bytes[i]
            if byte < 0x80 {
                buffer[count] = Unicode.Scalar(byte)
                i &+= 1
            } else if let (scalar, length) = _decodeScalar(bytes, at: i) {
                buffer[count] = scalar
                i &+= length
            } else {
                wellFormed = false
                break
            }
            count &+= 1
            if count > Self.maxInputLength { throw Self._inputTooLong }
        }
        if wellFormed { return count }
        count = 0
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): buffer[count] = scalar
            case .error: buffer[count] = "\u{FFFD}"
            case .emptyInput: return count
            }
            count += 1
            if count > Self.maxInputLength { throw Self._inputTooLong }
        }
    }

    static var _inputTooLong: PhoneNumberError {
        PhoneNumberError(.tooLong, "The input is longer than 250 characters; pass one phone number at a time.")
    }

    /// Step 2 of the pipeline (the number's digits) straight from the bytes, for input of the
    /// shape nearly every typed or pasted number has: leading text without a digit
    /// or `+` ("Tel: ", "No. ", "तेल: "), then `+` signs and the number's decimal digits (of any
    /// script) with the separators of libphonenumber's punctuation, then trailing punctuation
    /// ("!", "+", "...") and nothing else; no `;` anywhere. For such input libphonenumber's
    /// extraction keeps the first `+` or digit through the last digit, the viability pattern
    /// holds (at least three digits), no extension pattern can match (they all need a letter, `#`,
    /// `~`, `,` or `;` between digits) and normalizing keeps the digits. Appends the digits to
    /// `digits` and returns the number of leading plus signs; returns nil, having decided nothing,
    /// for any other input (letters, `#`, `~`, `x`, `*` or other symbols between digits, invalid
    /// UTF-8, RFC 3966 parameters, fewer than 3 digits), which takes step 2's general form.
    @inline(__always)
    func _simpleDigits(_ bytes: UnsafeBufferPointer<UInt8>, into digits: inout _DigitString) -> Int? {
        var digitCount = 0
        var pluses = 0
        var started = false           // past the leading text: at the first '+' or digit
        var separatorAfterPlus = false
        var trailing = false          // a character that only trailing text may have was seen
        var i = 0
        let n = bytes.count
        let asciiKinds = tables.asciiKinds
        while i < n {
            let byte = bytes[i]
            var kind: _SimpleKind
            var digit: UInt8 = 0
            if byte < 0x80 {
                i &+= 1
                // A table, not `_simpleKind(ascii:)`'s switch: that is an indirect jump per
                // character, mispredicted whenever the kind of character changes.
                kind = asciiKinds[Int(byte)]
                digit = byte
            } else {
                // Three-byte sequences (Devanagari, Bengali, Thai and full-width digits, the
                // dashes and spaces of U+2000...) decoded here, without a call; the rest, and
                // anything ill-formed, by `_decodeScalar`.
                var scalar: Unicode.Scalar
                if byte & 0xF0 == 0xE0, i &+ 2 < n, bytes[i &+ 1] & 0xC0 == 0x80, bytes[i &+ 2] & 0xC0 == 0x80,
                   case let value = UInt32(byte & 0x0F) << 12 | UInt32(bytes[i &+ 1] & 0x3F) << 6 | UInt32(bytes[i &+ 2] & 0x3F),
                   value >= 0x800, let decoded = Unicode.Scalar(value) {
                    scalar = decoded
                    i &+= 3
                } else {
                    guard let (decoded, length) = _decodeScalar(bytes, at: i) else { return nil }
                    scalar = decoded
                    i &+= length
                }
                if let value = _UnicodeClasses.decimalDigitValue(scalar) {
                    kind = .digit
                    digit = value &+ 0x30
                } else {
                    kind = _simpleKind(nonASCII: scalar)
                }
            }
            // Bit tests, most frequent kind first, not a `switch` (nor `==` tests, which the
            // compiler merges into one): that is an indirect jump per character, mispredicted
            // about half the time.
            let bit = kind.bit
            if bit & _SimpleKind.digit.bit != 0 {
                guard !trailing else { return nil }
                started = true
                digits.append(digit)
                digitCount &+= 1
                // The run of ASCII digits and separators after it (most of a typed number), with
                // no branch on which of the two each byte is: every byte is written, and only
                // digits are counted. Digits and separators do nothing else once a digit was seen.
                let run = digits.appendRun(bytes, from: i, classes: Self._simpleRunClasses.utf8Start)
                i = run.end
                digitCount &+= run.digits
            } else if bit & (_SimpleKind.separator.bit | _SimpleKind.letterSeparator.bit) != 0 {
                // `ー` is a letter to the trailing-text rule: it keeps the symbols before it.
                if bit & _SimpleKind.letterSeparator.bit != 0, trailing { return nil }
                if started, pluses > 0, digitCount == 0 { separatorAfterPlus = true }
            } else if bit & _SimpleKind.plus.bit != 0 {
                if !started {
                    started = true
                    pluses = 1
                } else if digitCount == 0, !separatorAfterPlus {
                    pluses &+= 1  // one run of plus signs before the first digit
                } else {
                    trailing = true  // "+ +1" is not viable; "...123+" ends in junk
                }
            } else if bit & _SimpleKind.symbol.bit != 0 {
                if started { trailing = true }
            } else if bit & _SimpleKind.other.bit != 0 {
                guard !started else { return nil }
                // A letter first: tested here, where typed numbers (a digit or "+" first) never
                // come, not before the call, where the test cost every input.
                if i == 1, _startsLikeTelURI(bytes) { return nil }
            } else {
                return nil  // .refuse
            }
        }
        guard digitCount >= 3 else { return nil }
        return pluses
    }

    /// Steps 3 and 4 of the pipeline, the same for all input once step 2 has the number's digits
    /// (normalized, without its leading plus signs, of which `afterPlus` says whether there were
    /// any; at most 64 kept, more than 56 making the number too long): after a "+", strict E.164
    /// digits as an early exit ("+44 7797 630918"); otherwise libphonenumber's steps: the country
    /// code from the `+`, the default region's IDD or the region's own code written without `+`
    /// (retried without the `+` when the code after it is unknown, as libphonenumber does), then
    /// the national part. `international: false` (for tests) skips the early exit.
    @inline(__always)
    func _parseDigits(
        _ digits: inout _DigitString, afterPlus: Bool, regionIndex: Int?, extension: String?, international: Bool = true
    ) throws(PhoneNumberError) -> PhoneNumber {
        if regionIndex == nil, !afterPlus {
            throw PhoneNumberError(.invalidCountryCode, "The number has no country code: start it with '+' and the country code, or give a default region.")
        }
        // The strict international digits first, sparing the general steps. What follows a "+"
        // depends on the digits alone; the extension is only kept.
        if international, afterPlus,
           let parts = digits.withBuffer({ _parseInternationalDigitParts($0, stripping: true) }) {
            return PhoneNumber(parts, extension: `extension`)
        }
        return try _parseCountryCodeAndNational(&digits, overlong: digits.count > _DigitString.capacity - 8,
                                                afterPlus: afterPlus, regionIndex: regionIndex, extension: `extension`)
    }

    /// Step 4 of the pipeline (``_parseDigits(_:afterPlus:regionIndex:extension:international:)``).
    func _parseCountryCodeAndNational(
        _ digits: inout _DigitString, overlong: Bool, afterPlus: Bool, regionIndex: Int?, extension: String?
    ) throws(PhoneNumberError) -> PhoneNumber {
        // The national number is nearly always a part of `digits` that ends with them: it is
        // read in place (`digits` is inout so as not to be copied), and only a national prefix
        // transform (rare) builds new digits.
        try digits.withBufferInPlace { digits in
            Result { () throws(PhoneNumberError) in
                var split: (code: Int, national: Int, transformed: Bool, tooLong: Bool)
                do throws(PhoneNumberError) {
                    split = try _extractCountryCode(digits, overlong: overlong, afterPlus: afterPlus, regionIndex: regionIndex)
                } catch {
                    guard error.code == .invalidCountryCode, afterPlus else { throw error }
                    split = try _extractCountryCode(digits, overlong: overlong, afterPlus: false, regionIndex: regionIndex)
                    if split.code == 0 {
                        throw PhoneNumberError(.invalidCountryCode, "The digits after '+' do not start with a country code in use.")
                    }
                }
                var countryCode = split.code
                let numberRegion: Int
                if countryCode != 0 {
                    numberRegion = tables.mainRegion(forCallingCode: countryCode)!
                } else {
                    // National number of the default region: all of the digits.
                    split = (0, 0, false, overlong)
                    numberRegion = regionIndex!
                    countryCode = Int(tables.core[numberRegion].countryCode)
                }
                if split.tooLong {
                    throw PhoneNumberError(.tooLong, "The national number has more than 17 digits.")
                }
                let national = UnsafeBufferPointer(rebasing: digits[split.national...])
                if !split.transformed {
                    return try _finishNational(national, countryCode: countryCode, regionIndex: numberRegion,
                                               extension: `extension`)
                }
                // A national prefix transform rule (rare): done again here, where its digits can
                // live, not in a 72-byte buffer that every call would set up.
                var transformed = _DigitString()
                let again = _stripNationalPrefix(national, tables.core[regionIndex!], transformed: &transformed)
                assert(again.map { if case .transformed = $0 { true } else { false } } == true)
                return try transformed.withBuffer { national in
                    Result { () throws(PhoneNumberError) in
                        try _finishNational(national, countryCode: countryCode, regionIndex: numberRegion, extension: `extension`)
                    }
                }.get()
            }
        }.get()
    }

    /// libphonenumber's `parse` after decoding. `work` has room for a copy of the input; `flags`
    /// say which characters the input may contain (``_InputFlags``); `international: false` (for
    /// tests) skips the strict E.164 shortcut after a `+`.
    func _parse(
        _ input: _Scalars, work: UnsafeMutableBufferPointer<Unicode.Scalar>, regionIndex: Int?, flags: _InputFlags,
        international: Bool = true
    ) throws(PhoneNumberError) -> PhoneNumber {
        let number = _buildNationalNumberForParsing(input, into: work, flags: flags)
        let count = number.count
        // The extension is found before normalizing, none without a character that starts one,
        // and kept only when the number before it is viable too.
        var scan = _Viability.Scan()
        let (viable, found) = _Viability.check(number, count, searchExtension: flags.contains(.extensionLabel), scan: &scan,
                                               ascii: !flags.contains(.notASCII))
        guard viable else {
            throw PhoneNumberError(.notANumber, "This does not look like a phone number: it needs at least 3 digits and only the punctuation phone numbers use.")
        }
        var nationalCount = count
        var extensionText: String? = nil
        if let (start, digits) = found {
            extensionText = _string(number, digits, ascii: !flags.contains(.notASCII))
            nationalCount = start
        }
        var plus = 0
        while plus < nationalCount, _Chars.isPlus(number[plus]) { plus += 1 }
        // The vanity rule's letter count comes from the viability scan when that read the whole
        // number, all of it national (no extension; leading plus signs have no letters), of ASCII
        // input without a line feed; otherwise normalizing counts.
        let known = nationalCount == count && !flags.contains(.notASCII) && !flags.contains(.newline)
        var digits = _normalize(_Scalars(rebasing: number[plus..<nationalCount]), flags: flags,
                                letters: known ? scan.letters : -1)
        return try _parseDigits(&digits, afterPlus: plus > 0, regionIndex: regionIndex, extension: extensionText,
                                international: international)
    }

    /// `_build_national_number_for_parsing`: the RFC 3966 parts, or the part of the text that can be
    /// a number, without an ISDN subaddress. That is a slice of `s` (no copy) but for a
    /// `;phone-context=`, whose parts are put together in `out`.
    func _buildNationalNumberForParsing(
        _ s: _Scalars, into out: UnsafeMutableBufferPointer<Unicode.Scalar>, flags: _InputFlags
    ) -> _Scalars {
        // Both RFC 3966 parameters start with ';': most input has none and skips both searches,
        // which start at the first one.
        var firstSemicolon = s.count
        if flags.contains(.semicolon) {
            var i = 0
            while i < s.count, s[i] != ";" { i &+= 1 }
            firstSemicolon = i
        }
        let semicolon = firstSemicolon < s.count
        // Where the ";isub=" search starts in the number.
        var isubFrom = 0
        var number: _Scalars
        if semicolon, let contextIndex = _find(s, ";phone-context=", from: firstSemicolon) {
            let contextStart = contextIndex + 15
            var contextEnd = s.count
            var i = contextStart
            while i < s.count { if s[i] == ";" { contextEnd = i; break }; i += 1 }
            let context = _Scalars(rebasing: s[min(contextStart, s.count)..<contextEnd])
            guard _isPhoneContextValid(context) else { return _Scalars(rebasing: s[0..<0]) }  // not viable: "not a number"
            var n = 0
            if context.first == "+" {
                for i in 0..<context.count { out[n] = context[i]; n += 1 }
            }
            let telIndex = _find(s, "tel:").map { $0 + 4 } ?? 0
            if telIndex < contextIndex {
                for i in telIndex..<contextIndex { out[n] = s[i]; n += 1 }
            }
            number = _Scalars(rebasing: out[0..<n])
        } else {
            // _extract_possible_number
            guard let start = s.firstIndex(where: { _Chars.isPlus($0) || _UnicodeClasses.isDecimal($0) }) else {
                return _Scalars(rebasing: s[0..<0])
            }
            var end = s.count
            while end > start {
                let c = s[end - 1]
                if c == "_" || (c != "#" && !_UnicodeClasses.isAlnum(c)) { end -= 1 } else { break }
            }
            // Cut at a second number ("[\\/] *x"), which needs a slash or a backslash.
            if flags.contains(.slash) {
                var i = start
                cutting: while i < end {
                    let c = s[i]
                    if c == "\\" || c == "/" {
                        var j = i + 1
                        while j < end, s[j] == " " { j += 1 }
                        if j < end, s[j] == "x" { end = i; break cutting }
                    }
                    i &+= 1  // below `end`: no overflow check
                }
            }
            number = _Scalars(rebasing: s[start..<end])
            isubFrom = max(firstSemicolon &- start, 0)
        }
        if semicolon, let isdn = _find(number, ";isub=", from: isubFrom), isdn > 0 {
            number = _Scalars(rebasing: number[0..<isdn])
        }
        return number
    }

    /// RFC 3966 phone-context: a global number (`+` and digits with visual separators) or a domain name.
    func _isPhoneContextValid(_ c: _Scalars) -> Bool {
        if c.isEmpty { return false }
        if c[0] == "+" {
            var digit = false
            for ch in c[1...] {
                if _UnicodeClasses.isDecimal(ch) { digit = true } else if !(ch == "-" || ch == "." || ch == "(" || ch == ")") { return false }
            }
            return digit
        }
        // ^([alnum]+((-)*[alnum])*\.)*[alpha]+((-)*[alnum])*\.?$ : labels of alnum and '-', not
        // starting or ending with '-'; the last label starts with a letter; one optional final dot.
        // One pass, each label checked when its dot (or the end) is reached.
        func isAlnum(_ x: Unicode.Scalar) -> Bool { _Chars.isAlpha(x) || _UnicodeClasses.isDecimal(x) }
        let end = c[c.count - 1] == "." ? c.count - 1 : c.count
        var labelStart = 0
        for i in 0...end {
            guard i == end || c[i] == "." else {
                guard isAlnum(c[i]) || c[i] == "-" else { return false }
                continue
            }
            guard i > labelStart, isAlnum(c[i - 1]) else { return false }
            let first = c[labelStart]
            guard i == end ? _Chars.isAlpha(first) : isAlnum(first) else { return false }
            labelStart = i + 1
        }
        return true
    }

    /// libphonenumber's `_maybe_extract_country_code` (with `_maybe_strip_i18n_prefix_and_normalize`)
    /// after normalizing: returns the country code (0 when none), where the national number starts
    /// in `digits`, whether it is what the default region's national prefix transform rule makes
    /// of `digits` from there (`_stripNationalPrefix` gives those digits), and whether the digits
    /// overflowed. `digits` are the number's digits without its leading plus signs (`afterPlus`
    /// says whether there were any).
    func _extractCountryCode(
        _ digits: UnsafeBufferPointer<UInt8>, overlong: Bool, afterPlus: Bool, regionIndex: Int?
    ) throws(PhoneNumberError) -> (code: Int, national: Int, transformed: Bool, tooLong: Bool) {
        // Where the number starts after an international prefix (0: none).
        var start = 0
        var international = afterPlus
        if !international, let regionIndex, tables.core[regionIndex].internationalPrefixDFA >= 0 {
            let region = tables.core[regionIndex]
            var end: Int? = nil
            if region.literalIDDLength > 0 {
                // A plain IDD ("00", "011", ...): compare the digits, no VM.
                if Self._startsWith(digits, literal: region.literalIDD, count: region.literalIDDLength) {
                    end = Int(region.literalIDDLength)
                }
            } else if region.iddStarts.admits(digits),
                      let match = _LeftmostDFA.match(tables.words, region.internationalPrefixDFA, digits) {
                end = match.end
            }
            // A country code never starts with 0.
            if let end, !(end < digits.count && digits[end] == 0x30) {
                start = end
                international = true
            }
        }
        let full = UnsafeBufferPointer(rebasing: digits[start...])
        if international {
            if full.count <= 2 && !overlong {
                throw PhoneNumberError(.tooShortAfterIDD, "After the international prefix there are too few digits for a phone number.")
            }
            // Country codes have 1 to 3 digits and never start with 0; the shortest one in use wins.
            let (code, length, _) = tables.callingCode(startOf: full)
            if code > 0 { return (code, start &+ length, false, overlong) }
            throw PhoneNumberError(.invalidCountryCode, "The country calling code after the international prefix is not one in use; check the first digits.")
        }
        if let regionIndex {
            // Does the number start with the default region's country code, written without '+'?
            // Calling codes are prefix-free, so the code the digits start with is the only one
            // they can start with.
            let region = tables.core[regionIndex]
            var codeLength = _decimalDigitCount(UInt64(region.countryCode))
            var startsWithCode = false
            if full.count >= 3 {
                let found = tables.callingCode(startOf: full)
                (startsWithCode, codeLength) = (found.code == Int(region.countryCode), found.length)
            } else if full.count >= codeLength {
                var value = 0
                for i in 0..<codeLength { value = value * 10 + Int(full[i] &- 0x30) }
                startsWithCode = value == Int(region.countryCode)
            }
            if startsWithCode, let national = _nationalAfterOwnCode(full, codeLength: codeLength, overlong: overlong,
                                                                    regionIndex: regionIndex) {
                return (Int(region.countryCode), start &+ national.start, national.transformed, overlong)
            }
        }
        return (0, 0, false, false)
    }

    /// The part of ``_extractCountryCode(_:overlong:afterPlus:regionIndex:)`` for digits that start
    /// with the default region's own country code (`codeLength` digits) written without `+`: where
    /// the national number starts in `full` and whether the region's transform rule rewrites it
    /// there, or nil when libphonenumber keeps the digits as a national number. Out of line: its
    /// 72-byte buffer for a transform made every call of the caller set up a bigger frame.
    @inline(never)
    func _nationalAfterOwnCode(
        _ full: UnsafeBufferPointer<UInt8>, codeLength: Int, overlong: Bool, regionIndex: Int
    ) -> (start: Int, transformed: Bool)? {
        let region = tables.core[regionIndex]
        let potential = UnsafeBufferPointer(rebasing: full[codeLength...])
        var transformed = _DigitString()
        let stripped = _stripNationalPrefix(potential, region, transformed: &transformed) ?? .suffix(0)
        // (!full matches && potential matches) || overlong || too long, walking as few
        // DFAs as needed.
        let strip = overlong || _possibility(length: full.count, region: region) == .tooLong
            || (stripped.withDigits(potential, transformed) { _matchesGeneralPattern($0, region) }
                && !_matchesGeneralPattern(full, region))
        guard strip else { return nil }
        switch stripped {
        case .suffix(let offset): return (codeLength &+ offset, false)
        case .transformed: return (codeLength, true)
        }
    }

    /// ``_Store/startsWith(_:literal:count:)`` (a packed literal of 1 to 8 digits) as one word
    /// compare when `digits` has 8 or more (national numbers nearly always do): no loop, whose
    /// exit at the first difference mispredicts.
    @inline(__always)
    static func _startsWith(_ digits: UnsafeBufferPointer<UInt8>, literal: UInt32, count: Int32) -> Bool {
        guard digits.count >= 8, let base = digits.baseAddress else {
            return _Store.startsWith(digits, literal: literal, count: count)
        }
        // The literal's nibbles as ASCII digits, one a byte (the packing of `_NationalDigits`).
        let mask = ~UInt64(0) &>> UInt64(64 &- 8 &* Int(count))
        return (_word(base, 0) ^ _NationalDigits.unpack(literal)) & mask == 0
    }

    /// `_normalize`: vanity numbers (3 or more ASCII letters) map letters to keypad digits and keep
    /// ASCII digits only; otherwise every character with a digit value becomes that digit.
    /// Returns the digits: at most 64 kept, more than 56 of them meaning the number is too long.
    ///
    /// `flags` say whether the input can have letters at all (``_InputFlags``); `letters`, when
    /// not negative, is the number of letters of `s`, which then has no line feed.
    func _normalize(_ s: _Scalars, flags: _InputFlags, letters known: Int = -1) -> _DigitString {
        // Counted without a branch per character (letters and digits alternate in such input).
        var letters = max(known, 0)
        var newline = false
        if known < 0, flags.contains(.letter) {
            if !flags.contains(.notASCII) {
                // ASCII: the letter flag of the input flags' byte table, one load per character
                // and no branch; the line feed looked for only when the input has one.
                let table = _InputFlags.byteTable.utf8Start
                for c in s { letters &+= Int(table[Int(c.value)] &>> 3 & 1) }
                if flags.contains(.newline) {
                    for c in s where c == "\n" { newline = true; break }
                }
            } else {
                for c in s {
                    letters &+= _Chars.isAlpha(c) ? 1 : 0
                    newline = newline || c == "\n"
                }
            }
        }
        // The digit string keeps at most 64 digits and counts no more: more than 56 in it is more
        // than 56 in all, so its count alone tells whether the number is too long.
        var out = _DigitString()
        if !flags.contains(.notASCII) {
            // All ASCII: one table load per character and no test of its range.
            let table = letters >= 3 && !newline ? Self._vanityDigits.utf8Start : Self._asciiDigits.utf8Start
            out.appendMapped(s, through: table)
        } else if letters >= 3 && !newline {
            let keypad = Self._vanityDigits.utf8Start
            for c in s {
                if c.value < 0x80 {
                    // ASCII digits stay, letters become keypad digits, the rest is dropped: one
                    // table load and no branch on the character.
                    let digit = keypad[Int(c.value)]
                    let keep = digit != UInt8(ascii: "@")
                    out.append(digit, keep: keep)
                } else if c.value == 0x131 {  // "ı".upper() == "I"
                    out.append(UInt8(ascii: "4"))
                } else if c.value == 0x17F {  // "ſ".upper() == "S"
                    out.append(UInt8(ascii: "7"))
                }
            }
        } else {
            for c in s {
                if c.value < 0x80 {
                    // ASCII: written always, kept only when a digit (no branch on the character).
                    let isDigit = c.value &- 0x30 < 10
                    out.append(UInt8(truncatingIfNeeded: c.value), keep: isDigit)
                } else if let digit = _UnicodeClasses.digitValue(c) {
                    out.append(digit + 0x30)
                }
            }
        }
        return out
    }

    /// For each ASCII character: itself for a digit, its ITU E.161 keypad digit for a letter
    /// (abc 2, def 3, ghi 4, jkl 5, mno 6, pqrs 7, tuv 8, wxyz 9), "@" for anything else.
    static var _vanityDigits: StaticString {
        "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@0123456789@@@@@@@22233344455566677778889999@@@@@@22233344455566677778889999@@@@@"
    }

    /// For each ASCII character: itself for a digit, "@" for anything else (what normalizing
    /// keeps of a number that is not a vanity number).
    static var _asciiDigits: StaticString {
        "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@0123456789@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@"
    }

    /// A String of `s[range]`, built once.
    /// `ascii` says that the input is all ASCII (``_InputFlags``): no scalar is checked.
    func _string(_ s: _Scalars, _ range: Range<Int>, ascii knownASCII: Bool = false) -> String {
        var ascii = true
        if !knownASCII {
            for i in range where s[i].value >= 0x80 { ascii = false; break }
        }
        if ascii {
            return String(unsafeUninitializedCapacity: range.count) { out in
                let start = range.lowerBound
                for k in 0..<range.count { out[k] = UInt8(truncatingIfNeeded: s[start &+ k].value) }
                return range.count
            }
        }
        var text = ""
        for i in range { text.unicodeScalars.append(s[i]) }
        return text
    }

    /// The first place at or after `from` (not negative) where `needle` occurs in `s`.
    func _find(_ s: _Scalars, _ needle: StaticString, from: Int = 0) -> Int? {
        let n = needle.utf8CodeUnitCount
        guard s.count >= n else { return nil }
        let p = needle.utf8Start
        let first = UInt32(p[0])
        // Positions of the first character only, then the rest of the needle.
        var i = from
        while i <= s.count &- n {
            if s[i].value == first {
                // The whole needle, with no exit at the first difference: where that is varies
                // from one candidate to the next (";ext=", ";isub=", ...), so it mispredicts.
                var difference: UInt32 = 0
                for k in 1..<n { difference |= s[i &+ k].value ^ UInt32(p[k]) }
                if difference == 0 { return i }
            }
            i &+= 1
        }
        return nil
    }
}

/// What a character is to the simple input shape (`_simpleDigits`).
enum _SimpleKind: UInt8 {
    /// The kind as one bit of a mask (`_simpleDigits` tests bits, not cases).
    @inline(__always)
    var bit: UInt8 { 1 &<< rawValue }

    /// A decimal digit of any script.
    case digit
    /// `+` or `＋`.
    case plus
    /// Punctuation of libphonenumber's `VALID_PUNCTUATION` that cannot start an extension:
    /// anywhere, dropped by normalizing.
    case separator
    /// `ー` (U+30FC): a separator, but a letter (Lm) to the rule that strips trailing text.
    case letterSeparator
    /// Other ASCII punctuation and controls (not `#` or `;`): leading or trailing text only.
    case symbol
    /// Letters and the rest: leading text only.
    case other
    /// `;` (RFC 3966 parameters): not the simple shape at all.
    case refuse
}

/// The kind of an ASCII character (`_Tables.asciiKinds` tabulates it, digits aside). Separators
/// are libphonenumber's punctuation (`_Chars.isPunctuation`) but for the letters `x`/`X` and `~`.
func _simpleKind(ascii byte: UInt8) -> _SimpleKind {
    switch byte {
    case UInt8(ascii: "+"): return .plus
    case UInt8(ascii: ";"): return .refuse
    // '#' and '~' start extensions, '*' and ',' are read by the viability and extension patterns.
    case UInt8(ascii: "#"), UInt8(ascii: "~"), UInt8(ascii: "*"), UInt8(ascii: ","): return .other
    default:
        if (byte | 0x20) &- 0x61 < 26 { return .other }  // letters, `x` included
        return _Chars.isPunctuation(Unicode.Scalar(byte)) ? .separator : .symbol
    }
}

/// The kind of a non-ASCII character: separators are libphonenumber's punctuation but for the
/// tildes (U+2053, U+223C, U+FF5E), which can start extensions.
@inline(__always)
func _simpleKind(nonASCII scalar: Unicode.Scalar) -> _SimpleKind {
    switch scalar.value {
    case 0xFF0B: .plus
    case 0x30FC: .letterSeparator
    case 0x2053, 0x223C, 0xFF5E: .other
    default: _Chars.isPunctuation(scalar) ? .separator : .other
    }
}

/// `body` over the UTF-8 of `text`: native and small Strings lend it in place, bridged ones are
/// copied first.
@inline(__always)
func _withUTF8<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
    var text = text
    return text.withUTF8(body)
}

/// The scalar that starts at byte `i` of UTF-8 input and its length in bytes; an ill-formed
/// sequence reads as U+FFFD one byte long (a well-formed sequence after it is read as itself,
/// as the standard library's decoder reads it).
@inline(__always)
func _scalar(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (Unicode.Scalar, Int) {
    let byte = bytes[i]
    if byte < 0x80 { return (Unicode.Scalar(byte), 1) }
    return _decodeScalar(bytes, at: i) ?? ("\u{FFFD}", 1)
}

/// The scalar of the well-formed UTF-8 sequence at `i` (not ASCII) and its length, or nil for
/// ill-formed input (overlong forms, surrogates, values over U+10FFFF, truncated sequences).
@inline(__always)
func _decodeScalar(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (Unicode.Scalar, Int)? {
    let b0 = UInt32(bytes[i])
    let n = bytes.count
    @inline(__always) func continuation(_ k: Int) -> UInt32? {
        guard k < n, bytes[k] & 0xC0 == 0x80 else { return nil }
        return UInt32(bytes[k] & 0x3F)
    }
    if b0 >= 0xC2, b0 <= 0xDF, let c1 = continuation(i &+ 1) {
        return Unicode.Scalar((b0 & 0x1F) << 6 | c1).map { ($0, 2) }
    }
    if b0 >= 0xE0, b0 <= 0xEF, let c1 = continuation(i &+ 1), let c2 = continuation(i &+ 2) {
        let value = (b0 & 0x0F) << 12 | c1 << 6 | c2
        guard value >= 0x800 else { return nil }
        return Unicode.Scalar(value).map { ($0, 3) }  // nil for surrogates
    }
    if b0 >= 0xF0, b0 <= 0xF4, let c1 = continuation(i &+ 1), let c2 = continuation(i &+ 2),
       let c3 = continuation(i &+ 3) {
        let value = (b0 & 0x07) << 18 | c1 << 12 | c2 << 6 | c3
        guard value >= 0x10000 else { return nil }
        return Unicode.Scalar(value).map { ($0, 4) }  // nil over U+10FFFF
    }
    return nil
}
