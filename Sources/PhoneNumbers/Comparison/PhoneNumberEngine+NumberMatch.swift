// libphonenumber's isNumberMatch: between two numbers, a number and a text, two texts (the text
// matcher, findNumbers, is Matching/).

extension PhoneNumberEngine {
    /// How closely two numbers agree, as libphonenumber's `isNumberMatch`.
    ///
    /// Only the country calling code, the national number, its leading zeros (Italian numbers)
    /// and the extension count. Different extensions never match. When both numbers have a
    /// calling code the result is ``PhoneNumberMatchType/exactMatch``, ``PhoneNumberMatchType/shortNSNMatch``
    /// (same calling code, one national number ends with the other, or one side has an extension
    /// the other lacks) or ``PhoneNumberMatchType/noMatch``; a calling code of 0 (a number read
    /// without any region) takes the other side's, and equal numbers are then an
    /// ``PhoneNumberMatchType/nsnMatch``.
    ///
    /// ```swift
    /// let a = try engine.parse("+16502530000", defaultRegion: nil)
    /// let b = try engine.parse("2530000", defaultRegion: "US")
    /// engine.match(a, b)   // .shortNSNMatch
    /// ```
    ///
    /// - Returns: The kind of match; never ``PhoneNumberMatchType/notANumber`` for two numbers.
    /// - Complexity: O(1), no allocation.
    public func match(_ first: PhoneNumber, _ second: PhoneNumber) -> PhoneNumberMatchType {
        let ext1 = first.extension.flatMap { $0.isEmpty ? nil : $0 }
        let ext2 = second.extension.flatMap { $0.isEmpty ? nil : $0 }
        if let ext1, let ext2, ext1 != ext2 { return .noMatch }
        let sameCore = first.nationalNumber == second.nationalNumber
            && Self._zeros(first) == Self._zeros(second) && ext1 == ext2
        if first.countryCode != 0 && second.countryCode != 0 {
            if first.countryCode == second.countryCode && sameCore { return .exactMatch }
            if first.countryCode == second.countryCode
                && Self._oneNationalNumberEndsTheOther(first.nationalNumber, second.nationalNumber) {
                return .shortNSNMatch
            }
            return .noMatch
        }
        if sameCore { return .nsnMatch }
        if Self._oneNationalNumberEndsTheOther(first.nationalNumber, second.nationalNumber) { return .shortNSNMatch }
        return .noMatch
    }

    /// How closely a number and a text agree, as libphonenumber's `isNumberMatch`.
    ///
    /// The text is read as an international number ("+44 ..."); when it has no calling code it
    /// is read as a national number of `first`'s region (the main region of its calling code),
    /// and an exact match then counts as an ``PhoneNumberMatchType/nsnMatch``. A number whose calling
    /// code is unknown is compared with the text's digits read without any region.
    ///
    /// ```swift
    /// let number = try engine.parse("+16502530000", defaultRegion: nil)
    /// engine.match(number, "+1 650-253-0000")   // .exactMatch
    /// engine.match(number, "(650) 253-0000")    // .nsnMatch
    /// engine.match(number, "hello")             // .notANumber
    /// ```
    ///
    /// - Returns: The kind of match, ``PhoneNumberMatchType/notANumber`` when the text is not a phone number.
    /// - Complexity: O(n) in the text's length (at most 250 characters are read).
    public func match(_ first: PhoneNumber, _ second: String) -> PhoneNumberMatchType {
        do throws(PhoneNumberError) {
            return match(first, try parse(second, defaultRegion: nil))
        } catch where error.code == .invalidCountryCode {
            // No calling code in the text: read it in the first number's region.
            guard let region = mainRegion(forCountryCode: first.countryCode) else {
                guard let second = try? _parseWithoutRegion(second) else { return .notANumber }
                return match(first, second)
            }
            // A non-geographic entity ("001") is no region to read national input in.
            guard region != .nonGeographic, let second = try? parse(second, defaultRegion: region) else {
                return .notANumber
            }
            let kind = match(first, second)
            return kind == .exactMatch ? .nsnMatch : kind
        } catch {
            return .notANumber
        }
    }

    /// How closely a text and a number agree: ``match(_:_:)-(PhoneNumber,String)`` with the
    /// arguments swapped.
    public func match(_ first: String, _ second: PhoneNumber) -> PhoneNumberMatchType {
        match(second, first)
    }

    /// How closely two texts agree, as libphonenumber's `isNumberMatch`; no region is assumed.
    ///
    /// The first text with a calling code is read and the other compared with it as in
    /// ``match(_:_:)-(PhoneNumber,String)``; when neither has one, both are read as digits
    /// without a region and compared: equal national numbers are an ``PhoneNumberMatchType/nsnMatch``.
    ///
    /// ```swift
    /// engine.match("+44 20 7031 3000", "020 7031 3000")   // .nsnMatch
    /// engine.match("650 253 0000", "253 0000")            // .shortNSNMatch
    /// engine.match("+1 650 253 0000", "+44 650 253 0000") // .noMatch
    /// ```
    ///
    /// - Returns: The kind of match, ``PhoneNumberMatchType/notANumber`` when a text is not a phone number.
    /// - Complexity: O(n) in the texts' lengths (at most 250 characters of each are read).
    public func match(_ first: String, _ second: String) -> PhoneNumberMatchType {
        do throws(PhoneNumberError) {
            return match(try parse(first, defaultRegion: nil), second)
        } catch where error.code == .invalidCountryCode {
            do throws(PhoneNumberError) {
                return match(try parse(second, defaultRegion: nil), first)
            } catch where error.code == .invalidCountryCode {
                guard let a = try? _parseWithoutRegion(first), let b = try? _parseWithoutRegion(second) else {
                    return .notANumber
                }
                return match(a, b)
            } catch {
                return .notANumber
            }
        } catch {
            return .notANumber
        }
    }

    /// The leading zeros that count for matching: libphonenumber keeps a count only for numbers
    /// with an Italian leading zero, and a number with none has 0.
    @inline(__always)
    static func _zeros(_ number: PhoneNumber) -> Int { max(number.leadingZeros, 0) }

    /// libphonenumber's `isNationalNumberSuffixOfTheOther`: whether the decimal digits of one
    /// national number (without leading zeros) end the other's; true for equal numbers.
    static func _oneNationalNumberEndsTheOther(_ a: UInt64, _ b: UInt64) -> Bool {
        let (long, short) = a >= b ? (a, b) : (b, a)
        // The short one's digits end the long one's when the long one, reduced modulo
        // 10^(digits of short), is the short one. 0 has one digit ("0").
        var modulus: UInt64 = 10
        while modulus <= short {
            let (next, overflow) = modulus.multipliedReportingOverflow(by: 10)
            if overflow { return long == short }
            modulus = next
        }
        return long % modulus == short
    }

    /// libphonenumber's `parse` with no region and no region check (its `parseHelper(text, null,
    /// false, false)`): input without a calling code becomes a number with calling code 0 and all
    /// of its digits (no national prefix is known to strip). Input that starts with `+` is read
    /// as ``parse(_:defaultRegion:)`` reads it.
    func _parseWithoutRegion(_ text: String) throws(PhoneNumberError) -> PhoneNumber {
        var text = text
        return try text.withUTF8 { bytes in
            Result { () throws(PhoneNumberError) in try _parseWithoutRegion(utf8: bytes) }
        }.get()
    }

    func _parseWithoutRegion(utf8 bytes: UnsafeBufferPointer<UInt8>) throws(PhoneNumberError) -> PhoneNumber {
        try withUnsafeTemporaryAllocation(of: Unicode.Scalar.self, capacity: Self.maxInputLength + 2) { buffer in
          withUnsafeTemporaryAllocation(of: Unicode.Scalar.self, capacity: Self.maxInputLength + 2) { work in
            Result { () throws(PhoneNumberError) in
                let count = try _decode(bytes, into: buffer)
                let input = UnsafeBufferPointer(rebasing: buffer[0..<count])
                let number = _buildNationalNumberForParsing(input, into: work, flags: .all)
                var scan = _Viability.Scan()
                let (viable, found) = _Viability.check(number, number.count, searchExtension: true, scan: &scan)
                guard viable else {
                    throw PhoneNumberError(.notANumber, "This does not look like a phone number: it needs at least 3 digits and only the punctuation phone numbers use.")
                }
                if _Chars.isPlus(number[0]) { return try parse(utf8: bytes, defaultRegion: nil) }
                var nationalCount = number.count
                var extensionText: String? = nil
                if let (start, digits) = found {
                    extensionText = _string(number, digits)
                    nationalCount = start
                }
                let digits = _normalize(_Scalars(rebasing: number[0..<nationalCount]), flags: .all)
                if digits.count > _DigitString.capacity - 8 { throw PhoneNumberError(.tooLong, "The national number has more than 17 digits.") }
                return try digits.withBuffer { national in
                    Result { () throws(PhoneNumberError) in
                        try _makeNumber(national, countryCode: 0, extension: extensionText)
                    }
                }.get()
            }
          }
        }.get()
    }
}
