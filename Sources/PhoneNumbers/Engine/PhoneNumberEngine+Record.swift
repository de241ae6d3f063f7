// What the `smskit validate` hot loop needs about one input, without creating Strings: the same
// answers as ``PhoneNumberEngine/check(_:defaultRegion:)``, shared with the command through
// `package` access (not API).

/// One input's check, as ``PhoneNumberCheck`` but with the E.164 text written on demand.
package struct _RecordCheck {
    /// The parsed number, or nil when parsing failed.
    package var number: PhoneNumber?
    /// Why parsing failed, or nil.
    package var error: PhoneNumberError.Code?
    /// The length check (meaningful when ``number`` is set).
    package var possibility: PhoneNumberPossibility
    package var type: PhoneNumberType
    package var region: RegionCode?
    package var fictional: FictionalRange?

    package var isValid: Bool { type != .unknown }

    /// The most bytes ``_writeE164(to:)`` writes: "+", 3 digits of country code, 17 of number.
    package static var e164Capacity: Int { 21 }

    /// Writes the number's E.164 form as ASCII at `out` (room for ``e164Capacity`` bytes) and
    /// returns its length: 0 when not parsed (or for a hand-made number longer than E.164 allows).
    package func _writeE164(to out: UnsafeMutablePointer<UInt8>) -> Int {
        guard let number else { return 0 }
        return Self._writeE164(countryCode: number.countryCode, nationalDigits: number._digits.packed,
                               longValue: number._longValue, longZeros: number._longZeros, to: out)
    }

    /// The same from a number's stored fields: its packed digits (``PhoneNumber/_packedNationalDigits``),
    /// which nearly every number has, written without converting anything; else the fields of a
    /// number they do not hold (``PhoneNumber/_longFields``).
    @inline(__always)
    package static func _writeE164(
        countryCode: Int, nationalDigits packed: UInt64, longValue: UInt64, longZeros: Int,
        to out: UnsafeMutablePointer<UInt8>
    ) -> Int {
        let digits = _NationalDigits(packed: packed)
        let count = digits.count
        if count == 0 {
            return _writeE164(countryCode: countryCode, nationalNumber: longValue, leadingZeros: longZeros, to: out)
        }
        guard countryCode > 0, countryCode < 1000 else {
            return _writeE164(countryCode: countryCode, nationalNumber: digits.value, leadingZeros: digits.leadingZeros, to: out)
        }
        return _writeE164(countryCode: countryCode, block: digits.block, count: count, to: out)
    }

    /// The same from a number's fields, for a writer that keeps only those.
    package static func _writeE164(
        countryCode: Int, nationalNumber value: UInt64, leadingZeros: Int, to out: UnsafeMutablePointer<UInt8>
    ) -> Int {
        let count = _decimalDigitCount(value) &+ leadingZeros
        if countryCode > 0, countryCode < 1000, leadingZeros >= 0, leadingZeros <= 16, count <= 16 {
            // Nearly every number, with two stores and no loop: "+" and the code (four bytes,
            // the last ones unused for a shorter code), then the national number's 16-digit
            // block moved down to its first digit (its leading zeros included), zeros after it.
            // 20 bytes at most are written.
            return _writeE164(countryCode: countryCode, block: _decimal16(value), count: count, to: out)
        }
        let code = UInt64(max(0, min(countryCode, 999)))
        let codeDigits = _decimalDigitCount(code)
        out[0] = UInt8(ascii: "+")
        _writeDecimal(code, digits: codeDigits, to: out + 1)
        let nsn = out + 1 + codeDigits
        let digits = _decimalDigitCount(value)
        let zeros = max(leadingZeros, 0)
        // More than 17 digits of national number: never made by parsing; written as nothing.
        guard zeros <= e164Capacity, 1 &+ codeDigits &+ zeros &+ digits <= e164Capacity else { return 0 }
        for k in 0..<zeros { nsn[k] = 0x30 }
        _writeDecimal(value, digits: digits, to: nsn + zeros)
        return 1 &+ codeDigits &+ zeros &+ digits
    }

    /// "+", the calling code (1...999) and the last `count` (1...16) digits of a right-aligned
    /// 16-byte block, with two stores and no loop: the four bytes of "+" and the code (the last
    /// ones unused for a shorter code), then the block moved down to its first digit, zeros after
    /// it. 20 bytes at most are written.
    @inline(__always)
    static func _writeE164(countryCode: Int, block: (UInt64, UInt64), count: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let (prefix, codeDigits) = _e164Prefix(UInt32(countryCode))
        let wide: UInt128 = UInt128(block.1) &<< 64 | UInt128(block.0)
        let digits = wide &>> UInt128(8 &* (16 &- count))
        let raw = UnsafeMutableRawPointer(out)
        raw.storeBytes(of: prefix.littleEndian, as: UInt32.self)
        raw.storeBytes(of: digits.littleEndian, toByteOffset: 1 &+ codeDigits, as: UInt128.self)
        return 1 &+ codeDigits &+ count
    }

    /// Calls `body` with the number's E.164 form as ASCII bytes (empty when not parsed): for tests
    /// and the text output. Record writers call the non-generic `_writeE164` instead (a generic
    /// function called from another module runs unspecialized: ~400 instructions a record).
    package func withE164<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var storage: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes >= e164Capacity
        return withUnsafeMutableBytes(of: &storage) { raw in
            let out = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            return body(UnsafeBufferPointer(start: out, count: _writeE164(to: out)))
        }
    }
}

extension PhoneNumberEngine {
    /// ``check(_:defaultRegion:)`` over UTF-8 bytes, without Strings for the input or the E.164
    /// form (both stay bytes for a caller that writes them out).
    package func _checkRecord(utf8 bytes: UnsafeBufferPointer<UInt8>, defaultRegion: RegionCode?) -> _RecordCheck {
        let number: PhoneNumber
        do {
            number = try parse(utf8: bytes, defaultRegion: defaultRegion)
        } catch {
            return _RecordCheck(number: nil, error: error.code, possibility: .invalidLength, type: .unknown,
                                region: nil, fictional: nil)
        }
        let countryCode = number.countryCode
        let (region, type, possibility) = number.withNationalSignificantNumber { _classification(countryCode, $0) }
        return _RecordCheck(number: number, error: nil, possibility: possibility, type: type, region: region,
                            fictional: fictionalRange(of: number))
    }
}
