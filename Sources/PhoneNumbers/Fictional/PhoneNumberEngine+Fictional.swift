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
    /// - Complexity: O(log *r*) in the number of ranges; no allocation.
    public func fictionalRange(of number: PhoneNumber) -> FictionalRange? {
        FictionalRanges.match(number)
    }
}

extension FictionalRanges {
    /// The range containing a parsed number, from its country code, national number and leading
    /// zeros; `nil` when none does.
    @inline(__always)
    package static func match(_ number: PhoneNumber) -> FictionalRange? {
        guard number.leadingZeros >= 0, number.leadingZeros < _maximumDigits else { return nil }
        let length = number.leadingZeros &+ _digitCount(number.nationalNumber)
        guard length <= _maximumDigits else { return nil }
        return _range(code: _lookupCode(countryCode: number.countryCode, value: number.nationalNumber, length: length))
    }
}
