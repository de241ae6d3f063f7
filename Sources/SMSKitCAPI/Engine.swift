// libsmskit's engine handle, versions and the helpers every C entry point shares.
//
// The C declarations live in Sources/CSMSKit/include/smskit.h (the contract); each `@_cdecl`
// function here implements one of them. Nothing Swift crosses the boundary: handles are opaque
// pointers, results are the header's plain structs, errors are Int32 codes.
//
// Every `@_cdecl` function is `public`: an internal one is dropped from a release build (whole-
// module optimization sees no Swift caller), and the library would lack the symbol.

import CSMSKit
import PhoneNumbers
import SMSEncoding
import SMSTemplates

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What one `smskit_engine *` points to: immutable after `init`, so sharing it between threads
/// needs no lock (the template renderer's caches lock themselves).
final class CAPIEngine: Sendable {
    let numbers: PhoneNumberEngine
    let encoder: SMSEncoder
    let renderer: SMSTemplateRenderer

    init?() {
        numbers = PhoneNumberEngine()
        encoder = SMSEncoder()
        guard let renderer = try? SMSTemplateRenderer(encoder: encoder) else { return nil }
        self.renderer = renderer
    }

    /// Calls `body` with the engine behind a C handle, without reference counting: the handle
    /// keeps the engine alive until `smskit_engine_free`, which the contract forbids during a call.
    @inline(__always)
    static func with<R>(_ handle: OpaquePointer?, _ body: (CAPIEngine) -> R) -> R? {
        guard let handle else { return nil }
        return Unmanaged<CAPIEngine>.fromOpaque(UnsafeRawPointer(handle))._withUnsafeGuaranteedRef(body)
    }
}

@_cdecl("smskit_engine_create")
public func smskitEngineCreate() -> OpaquePointer? {
    guard let engine = CAPIEngine() else { return nil }
    return OpaquePointer(Unmanaged.passRetained(engine).toOpaque())
}

@_cdecl("smskit_engine_free")
public func smskitEngineFree(_ handle: OpaquePointer?) {
    guard let handle else { return }
    Unmanaged<CAPIEngine>.fromOpaque(UnsafeRawPointer(handle)).release()
}

/// The metadata version as a C string: made once (Swift globals are initialized once, thread
/// safely), never freed, never written after.
nonisolated(unsafe) private let metadataVersionCString: UnsafeMutablePointer<CChar>? =
    strdup(PhoneNumberEngine.metadataVersion)

@_cdecl("smskit_metadata_version")
public func smskitMetadataVersion() -> UnsafePointer<CChar>? {
    UnsafePointer(metadataVersionCString)
}

// MARK: - Shared helpers

/// Longest C string argument read (languages, codes, app names, message IDs, regions): longer
/// ones are refused without reading past this many bytes.
let maxCStringBytes = 4096

enum CString {
    /// The bytes of a NUL-terminated argument, at most `maxCStringBytes`; nil when longer.
    static func bytes(_ pointer: UnsafePointer<CChar>) -> UnsafeBufferPointer<UInt8>? {
        let count = strnlen(pointer, maxCStringBytes + 1)
        guard count <= maxCStringBytes else { return nil }
        return UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: count)
    }

    /// A NUL-terminated argument as a String: `.failure` with the status when too long or not UTF-8.
    static func string(_ pointer: UnsafePointer<CChar>?) -> Result<String, CAPIStatus> {
        guard let pointer else { return .failure(CAPIStatus(SMSKIT_ERR_NULL_ARGUMENT)) }
        guard let bytes = bytes(pointer) else { return .failure(CAPIStatus(SMSKIT_ERR_INPUT_TOO_LONG)) }
        guard let text = String(validating: bytes, as: UTF8.self) else { return .failure(CAPIStatus(SMSKIT_ERR_INVALID_UTF8)) }
        return .success(text)
    }
}

/// A status code as an Error, for `Result`.
struct CAPIStatus: Error {
    let code: Int32
    init(_ code: Int32) { self.code = code }
}

/// A (pointer, length) input as bytes: empty for (NULL, 0), nil for NULL with a length.
@inline(__always)
func inputBytes(_ pointer: UnsafePointer<CChar>?, _ length: Int) -> UnsafeBufferPointer<UInt8>? {
    guard let pointer else { return length == 0 ? UnsafeBufferPointer(start: nil, count: 0) : nil }
    return UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: length)
}

/// Copies `text` and a NUL into a caller's buffer, or reports the size needed (header CONTRACT).
func writeOutput(_ text: UnsafeBufferPointer<UInt8>, to buffer: UnsafeMutablePointer<CChar>?, capacity: Int,
                 length lengthOut: UnsafeMutablePointer<Int>?) -> Int32 {
    guard text.count < capacity, let buffer else {
        if capacity > 0, let buffer { buffer[0] = 0 }
        lengthOut?.pointee = text.count + 1
        return SMSKIT_ERR_BUFFER_TOO_SMALL
    }
    if let base = text.baseAddress { UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: text.count) }
    buffer[text.count] = 0
    lengthOut?.pointee = text.count
    return SMSKIT_OK
}

func writeOutput(_ text: String, to buffer: UnsafeMutablePointer<CChar>?, capacity: Int,
                 length: UnsafeMutablePointer<Int>?) -> Int32 {
    var text = text
    return text.withUTF8 { writeOutput($0, to: buffer, capacity: capacity, length: length) }
}
