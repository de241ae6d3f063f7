// smskit_check, smskit_check_batch, smskit_check_packed, smskit_check_split, smskit_join_field.

import CSMSKit
import PhoneNumbers

/// A default-region argument: none, a code, or not a region.
enum RegionArgument {
    case region(RegionCode?)
    case invalid

    /// NULL, "" and "ZZ" (any case) mean no default region; "001" and two ASCII letters are codes.
    init(_ pointer: UnsafePointer<CChar>?) {
        guard let pointer else { self = .region(nil); return }
        let raw = UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self)
        var count = 0
        while count < 4, raw[count] != 0 { count += 1 }
        if count == 0 { self = .region(nil); return }
        if count == 2, raw[0] | 0x20 == UInt8(ascii: "z"), raw[1] | 0x20 == UInt8(ascii: "z") { self = .region(nil); return }
        guard count <= 3, let code = RegionCode(String(decoding: UnsafeBufferPointer(start: raw, count: count), as: UTF8.self)) else {
            self = .invalid
            return
        }
        self = .region(code)
    }
}

extension PhoneNumberEngine {
    /// Fills `result` for one input: the answers of `smskit validate` for the same field.
    @inline(__always)
    func fill(_ result: UnsafeMutablePointer<smskit_check_result>, input: UnsafeBufferPointer<UInt8>?,
              region: RegionArgument) {
        result.initialize(to: smskit_check_result())
        guard let input else { result.pointee.error = SMSKIT_ERR_NULL_ARGUMENT; return }
        guard input.count <= Int(SMSKIT_MAX_NUMBER_BYTES) else { result.pointee.error = SMSKIT_ERR_INPUT_TOO_LONG; return }
        if let problem = Self.problem(input) { result.pointee.error = problem; return }
        guard case .region(let defaultRegion) = region else { result.pointee.error = SMSKIT_ERR_INVALID_REGION; return }
        let number: PhoneNumber
        do {
            number = try parse(utf8: input, defaultRegion: defaultRegion)
        } catch {
            result.pointee.error = Self.status(error.code)
            return
        }
        let (numberRegion, type) = classify(number)
        result.pointee.country_code = Int32(truncatingIfNeeded: number.countryCode)
        result.pointee.possibility = Self.value(possibility(of: number))
        result.pointee.type = Self.value(type)
        result.pointee.valid = type != .unknown ? 1 : 0
        result.pointee.fictional = fictionalRange(of: number).map { Self.value($0.kind) } ?? UInt8(SMSKIT_FICTIONAL_NONE)
        let raw = UnsafeMutableRawPointer(result)
        if let numberRegion {
            let identifier = numberRegion.identifier.utf8
            let out = raw + MemoryLayout<smskit_check_result>.offset(of: \.region)!
            for (k, byte) in identifier.prefix(3).enumerated() { out.storeBytes(of: byte, toByteOffset: k, as: UInt8.self) }
        }
        number.e164?.withUTF8 { text in
            let count = min(text.count, Int(SMSKIT_E164_CAPACITY) - 1)
            (raw + MemoryLayout<smskit_check_result>.offset(of: \.e164)!).copyMemory(from: text.baseAddress!, byteCount: count)
            result.pointee.e164_length = UInt8(count)
        }
    }

    /// What stops an input before the engine, as `smskit validate` decides it: a NUL byte (not a
    /// number), bytes that are not UTF-8.
    @inline(__always)
    static func problem(_ input: UnsafeBufferPointer<UInt8>) -> Int32? {
        var ascii = true
        for byte in input where byte == 0 || byte >= 0x80 {
            if byte == 0 { return SMSKIT_ERR_NOT_A_NUMBER }
            ascii = false
        }
        if ascii { return nil }
        return String(validating: input, as: UTF8.self) == nil ? SMSKIT_ERR_INVALID_UTF8 : nil
    }

    static func status(_ code: PhoneNumberError.Code) -> Int32 {
        switch code {
        case .invalidCountryCode: SMSKIT_ERR_INVALID_COUNTRY_CODE
        case .notANumber: SMSKIT_ERR_NOT_A_NUMBER
        case .tooShortAfterIDD: SMSKIT_ERR_TOO_SHORT_AFTER_IDD
        case .tooShortNSN: SMSKIT_ERR_TOO_SHORT_NSN
        case .tooLong: SMSKIT_ERR_TOO_LONG
        default: SMSKIT_ERR_NOT_A_NUMBER
        }
    }

    static func value(_ possibility: PhoneNumberPossibility) -> UInt8 {
        let value = switch possibility {
        case .isPossible: SMSKIT_POSSIBILITY_IS_POSSIBLE
        case .isPossibleLocalOnly: SMSKIT_POSSIBILITY_IS_POSSIBLE_LOCAL_ONLY
        case .invalidCountryCode: SMSKIT_POSSIBILITY_INVALID_COUNTRY_CODE
        case .tooShort: SMSKIT_POSSIBILITY_TOO_SHORT
        case .invalidLength: SMSKIT_POSSIBILITY_INVALID_LENGTH
        case .tooLong: SMSKIT_POSSIBILITY_TOO_LONG
        }
        return UInt8(value)
    }

    static func value(_ type: PhoneNumberType) -> UInt8 {
        let value = switch type {
        case .fixedLine: SMSKIT_TYPE_FIXED_LINE
        case .mobile: SMSKIT_TYPE_MOBILE
        case .fixedLineOrMobile: SMSKIT_TYPE_FIXED_LINE_OR_MOBILE
        case .tollFree: SMSKIT_TYPE_TOLL_FREE
        case .premiumRate: SMSKIT_TYPE_PREMIUM_RATE
        case .sharedCost: SMSKIT_TYPE_SHARED_COST
        case .voip: SMSKIT_TYPE_VOIP
        case .personalNumber: SMSKIT_TYPE_PERSONAL_NUMBER
        case .pager: SMSKIT_TYPE_PAGER
        case .uan: SMSKIT_TYPE_UAN
        case .voicemail: SMSKIT_TYPE_VOICEMAIL
        case .unknown: SMSKIT_TYPE_UNKNOWN
        }
        return UInt8(value)
    }

    static func value(_ kind: FictionalKind) -> UInt8 {
        let value = switch kind {
        case .reservedForFiction: SMSKIT_FICTIONAL_RESERVED_FOR_FICTION
        case .nanp555Convention: SMSKIT_FICTIONAL_NANP_555_CONVENTION
        case .reported: SMSKIT_FICTIONAL_REPORTED
        }
        return UInt8(value)
    }
}

@_cdecl("smskit_check")
public func smskitCheck(_ handle: OpaquePointer?, _ input: UnsafePointer<CChar>?, _ length: Int,
                 _ defaultRegion: UnsafePointer<CChar>?, _ result: UnsafeMutablePointer<smskit_check_result>?) -> Int32 {
    guard let result else { return SMSKIT_ERR_NULL_ARGUMENT }
    return CAPIEngine.with(handle) { engine in
        engine.numbers.fill(result, input: inputBytes(input, length), region: RegionArgument(defaultRegion))
        return result.pointee.error
    } ?? SMSKIT_ERR_NULL_ARGUMENT
}

/// The batch calls' shared loop: `input(i)` gives input i's bytes.
@inline(__always)
private func checkMany(_ handle: OpaquePointer?, count: Int, regions: UnsafePointer<UnsafePointer<CChar>?>?,
                       defaultRegion: UnsafePointer<CChar>?, results: UnsafeMutablePointer<smskit_check_result>?,
                       _ input: (Int) -> UnsafeBufferPointer<UInt8>?) -> Int32 {
    guard count > 0 else { return handle == nil ? SMSKIT_ERR_NULL_ARGUMENT : SMSKIT_OK }
    guard let results else { return SMSKIT_ERR_NULL_ARGUMENT }
    let shared = RegionArgument(defaultRegion)
    if case .invalid = shared { return SMSKIT_ERR_INVALID_REGION }
    return CAPIEngine.with(handle) { engine in
        for i in 0..<count {
            let region = regions?[i].map { RegionArgument($0) } ?? shared
            engine.numbers.fill(results + i, input: input(i), region: region)
        }
        return SMSKIT_OK
    } ?? SMSKIT_ERR_NULL_ARGUMENT
}

@_cdecl("smskit_check_batch")
public func smskitCheckBatch(_ handle: OpaquePointer?, _ inputs: UnsafePointer<UnsafePointer<CChar>?>?,
                      _ lengths: UnsafePointer<Int>?, _ count: Int, _ regions: UnsafePointer<UnsafePointer<CChar>?>?,
                      _ defaultRegion: UnsafePointer<CChar>?,
                      _ results: UnsafeMutablePointer<smskit_check_result>?) -> Int32 {
    guard count == 0 || (inputs != nil && lengths != nil) else { return SMSKIT_ERR_NULL_ARGUMENT }
    return checkMany(handle, count: count, regions: regions, defaultRegion: defaultRegion, results: results) { i in
        inputBytes(inputs![i], lengths![i])
    }
}

@_cdecl("smskit_check_packed")
public func smskitCheckPacked(_ handle: OpaquePointer?, _ data: UnsafePointer<CChar>?, _ dataLength: Int,
                       _ offsets: UnsafePointer<Int64>?, _ count: Int, _ regions: UnsafePointer<UnsafePointer<CChar>?>?,
                       _ defaultRegion: UnsafePointer<CChar>?,
                       _ results: UnsafeMutablePointer<smskit_check_result>?) -> Int32 {
    guard count > 0 else { return handle == nil ? SMSKIT_ERR_NULL_ARGUMENT : SMSKIT_OK }
    guard let offsets, data != nil || dataLength == 0 else { return SMSKIT_ERR_NULL_ARGUMENT }
    // Validated whole before anything is written.
    var previous = offsets[0]
    guard previous >= 0 else { return SMSKIT_ERR_INVALID_ARGUMENT }
    for i in 1...count {
        let next = offsets[i]
        guard next >= previous, next <= Int64(dataLength) else { return SMSKIT_ERR_INVALID_ARGUMENT }
        previous = next
    }
    return checkMany(handle, count: count, regions: regions, defaultRegion: defaultRegion, results: results) { i in
        let start = Int(offsets[i])
        return inputBytes(data.map { $0 + start }, Int(offsets[i + 1]) - start)
    }
}

@_cdecl("smskit_check_split")
public func smskitCheckSplit(_ handle: OpaquePointer?, _ data: UnsafePointer<CChar>?, _ dataLength: Int, _ separator: CChar,
                      _ count: Int, _ regions: UnsafePointer<UnsafePointer<CChar>?>?,
                      _ defaultRegion: UnsafePointer<CChar>?,
                      _ results: UnsafeMutablePointer<smskit_check_result>?) -> Int32 {
    guard count > 0 else { return handle == nil ? SMSKIT_ERR_NULL_ARGUMENT : SMSKIT_OK }
    guard let bytes = inputBytes(data, dataLength) else { return SMSKIT_ERR_NULL_ARGUMENT }
    let separator = UInt8(bitPattern: separator)
    var separators = 0
    for byte in bytes where byte == separator { separators += 1 }
    guard separators == count - 1 else { return SMSKIT_ERR_INVALID_ARGUMENT }
    var start = 0
    return checkMany(handle, count: count, regions: regions, defaultRegion: defaultRegion, results: results) { _ in
        // Called once per input, in order.
        var end = start
        while end < bytes.count, bytes[end] != separator { end += 1 }
        defer { start = end + 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }
}

@_cdecl("smskit_join_field")
public func smskitJoinField(_ results: UnsafePointer<smskit_check_result>?, _ count: Int, _ field: Int32, _ separator: CChar,
                     _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int,
                     _ lengthOut: UnsafeMutablePointer<Int>?) -> Int32 {
    guard count == 0 || results != nil else { return SMSKIT_ERR_NULL_ARGUMENT }
    guard field == SMSKIT_FIELD_E164 || field == SMSKIT_FIELD_REGION else { return SMSKIT_ERR_INVALID_ARGUMENT }
    let offset = field == SMSKIT_FIELD_E164 ? MemoryLayout<smskit_check_result>.offset(of: \.e164)!
                                           : MemoryLayout<smskit_check_result>.offset(of: \.region)!
    let limit = field == SMSKIT_FIELD_E164 ? Int(SMSKIT_E164_CAPACITY) : 4
    func text(_ i: Int) -> UnsafeBufferPointer<UInt8> {
        let start = (UnsafeRawPointer(results! + i) + offset).assumingMemoryBound(to: UInt8.self)
        var n = 0
        while n < limit - 1, start[n] != 0 { n += 1 }
        return UnsafeBufferPointer(start: start, count: n)
    }
    var needed = 0
    for i in 0..<count { needed += text(i).count + 1 }
    guard needed < capacity, let buffer else {
        if capacity > 0, let buffer { buffer[0] = 0 }
        lengthOut?.pointee = needed + 1
        return SMSKIT_ERR_BUFFER_TOO_SMALL
    }
    var out = UnsafeMutableRawPointer(buffer)
    for i in 0..<count {
        let field = text(i)
        if field.count > 0 { out.copyMemory(from: field.baseAddress!, byteCount: field.count) }
        out.storeBytes(of: separator, toByteOffset: field.count, as: CChar.self)
        out += field.count + 1
    }
    out.storeBytes(of: 0, as: CChar.self)
    lengthOut?.pointee = needed
    return SMSKIT_OK
}
