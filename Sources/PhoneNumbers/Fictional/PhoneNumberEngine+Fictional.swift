extension PhoneNumberEngine {
    /// Returns the fictional range a number falls in, or `nil` when it is not known to be fictional.
    ///
    /// Fictional numbers are kept out of service so that films, books, documentation and tests can
    /// use them without reaching anyone (see ``FictionalRanges``). The answer does not depend on
    /// validity: Ofcom's drama mobile 07700 900123 is not a valid UK number, NANP 555-0100 numbers are
    /// valid, and both are fictional. Check ``FictionalRange/kind`` for how strong the claim is.
    ///
    /// ```swift
    /// let engine = PhoneNumberEngine()
    /// let number = try engine.parse(e164: "+16505553434")
    /// engine.fictionalRange(of: number)?.kind        // .nanp555Convention
    /// let drama = try engine.parse(e164: "+447700900123")
    /// engine.fictionalRange(of: drama)?.kind         // .reservedForFiction
    /// ```
    ///
    /// - Parameter number: A parsed number; its extension is ignored.
    /// - Returns: The range containing the number's national significant number, or `nil`.
    /// - Complexity: O(1); no allocation. Inlinable, so that callers read the four fields it needs
    ///   instead of copying the whole number (extension and all) into a call.
    @inlinable
    public func fictionalRange(of number: PhoneNumber) -> FictionalRange? {
        FictionalRanges._match(countryCode: number.countryCode, packedDigits: number._digits.packed,
                               longValue: number._longValue, longZeros: number._longZeros)
    }
}

extension FictionalRanges {
    /// The range containing a parsed number; `nil` when none does. The number's digits give the
    /// length, and its value only for a calling code and length that have ranges at all.
    @inline(__always)
    package static func match(_ number: PhoneNumber) -> FictionalRange? {
        _match(countryCode: number.countryCode, packedDigits: number._digits.packed, longValue: number._longValue,
               longZeros: number._longZeros)
    }

    /// ``match(_:)`` from a number's stored fields (`PhoneNumber._digits` packed, and the fields
    /// of a number its digits do not hold).
    @usableFromInline
    static func _match(countryCode: Int, packedDigits: UInt64, longValue: UInt64, longZeros: Int) -> FictionalRange? {
        let digits = _NationalDigits(packed: packedDigits)
        let count = digits.count
        if count != 0 {
            return _range(code: _lookupCode(countryCode: countryCode, length: count) { digits.value })
        }
        return _match(countryCode: countryCode, nationalNumber: longValue, leadingZeros: longZeros)
    }

    /// The range containing the national significant number made of `leadingZeros` zeros and the
    /// digits of `nationalNumber`; `nil` when none does or the parts are out of range.
    static func _match(countryCode: Int, nationalNumber: UInt64, leadingZeros: Int) -> FictionalRange? {
        guard leadingZeros >= 0, leadingZeros < _maximumDigits else { return nil }
        let length = leadingZeros &+ _decimalDigitCount(nationalNumber)
        guard length <= _maximumDigits else { return nil }
        return _range(code: _lookupCode(countryCode: countryCode, length: length) { nationalNumber })
    }
}
