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
        var text = text
        return try text.withUTF8 { bytes in
            Result { () throws(PhoneNumberError) in try parse(e164UTF8: bytes) }
        }.get()
    }

    /// Parses strict E.164 given as UTF-8 bytes; see ``parse(e164:)``.
    public func parse(e164UTF8 bytes: UnsafeBufferPointer<UInt8>) throws(PhoneNumberError) -> PhoneNumber {
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

    /// Formats a number as E.164 (`+` country code national significant number); an extension is
    /// not part of E.164 and is left out.
    public func formatE164(_ number: PhoneNumber) -> String {
        number.withNationalSignificantNumber { _e164(countryCode: number.countryCode, nsn: $0) }
    }

    /// "+", the country code and the national significant number, written once into the String;
    /// or `candidate` itself when it already is exactly that text (input that was E.164).
    func _e164(countryCode: Int, nsn: UnsafeBufferPointer<UInt8>, reusing candidate: String? = nil) -> String {
        let code = UInt64(max(countryCode, 0))
        let codeDigits = _decimalDigitCount(code)
        let count = 1 + codeDigits + nsn.count
        if let candidate, candidate.utf8.count == count {
            let same = candidate.utf8.withContiguousStorageIfAvailable { text -> Bool in
                guard text[0] == UInt8(ascii: "+") else { return false }
                var value: UInt64 = 0
                for k in 1...codeDigits {
                    let digit = text[k] &- 0x30
                    guard digit < 10 else { return false }
                    value = value &* 10 &+ UInt64(digit)
                }
                guard value == code else { return false }
                for k in 0..<nsn.count where text[1 &+ codeDigits &+ k] != nsn[k] { return false }
                return true
            }
            if same == true { return candidate }
        }
        return String(unsafeUninitializedCapacity: count) { out in
            out[0] = UInt8(ascii: "+")
            _writeDecimal(code, digits: codeDigits, to: out.baseAddress! + 1)
            for k in 0..<nsn.count { out[1 &+ codeDigits &+ k] = nsn[k] }
            return count
        }
    }

    // MARK: - Internals shared with parsing

    /// The steps of libphonenumber's parse after a leading `+` (or IDD) was removed: country code
    /// extraction, national prefix stripping, length checks. `digits` are ASCII digits.
    @inline(__always)
    func _parseAfterPlus(_ digits: UnsafeBufferPointer<UInt8>, extension: String?) throws(PhoneNumberError) -> PhoneNumber {
        if digits.count <= 2 {
            throw PhoneNumberError(.tooShortAfterIDD, "After the international prefix there are too few digits for a phone number.")
        }
        // Country codes have 1 to 3 digits and never start with 0.
        var countryCode = 0
        var codeLength = 0
        if digits[0] != 0x30 {
            var value = 0
            for i in 0..<min(3, digits.count) {
                value = value * 10 + Int(digits[i] &- 0x30)
                if store.mainRegion(forCallingCode: value) != nil {
                    countryCode = value
                    codeLength = i + 1
                    break
                }
            }
        }
        guard codeLength > 0, let regionIndex = store.mainRegion(forCallingCode: countryCode) else {
            throw PhoneNumberError(.invalidCountryCode, "The country calling code after '+' is not one in use; check the first digits.")
        }
        let national = UnsafeBufferPointer(rebasing: digits[codeLength...])
        return try _finishNational(national, countryCode: countryCode, region: store.core[regionIndex], extension: `extension`)
    }

    /// Shared tail of parsing: national prefix stripping when it leaves a possible length, then the
    /// length limits and Italian leading zeros.
    @inline(__always)
    func _finishNational(
        _ national: UnsafeBufferPointer<UInt8>, countryCode: Int, region: _RegionCore, extension: String?
    ) throws(PhoneNumberError) -> PhoneNumber {
        if national.count < 2 {
            throw PhoneNumberError(.tooShortNSN, "The national number has fewer than 2 digits.")
        }
        // Longer input can never shrink to 17 digits by stripping a national prefix.
        if national.count > _DigitString.capacity - 8 {
            throw PhoneNumberError(.tooLong, "The national number has more than 17 digits.")
        }
        // Common case: no national prefix can start the number (a "0" it does not start with,
        // "0|180020" before "20...", none at all): nothing to strip, no copy, no Pike VM.
        if region.nationalPrefixForParsing < 0 || !region.prefixStarts.admits(national) {
            return try _makeNumber(national, countryCode: countryCode, extension: `extension`)
        }
        var number = _DigitString(national)
        if let stripped = _stripNationalPrefix(number, region) {
            switch _possibility(length: stripped.count, region: region) {
            case .tooShort, .isPossibleLocalOnly, .invalidLength: break
            default: number = stripped
            }
        }
        return try number.withBuffer { digits in
            Result { () throws(PhoneNumberError) in try _makeNumber(digits, countryCode: countryCode, extension: `extension`) }
        }.get()
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
        var zeros = 0
        if number[0] == 0x30 {
            zeros = 1
            while zeros < number.count - 1, number[zeros] == 0x30 { zeros += 1 }
        }
        var value: UInt64 = 0
        for d in number { value = value &* 10 &+ UInt64(d &- 0x30) }
        return PhoneNumber(countryCode: countryCode, nationalNumber: value, leadingZeros: zeros, extension: `extension`)
    }

    /// libphonenumber's `maybeStripNationalPrefixAndCarrierCode`: the number without its national
    /// prefix (or transformed by the region's rule), or nil when nothing is stripped.
    func _stripNationalPrefix(_ number: _DigitString, _ region: _RegionCore) -> _DigitString? {
        guard number.count > 0, region.nationalPrefixForParsing >= 0 else { return nil }
        if region.literalPrefixLength > 0 {
            // A plain digit prefix ("0", "1", "8", ...): no captures, no transform.
            let n = Int(region.literalPrefixLength)
            return number.withBuffer { digits -> _DigitString? in
                guard _Store.startsWith(digits, literal: region.literalPrefix, count: region.literalPrefixLength) else { return nil }
                let rest = UnsafeBufferPointer(rebasing: digits[n...])
                // The stripped number is kept unless only the original matches (rest first: it usually
                // matches, which settles it with one DFA walk).
                if !_matchesGeneralPattern(rest, region), _matchesGeneralPattern(digits, region) { return nil }
                return _DigitString(rest)
            }
        }
        return number.withBuffer { digits -> _DigitString? in
            guard region.prefixStarts.admits(digits),
                  let captures = _PikeVM.match(region.nationalPrefixForParsing, digits, toEnd: false) else { return nil }
            let viableOriginal = _matchesGeneralPattern(digits, region)
            let groups = _Metadata.word(Int(region.nationalPrefixForParsing) + 1)
            let matchEnd = Int(captures[1])
            let lastGroupMatched = groups > 0 && captures[2 * groups] >= 0
            var result = _DigitString()
            if lastGroupMatched, let rule = store.regions[Int(region.index)].nationalPrefixTransformRule, !rule.isEmpty {
                // Replace the matched prefix by the rule, with $n for group n.
                var iterator = rule.utf8.makeIterator()
                while let byte = iterator.next() {
                    if byte == UInt8(ascii: "$"), let next = iterator.next() {
                        let g = Int(next &- 0x30)
                        if g < 8, captures[2 * g] >= 0 {
                            result.append(UnsafeBufferPointer(rebasing: digits[Int(captures[2 * g])..<Int(captures[2 * g + 1])]))
                        }
                    } else {
                        result.append(byte)
                    }
                }
            }
            result.append(UnsafeBufferPointer(rebasing: digits[matchEnd...]))
            if viableOriginal {
                let stillViable = result.withBuffer { _matchesGeneralPattern($0, region) }
                if !stillViable { return nil }
            }
            return result
        }
    }
}
