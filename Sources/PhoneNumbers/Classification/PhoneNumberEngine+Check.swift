import SMSKitBatch

extension PhoneNumberEngine {
    /// Parses and checks one input: everything a validator reports about it, and for an input
    /// that is not a valid number but a short or emergency number of `defaultRegion`, its
    /// ``PhoneNumberCheck/shortNumber`` facts (for an input given with its calling code, as
    /// libphonenumber's ShortNumberInfo answers for the number's region, never an emergency one).
    ///
    /// ```swift
    /// let check = engine.check("07700 900123", defaultRegion: "GB")
    /// check.isValid            // false
    /// check.fictional?.kind    // .reservedForFiction
    /// ```
    ///
    /// - Parameters:
    ///   - text: The input, in any form ``parse(_:defaultRegion:)`` reads.
    ///   - defaultRegion: The region national numbers are dialled from, or `nil`.
    /// - Returns: The number and what the metadata says of it, or the parse error.
    public func check(_ text: String, defaultRegion: RegionCode?) -> PhoneNumberCheck {
        // Step 1 of the parse pipeline, strict E.164 by words, first on its own, as
        // `check(utf8:)` does: a check returned out of the closure below is copied once more.
        if let word = text.utf8.withContiguousStorageIfAvailable({ _parseE164WordParts($0) }), let parts = word {
            return _checkGivenWithCallingCode(PhoneNumber(parts), defaultRegion: defaultRegion)
        }
        return _withUTF8(text) { check(utf8: $0, defaultRegion: defaultRegion) }
    }

    /// ``check(_:defaultRegion:)`` over UTF-8 bytes, for a reader that holds its input as bytes
    /// (invalid UTF-8 is read as ``parse(utf8:defaultRegion:)`` reads it).
    ///
    /// ```swift
    /// let check = line.withUTF8 { engine.check(utf8: $0, defaultRegion: "US") }
    /// ```
    public func check(utf8 bytes: UnsafeBufferPointer<UInt8>, defaultRegion: RegionCode?) -> PhoneNumberCheck {
        // The parse pipeline's first exit, strict E.164 by words, tried on its own: outside a
        // throwing call the check of nearly all E.164 input is built once, not built, thrown
        // through and copied.
        if let parts = _parseE164WordParts(bytes) { return _checkGivenWithCallingCode(PhoneNumber(parts), defaultRegion: defaultRegion) }
        let number: PhoneNumber
        do {
            number = try parse(utf8: bytes, defaultRegion: defaultRegion)
        } catch {
            return Self._failedCheck(error)
        }
        if _startsWithPlus(utf8: bytes) { return _checkGivenWithCallingCode(number, defaultRegion: defaultRegion) }
        var result = _check(number)
        if !result.isValid, let region = defaultRegion {
            result.shortNumber = _shortNumberInfo(
                number, region: region, isEmergency: _matchesEmergency(utf8: bytes, region, allowingPrefix: false))
        }
        return result
    }

    /// ``check(_:)`` of a number given with its calling code, with the short-number facts of
    /// ``_shortNumberInfo(givenWithCallingCode:defaultRegion:)`` when it is not valid.
    @inline(__always)
    func _checkGivenWithCallingCode(_ number: PhoneNumber, defaultRegion: RegionCode?) -> PhoneNumberCheck {
        var result = _check(number)
        if !result.isValid, let defaultRegion {
            result.shortNumber = _shortNumberInfo(givenWithCallingCode: number, defaultRegion: defaultRegion)
        }
        return result
    }

    /// Checks a number already parsed: one pass over its national significant number's digits
    /// for region, type and possibility, then its fictional range.
    ///
    /// ```swift
    /// engine.check(try engine.parse(e164: "+447700900123")).fictional?.kind   // .reservedForFiction
    /// ```
    public func check(_ number: PhoneNumber) -> PhoneNumberCheck {
        _check(number)
    }

    /// ``check(_:)``, inlined into the checks of text and bytes.
    @inline(__always)
    func _check(_ number: PhoneNumber) -> PhoneNumberCheck {
        let countryCode = number.countryCode
        let (region, type, possibility) = number.withNationalSignificantNumber { _classification(countryCode, $0) }
        return PhoneNumberCheck(
            number: number, error: nil, possibility: possibility, isValid: type != .unknown,
            type: type, region: region, fictional: fictionalRange(of: number))
    }

    /// The check of an input that did not parse.
    static func _failedCheck(_ error: PhoneNumberError) -> PhoneNumberCheck {
        PhoneNumberCheck(number: nil, error: error, possibility: nil, isValid: false, type: .unknown,
                         region: nil, fictional: nil)
    }

    /// Region, type and possibility of a parsed number from its national significant number's
    /// digits: what ``check(_:)`` reports.
    @inline(__always)
    func _classification(
        _ countryCode: Int, _ digits: UnsafeBufferPointer<UInt8>
    ) -> (region: RegionCode?, type: PhoneNumberType, possibility: PhoneNumberPossibility) {
        var region: RegionCode? = nil
        var type = PhoneNumberType.unknown
        if let (index, found) = _classify(countryCode, digits) {
            region = tables.regionCodes[index]
            type = found
        }
        let possibility = tables.mainRegion(forCallingCode: countryCode).map {
            _possibility(length: digits.count, region: tables.core[$0])
        } ?? .invalidCountryCode
        return (region, type, possibility)
    }

    /// Parses and checks many inputs on all cores; one result per input, in input order. Failures
    /// are results (with ``PhoneNumberCheck/error``), never dropped.
    ///
    /// ```swift
    /// let results = engine.checkBatch(lines.map { PhoneNumberInput($0, defaultRegion: "US") })
    /// ```
    /// - Parameter concurrency: Slices run at once; by default four per active processor.
    /// - Complexity: O(n) work split into contiguous slices across threads.
    public func checkBatch(_ inputs: [PhoneNumberInput], concurrency: Int? = nil) -> [PhoneNumberCheck] {
        OrderedBatchLoop<Never>.map(inputs, concurrency: concurrency) { input in
            check(input.text, defaultRegion: input.defaultRegion)
        }
    }
}
