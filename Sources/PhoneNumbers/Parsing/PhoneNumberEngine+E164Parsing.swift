extension PhoneNumberEngine {
    /// libphonenumber's limit on input length (`MAX_INPUT_STRING_LENGTH`).
    static let maxInputLength = 250
    /// The longest national significant number libphonenumber accepts.
    static let maxNationalLength = 17

    /// Parses strict E.164 text: `+` followed by ASCII digits only, nothing else.
    ///
    /// The result is the number libphonenumber's `parse(text, "ZZ")` gives for the same text,
    /// including its national-prefix handling, and the same error otherwise.
    ///
    /// ```swift
    /// let number = try engine.parse(e164: "+442079460123")
    /// ```
    /// - Throws: ``PhoneNumberError`` with `.notANumber` for anything but `+` and 3 or more digits,
    ///   `.invalidCountryCode`, `.tooShortNSN` or `.tooLong`.
    /// - Complexity: O(n); no heap allocation.
    public func parse(e164 text: String) throws(PhoneNumberError) -> PhoneNumber {
        // One pipeline, ``parse(e164UTF8:)``; its early exit, the word path, is tried here first
        // on its own, outside a throwing closure (a Result around it costs more than the rest).
        if let word = text.utf8.withContiguousStorageIfAvailable({ _parseE164WordParts($0, stripping: true) }),
           let parts = word {
            return PhoneNumber(parts)
        }
        var text = text
        return try text.withUTF8 { bytes in
            Result { () throws(PhoneNumberError) in try parse(e164UTF8: bytes) }
        }.get()
    }

    /// Parses strict E.164 given as UTF-8 bytes; see ``parse(e164:)``.
    public func parse(e164UTF8 bytes: UnsafeBufferPointer<UInt8>) throws(PhoneNumberError) -> PhoneNumber {
        if let parts = _parseE164WordParts(bytes, stripping: true) { return PhoneNumber(parts) }
        if bytes.count > Self.maxInputLength {
            throw PhoneNumberError(.tooLong, "The input is longer than 250 characters.")
        }
        guard bytes.count >= 1, bytes[0] == UInt8(ascii: "+") else {
            throw PhoneNumberError(.notANumber, "E.164 starts with '+', then the country code and the number, digits only.")
        }
        let digits = UnsafeBufferPointer(rebasing: bytes[1...])
        for byte in digits where byte &- 0x30 > 9 {
            throw PhoneNumberError(.notANumber, "E.164 has only digits after the '+'; remove spaces, punctuation and letters.")
        }
        if digits.count < 3 {
            throw PhoneNumberError(.notANumber, "Too few digits to be a phone number.")
        }
        return try _parseAfterPlus(digits, extension: nil)
    }

    // MARK: - Internals shared with parsing

    /// Strict E.164 of 8 to 19 digits whose national number (2 to 16 digits) no national prefix
    /// can start (nearly all E.164 input, Italian-style leading zeros included), read eight bytes
    /// at a time: the digit test and the value take a few word operations instead of a loop per
    /// byte, whose exit is mispredicted whenever the length changes. Nil, having decided nothing,
    /// for anything else: the caller then takes the general path (which also gives every error).
    @inline(__always)
    func _parseE164Word(_ bytes: UnsafeBufferPointer<UInt8>) -> PhoneNumber? {
        _parseE164WordParts(bytes).map { PhoneNumber($0) }
    }

    /// ``_parseE164Word(_:)``'s number as its parts. With `stripping`, also for a national number
    /// that a national prefix may start, through an out-of-line call; without it (the hot path)
    /// such numbers are nil, since that call would cost every number more than it saves.
    @inline(__always)
    func _parseE164WordParts(_ bytes: UnsafeBufferPointer<UInt8>, stripping: Bool = false) -> _NumberParts? {
        let n = bytes.count
        guard n >= 9, n <= 20, let base = bytes.baseAddress, base[0] == UInt8(ascii: "+") else { return nil }
        // Every byte after "+" an ASCII digit: bytes 1..<9, the last eight, and 9..<17 when
        // those two leave a gap.
        var notDigits = Self._nonDigitBytes(Self._word(base, 1)) | Self._nonDigitBytes(Self._word(base, n &- 8))
        if n > 17 { notDigits |= Self._nonDigitBytes(Self._word(base, 9)) }
        guard notDigits == 0 else { return nil }
        return _parseInternationalDigitParts(UnsafeBufferPointer(rebasing: bytes[1...]), stripping: stripping)
    }

    /// What follows "+" in ``_parseE164Word(_:)``: 8 to 19 ASCII digits (the caller checked
    /// them), read by words; nil when the general path must decide (unknown calling code, national
    /// number of fewer than 2 or more than 16 digits, one a national prefix may start unless
    /// `stripping`, one that stripping leaves too short or too long). Also the digits of typed
    /// input with a "+" (step 3 of the pipeline, ``parse(utf8:defaultRegion:)``).
    @inline(__always)
    func _parseInternationalDigits(_ digits: UnsafeBufferPointer<UInt8>, stripping: Bool = false) -> PhoneNumber? {
        _parseInternationalDigitParts(digits, stripping: stripping).map { PhoneNumber($0) }
    }

    /// ``_parseInternationalDigits(_:)``'s number as its parts.
    @inline(__always)
    func _parseInternationalDigitParts(_ digits: UnsafeBufferPointer<UInt8>, stripping: Bool = false) -> _NumberParts? {
        let n = digits.count
        guard n >= 8, n <= 19, let base = digits.baseAddress else { return nil }
        let (countryCode, codeLength, regionIndex) = tables.callingCode(startOf: digits)
        let length = n &- codeLength
        guard countryCode > 0, length >= 2, length <= 16 else { return nil }
        // A national prefix may start the national number only if its first two digits are among
        // the prefix's starts (empty for a region without a national prefix: no second test).
        let region = tables.core + regionIndex
        if region.pointee.prefixStarts.admits(base[codeLength], base[codeLength &+ 1]) {
            return stripping ? _strippedNationalParts(UnsafeBufferPointer(rebasing: digits[codeLength...]),
                                                      countryCode: countryCode, region: region.pointee) : nil
        }
        // The national digits as the last of sixteen bytes (those before them not digits): the
        // last eight, and for more than eight the first eight moved up to the top of a word.
        // Nothing else: the national number's value and leading zeros are read off the digits
        // when asked for.
        let lastBytes = Self._word(base, n &- 8)
        let nsn = length <= 8 ? _NationalDigits(last: lastBytes, count: length)
                              : _NationalDigits(first: Self._word(base, codeLength), last: lastBytes, count: length)
        return _NumberParts(countryCode: countryCode, digits: nsn)
    }

    /// The eight bytes at `base + offset` as a word, the first byte lowest (any alignment).
    @inline(__always)
    static func _word(_ base: UnsafePointer<UInt8>, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// Nonzero unless every byte of the word is an ASCII digit. Exact: the lowest offending byte
    /// sets its high bit with no carry or borrow from below; only bytes above it can be disturbed.
    @inline(__always)
    static func _nonDigitBytes(_ word: UInt64) -> UInt64 {
        ((word &- 0x3030_3030_3030_3030) | (word &+ 0x4646_4646_4646_4646)) & 0x8080_8080_8080_8080
    }

    /// The value of eight decimal digits, one per byte (0...9), the first in the lowest byte:
    /// pairs, then fours, then the whole, each step one multiply.
    @inline(__always)
    static func _eightDigits(_ digits: UInt64) -> UInt64 {
        let pairs = (digits &* 10) &+ (digits &>> 8)
        let mask: UInt64 = 0x0000_00FF_0000_00FF
        return ((pairs & mask) &* (100 &+ 1_000_000 &<< 32) &+ ((pairs &>> 16) & mask) &* (1 &+ 10_000 &<< 32)) &>> 32
    }

    /// The steps of libphonenumber's parse after a leading `+` (or IDD) was removed: country code
    /// extraction, national prefix stripping, length checks. `digits` are ASCII digits.
    @inline(__always)
    func _parseAfterPlus(_ digits: UnsafeBufferPointer<UInt8>, extension: String?) throws(PhoneNumberError) -> PhoneNumber {
        if digits.count <= 2 {
            throw PhoneNumberError(.tooShortAfterIDD, "After the international prefix there are too few digits for a phone number.")
        }
        // Country codes have 1 to 3 digits and never start with 0; the shortest one in use wins.
        let (countryCode, codeLength, regionIndex) = tables.callingCode(startOf: digits)
        guard countryCode > 0 else {
            throw PhoneNumberError(.invalidCountryCode, "The country calling code after '+' is not one in use; check the first digits.")
        }
        let national = UnsafeBufferPointer(rebasing: digits[codeLength...])
        return try _finishNational(national, countryCode: countryCode, regionIndex: regionIndex, extension: `extension`)
    }

    /// Shared tail of parsing: national prefix stripping when it leaves a possible length, then the
    /// length limits and Italian leading zeros. The region is `tables.core[regionIndex]`, read in
    /// place: a `_RegionCore` argument (128 bytes) was copied to the stack twice per call.
    @inline(__always)
    func _finishNational(
        _ national: UnsafeBufferPointer<UInt8>, countryCode: Int, regionIndex: Int, extension: String?
    ) throws(PhoneNumberError) -> PhoneNumber {
        if national.count < 2 {
            throw PhoneNumberError(.tooShortNSN, "The national number has fewer than 2 digits.")
        }
        // Longer input can never shrink to 17 digits by stripping a national prefix.
        if national.count > _DigitString.capacity - 8 {
            throw PhoneNumberError(.tooLong, "The national number has more than 17 digits.")
        }
        // Common case: no national prefix can start the number (a "0" it does not start with,
        // "0|180020" before "20...", none at all): nothing to strip, no DFA walk.
        let region = tables.core + regionIndex
        if region.pointee.nationalPrefixDFA < 0 || !region.pointee.prefixStarts.admits(national) {
            return try _makeNumber(national, countryCode: countryCode, extension: `extension`)
        }
        var transformed = _DigitString()
        if let stripped = _keptStrip(national, region.pointee, transformed: &transformed) {
            return try stripped.withDigits(national, transformed) { digits in
                Result { () throws(PhoneNumberError) in try _makeNumber(digits, countryCode: countryCode, extension: `extension`) }
            }.get()
        }
        return try _makeNumber(national, countryCode: countryCode, extension: `extension`)
    }

    /// `_stripNationalPrefix`'s result when libphonenumber keeps it: the stripped number is of a
    /// possible length (not too short, local only or of an invalid length).
    @inline(__always)
    func _keptStrip(
        _ national: UnsafeBufferPointer<UInt8>, _ region: _RegionCore, transformed: inout _DigitString
    ) -> _NationalPart? {
        guard let stripped = _stripNationalPrefix(national, region, transformed: &transformed) else { return nil }
        switch _possibility(length: stripped.count(of: national, transformed), region: region) {
        case .tooShort, .isPossibleLocalOnly, .invalidLength: return nil
        default: return stripped
        }
    }

    /// ``_finishNational(_:countryCode:regionIndex:extension:)`` for the word path, whose national
    /// number (2 to 16 digits) a national prefix may start: one number in ten of E.164 input,
    /// spared the general path (a second word check, a byte loop, a Result). Nil, to leave the
    /// error to the general path, when the stripped number is of a length `_makeNumber` refuses.
    @inline(never)
    func _strippedNationalParts(
        _ national: UnsafeBufferPointer<UInt8>, countryCode: Int, region: _RegionCore
    ) -> _NumberParts? {
        var transformed = _DigitString()
        if let stripped = _keptStrip(national, region, transformed: &transformed) {
            return stripped.withDigits(national, transformed) { Self._numberParts($0, countryCode: countryCode) }
        }
        return Self._numberParts(national, countryCode: countryCode)
    }

    /// ``_makeNumber(_:countryCode:extension:)`` without an extension, for 2 to 16 digits (nil
    /// for any other count).
    @inline(__always)
    static func _numberParts(_ number: UnsafeBufferPointer<UInt8>, countryCode: Int) -> _NumberParts? {
        guard number.count >= 2, number.count <= 16 else { return nil }
        return _NumberParts(countryCode: countryCode, digits: _NationalDigits(number))
    }

    /// libphonenumber's count of Italian leading zeros: every leading zero but a last digit.
    @inline(__always)
    static func _leadingZeros(_ number: UnsafeBufferPointer<UInt8>) -> Int {
        var zeros = 0
        if number.count > 0, number[0] == 0x30 {
            zeros = 1
            while zeros < number.count &- 1, number[zeros] == 0x30 { zeros &+= 1 }
        }
        return zeros
    }

    /// The length limits, Italian leading zeros and the value of a final national number.
    @inline(__always)
    func _makeNumber(
        _ number: UnsafeBufferPointer<UInt8>, countryCode: Int, extension: String?
    ) throws(PhoneNumberError) -> PhoneNumber {
        if number.count > Self.maxNationalLength {
            throw PhoneNumberError(.tooLong, "The national number has more than 17 digits.")
        }
        if number.count < 2 {
            throw PhoneNumberError(.tooShortNSN, "The national number has fewer than 2 digits.")
        }
        if number.count <= 16 {
            return PhoneNumber(countryCode: countryCode, digits: _NationalDigits(number), extension: `extension`)
        }
        // 17 digits: more than the digits form holds.
        return PhoneNumber(countryCode: countryCode, nationalNumber: Self._value(ofDigits: number),
                           leadingZeros: Self._leadingZeros(number), extension: `extension`)
    }

    /// The value of ASCII digits (at most 19, so that it fits), for a national number longer
    /// than `_NationalDigits` holds.
    static func _value(ofDigits digits: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var value: UInt64 = 0
        for d in digits { value = value &* 10 &+ UInt64(d &- 0x30) }
        return value
    }

    /// libphonenumber's `maybeStripNationalPrefixAndCarrierCode`: what is left of `digits` without
    /// its national prefix (or transformed by the region's rule, the new digits then written to
    /// `transformed`, which starts empty), or nil when nothing is stripped.
    func _stripNationalPrefix(
        _ digits: UnsafeBufferPointer<UInt8>, _ region: _RegionCore, transformed: inout _DigitString
    ) -> _NationalPart? {
        guard digits.count > 0, region.nationalPrefixDFA >= 0 else { return nil }
        if region.literalPrefixLength > 0 {
            // A plain digit prefix ("0", "1", "8", ...): no captures, no transform.
            let n = Int(region.literalPrefixLength)
            guard _Store.startsWith(digits, literal: region.literalPrefix, count: region.literalPrefixLength) else { return nil }
            let rest = UnsafeBufferPointer(rebasing: digits[n...])
            // The stripped number is kept unless only the original matches (rest first: it usually
            // matches, which settles it with one DFA walk).
            if !_matchesGeneralPattern(rest, region), _matchesGeneralPattern(digits, region) { return nil }
            return .suffix(n)
        }
        // The DFA says where the Pike VM's match would end and whether it entered the last
        // group; the VM itself runs only for the group spans a transform rule needs.
        guard region.prefixStarts.admits(digits),
              let match = _LeftmostDFA.match(tables.words, region.nationalPrefixDFA, digits) else { return nil }
        let viableOriginal = _matchesGeneralPattern(digits, region)
        let matchEnd = match.end
        let result: _NationalPart
        if match.enteredLastGroup, let rule = store.regions[Int(region.index)].nationalPrefixTransformRule, !rule.isEmpty,
           let captures = _PikeVM.match(tables.words, store.regions[Int(region.index)].nationalPrefixForParsing, digits, toEnd: false) {
            // Replace the matched prefix by the rule, with $n for group n.
            var iterator = rule.utf8.makeIterator()
            while let byte = iterator.next() {
                if byte == UInt8(ascii: "$"), let next = iterator.next() {
                    let g = Int(next &- 0x30)
                    if g < 8, captures[2 * g] >= 0 {
                        transformed.append(UnsafeBufferPointer(rebasing: digits[Int(captures[2 * g])..<Int(captures[2 * g + 1])]))
                    }
                } else {
                    transformed.append(byte)
                }
            }
            transformed.append(UnsafeBufferPointer(rebasing: digits[matchEnd...]))
            result = .transformed
        } else {
            result = .suffix(matchEnd)
        }
        if viableOriginal, !result.withDigits(digits, transformed, { _matchesGeneralPattern($0, region) }) { return nil }
        return result
    }
}

/// A number without an extension, as the word paths parse it: a value with nothing to retain.
/// Its stored fields are ``PhoneNumber``'s but the extension.
struct _NumberParts {
    var countryCode: Int
    var digits: _NationalDigits
    var longValue: UInt64 = 0
    var longZeros: Int = 0

    /// A number of 1 to 16 national digits.
    @inline(__always)
    init(countryCode: Int, digits: _NationalDigits) {
        assert(digits.count != 0)
        self.countryCode = countryCode
        self.digits = digits
    }

    /// The parts of a number without an extension.
    @inline(__always)
    init(_ number: PhoneNumber) {
        assert(number.extension == nil)
        countryCode = number.countryCode
        digits = number._digits
        longValue = number._longValue
        longZeros = number._longZeros
    }
}

extension PhoneNumber {
    @inline(__always)
    init(_ parts: _NumberParts, extension: String? = nil) {
        self.countryCode = parts.countryCode
        self.extension = `extension`
        self._digits = parts.digits
        self._longValue = parts.longValue
        self._longZeros = parts.longZeros
    }
}

/// A national number that a parsing step derived from digits it was given: nearly always what
/// is left of them after a prefix (`suffix`, read in place), or new digits when a national prefix
/// transform rule rewrote the number (`transformed`: the step wrote them into a `_DigitString`
/// its caller owns). No payload of digits: a 72-byte case made every value, and each tuple
/// returning one, a copy of that size.
enum _NationalPart {
    case suffix(Int)
    case transformed

    /// Calls `body` with the digits: `digits` from `start` on, or the `transformed` ones.
    @inline(__always)
    func withDigits<R>(
        _ digits: UnsafeBufferPointer<UInt8>, _ transformed: borrowing _DigitString,
        _ body: (UnsafeBufferPointer<UInt8>) -> R
    ) -> R {
        switch self {
        case .suffix(let start): body(UnsafeBufferPointer(rebasing: digits[start...]))
        case .transformed: transformed.withBuffer(body)
        }
    }

    /// The number of digits.
    func count(of digits: UnsafeBufferPointer<UInt8>, _ transformed: borrowing _DigitString) -> Int {
        switch self {
        case .suffix(let start): digits.count &- start
        case .transformed: transformed.count
        }
    }
}
