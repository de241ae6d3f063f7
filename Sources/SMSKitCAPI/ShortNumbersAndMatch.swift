// smskit_short_number, smskit_match.

import CSMSKit
import PhoneNumbers

@_cdecl("smskit_short_number")
public func smskitShortNumber(_ handle: OpaquePointer?, _ input: UnsafePointer<CChar>?, _ length: Int,
                              _ region: UnsafePointer<CChar>?,
                              _ result: UnsafeMutablePointer<smskit_short_number_result>?) -> Int32 {
    guard let result else { return SMSKIT_ERR_NULL_ARGUMENT }
    result.initialize(to: smskit_short_number_result())
    return CAPIEngine.with(handle) { engine -> Int32 in
        guard let bytes = inputBytes(input, length) else { return SMSKIT_ERR_NULL_ARGUMENT }
        guard bytes.count <= Int(SMSKIT_MAX_NUMBER_BYTES) else { return SMSKIT_ERR_INPUT_TOO_LONG }
        // A short number is dialled in a region: no region (or a non-geographic entity) is refused.
        guard let region, case .region(let code?) = RegionArgument(region), code != .nonGeographic else {
            return SMSKIT_ERR_INVALID_REGION
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { return SMSKIT_ERR_INVALID_UTF8 }
        let numbers = engine.numbers
        if !bytes.contains(0) {
            result.pointee.emergency = numbers.isEmergencyNumber(text, region: code) ? 1 : 0
            result.pointee.connects_to_emergency = numbers.connectsToEmergencyNumber(text, region: code) ? 1 : 0
        }
        if let problem = PhoneNumberEngine.problem(bytes) {
            result.pointee.error = problem
            return SMSKIT_OK
        }
        let number: PhoneNumber
        do throws(PhoneNumberError) {
            number = try numbers.parse(utf8: bytes, defaultRegion: code)
        } catch {
            result.pointee.error = PhoneNumberEngine.status(error.code)
            return SMSKIT_OK
        }
        result.pointee.possible = numbers.isPossibleShortNumber(number, forRegion: code) ? 1 : 0
        result.pointee.valid = numbers.isValidShortNumber(number, forRegion: code) ? 1 : 0
        result.pointee.cost = switch numbers.expectedCost(of: number, forRegion: code) {
        case .unknownCost: UInt8(SMSKIT_COST_UNKNOWN)
        case .tollFree: UInt8(SMSKIT_COST_TOLL_FREE)
        case .standardRate: UInt8(SMSKIT_COST_STANDARD_RATE)
        case .premiumRate: UInt8(SMSKIT_COST_PREMIUM_RATE)
        }
        result.pointee.carrier_specific = numbers.isCarrierSpecific(number, forRegion: code) ? 1 : 0
        result.pointee.sms_service = numbers.isSMSServiceNumber(number, forRegion: code) ? 1 : 0
        return SMSKIT_OK
    } ?? SMSKIT_ERR_NULL_ARGUMENT
}

@_cdecl("smskit_match")
public func smskitMatch(_ handle: OpaquePointer?, _ first: UnsafePointer<CChar>?, _ firstLength: Int,
                        _ second: UnsafePointer<CChar>?, _ secondLength: Int,
                        _ matchOut: UnsafeMutablePointer<Int32>?) -> Int32 {
    guard let matchOut else { return SMSKIT_ERR_NULL_ARGUMENT }
    matchOut.pointee = SMSKIT_MATCH_NOT_A_NUMBER
    return CAPIEngine.with(handle) { engine -> Int32 in
        guard let a = inputBytes(first, firstLength), let b = inputBytes(second, secondLength) else {
            return SMSKIT_ERR_NULL_ARGUMENT
        }
        guard a.count <= Int(SMSKIT_MAX_NUMBER_BYTES), b.count <= Int(SMSKIT_MAX_NUMBER_BYTES) else {
            return SMSKIT_ERR_INPUT_TOO_LONG
        }
        guard let textA = String(validating: a, as: UTF8.self), let textB = String(validating: b, as: UTF8.self) else {
            return SMSKIT_ERR_INVALID_UTF8
        }
        // A NUL byte is never part of a number (as in smskit_check).
        if a.contains(0) || b.contains(0) { return SMSKIT_OK }
        matchOut.pointee = switch engine.numbers.match(textA, textB) {
        case .notANumber: SMSKIT_MATCH_NOT_A_NUMBER
        case .noMatch: SMSKIT_MATCH_NO_MATCH
        case .shortNSNMatch: SMSKIT_MATCH_SHORT_NSN_MATCH
        case .nsnMatch: SMSKIT_MATCH_NSN_MATCH
        case .exactMatch: SMSKIT_MATCH_EXACT_MATCH
        }
        return SMSKIT_OK
    } ?? SMSKIT_ERR_NULL_ARGUMENT
}
