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

    /// Calls `body` with the number's E.164 form as ASCII bytes (empty when not parsed): for tests
    /// and the text output. Record writers call the non-generic `_writeE164` instead (a generic
    /// function called from another module runs unspecialized: ~400 instructions a record).
    package func withE164<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        guard let e164 = number?.e164 else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        return e164.withUTF8(body)
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
