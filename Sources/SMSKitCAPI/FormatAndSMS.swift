// smskit_format, smskit_segments, smskit_render.

import CSMSKit
import PhoneNumbers
import SMSEncoding
import SMSTemplates

@_cdecl("smskit_format")
public func smskitFormat(_ handle: OpaquePointer?, _ input: UnsafePointer<CChar>?, _ length: Int,
                  _ defaultRegion: UnsafePointer<CChar>?, _ format: Int32, _ buffer: UnsafeMutablePointer<CChar>?,
                  _ capacity: Int, _ lengthOut: UnsafeMutablePointer<Int>?) -> Int32 {
    if capacity > 0, let buffer { buffer[0] = 0 }
    let style: PhoneNumberFormat
    switch format {
    case SMSKIT_FORMAT_E164: style = .e164
    case SMSKIT_FORMAT_INTERNATIONAL: style = .international
    case SMSKIT_FORMAT_NATIONAL: style = .national
    case SMSKIT_FORMAT_RFC3966: style = .rfc3966
    default: return SMSKIT_ERR_INVALID_ARGUMENT
    }
    guard capacity == 0 || buffer != nil else { return SMSKIT_ERR_NULL_ARGUMENT }
    return CAPIEngine.with(handle) { engine -> Int32 in
        guard let bytes = inputBytes(input, length) else { return SMSKIT_ERR_NULL_ARGUMENT }
        guard bytes.count <= Int(SMSKIT_MAX_NUMBER_BYTES) else { return SMSKIT_ERR_INPUT_TOO_LONG }
        if let problem = PhoneNumberEngine.problem(bytes) { return problem }
        guard case .region(let region) = RegionArgument(defaultRegion) else { return SMSKIT_ERR_INVALID_REGION }
        let number: PhoneNumber
        do throws(PhoneNumberError) {
            number = try engine.numbers.parse(utf8: bytes, defaultRegion: region)
        } catch {
            return PhoneNumberEngine.status(error.code)
        }
        return writeOutput(engine.numbers.format(number, as: style), to: buffer, capacity: capacity, length: lengthOut)
    } ?? SMSKIT_ERR_NULL_ARGUMENT
}

@_cdecl("smskit_segments")
public func smskitSegments(_ handle: OpaquePointer?, _ text: UnsafePointer<CChar>?, _ length: Int,
                    _ result: UnsafeMutablePointer<smskit_segments_result>?) -> Int32 {
    guard let result else { return SMSKIT_ERR_NULL_ARGUMENT }
    result.initialize(to: smskit_segments_result())
    return CAPIEngine.with(handle) { engine -> Int32 in
        guard let bytes = inputBytes(text, length) else { return SMSKIT_ERR_NULL_ARGUMENT }
        guard bytes.count <= Int(SMSKIT_MAX_TEXT_BYTES) else { return SMSKIT_ERR_INPUT_TOO_LONG }
        guard let string = String(validating: bytes, as: UTF8.self) else { return SMSKIT_ERR_INVALID_UTF8 }
        let analysis = engine.encoder.analyze(string)
        result.pointee.encoding = analysis.encoding == .gsm7 ? SMSKIT_ENCODING_GSM7 : SMSKIT_ENCODING_UCS2
        result.pointee.segments = Int32(clamping: analysis.segmentCount)
        result.pointee.units = Int64(analysis.length)
        result.pointee.remaining = Int32(clamping: analysis.remainingInLastSegment)
        result.pointee.exceeds_limit = analysis.exceedsConcatenationLimit ? 1 : 0
        return SMSKIT_OK
    } ?? SMSKIT_ERR_NULL_ARGUMENT
}

/// Longest `minutes` accepted (about 69 days).
let maxMinutes: Int32 = 100_000

@_cdecl("smskit_render")
public func smskitRender(_ handle: OpaquePointer?, _ language: UnsafePointer<CChar>?, _ code: UnsafePointer<CChar>?,
                  _ appName: UnsafePointer<CChar>?, _ minutes: Int32, _ messageID: UnsafePointer<CChar>?,
                  _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int, _ lengthOut: UnsafeMutablePointer<Int>?,
                  _ segmentsOut: UnsafeMutablePointer<Int32>?) -> Int32 {
    if capacity > 0, let buffer { buffer[0] = 0 }
    segmentsOut?.pointee = 0
    guard capacity == 0 || buffer != nil else { return SMSKIT_ERR_NULL_ARGUMENT }
    guard minutes >= -1, minutes <= maxMinutes else { return SMSKIT_ERR_INVALID_ARGUMENT }
    return CAPIEngine.with(handle) { engine -> Int32 in
        let language = CString.string(language), code = CString.string(code), appName = CString.string(appName)
        var id: MessageID = minutes < 0 ? .verificationCode : .verificationCodeWithExpiry
        do {
            if let messageID {
                guard let parsed = MessageID(rawValue: try CString.string(messageID).get()) else { return SMSKIT_ERR_UNKNOWN_MESSAGE }
                id = parsed
            }
            let rendered = try engine.renderer.render(
                id, locale: language.get(), code: code.get(), appName: appName.get(),
                minutes: minutes < 0 ? nil : Int(minutes))
            segmentsOut?.pointee = Int32(clamping: rendered.segmentCount)
            return writeOutput(rendered.text, to: buffer, capacity: capacity, length: lengthOut)
        } catch let error as CAPIStatus {
            return error.code
        } catch let error as TemplateError {
            return status(error.code)
        } catch {
            return SMSKIT_ERR_INTERNAL
        }
    } ?? SMSKIT_ERR_NULL_ARGUMENT
}

private func status(_ code: TemplateError.Code) -> Int32 {
    switch code {
    case .invalidLocale: SMSKIT_ERR_INVALID_LOCALE
    case .unknownMessage: SMSKIT_ERR_UNKNOWN_MESSAGE
    case .missingArgument: SMSKIT_ERR_MISSING_ARGUMENT
    case .invalidCode: SMSKIT_ERR_INVALID_CODE
    case .argumentTooLong: SMSKIT_ERR_ARGUMENT_TOO_LONG
    case .invalidArgument, .argumentType, .invalidOrigin, .invalidAppHash: SMSKIT_ERR_TEMPLATE_ARGUMENT
    default: SMSKIT_ERR_TEMPLATE
    }
}
