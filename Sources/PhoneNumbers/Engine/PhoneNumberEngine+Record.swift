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

    /// Calls `body` with the number's E.164 form as ASCII bytes (empty when not parsed).
    package func withE164<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        guard let number else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        return number.withNationalSignificantNumber { nsn in
            // "+", at most 3 digits of country code, at most 32 digits of NSN.
            var storage: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
            return withUnsafeMutableBytes(of: &storage) { raw in
                let out = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                let code = UInt64(max(0, min(number.countryCode, 999)))
                let codeDigits = _decimalDigitCount(code)
                out[0] = UInt8(ascii: "+")
                _writeDecimal(code, digits: codeDigits, to: out + 1)
                let count = min(1 &+ codeDigits &+ nsn.count, raw.count)
                for k in 0..<(count &- 1 &- codeDigits) { out[1 &+ codeDigits &+ k] = nsn[k] }
                return body(UnsafeBufferPointer(start: out, count: count))
            }
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
        return number.withNationalSignificantNumber { digits in
            let (region, type, possibility) = _classification(number.countryCode, digits)
            return _RecordCheck(number: number, error: nil, possibility: possibility, type: type, region: region,
                                fictional: fictionalRange(of: number))
        }
    }
}
