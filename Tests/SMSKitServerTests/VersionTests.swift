import CSMSKit
import Foundation
@testable import SMSKitServer
import Testing

/// SMSKit's version has one home, the C API's `SMSKIT_VERSION` (Sources/CSMSKit/include/smskit.h),
/// which `smskit --version`, `smskit-service --version` and `smskit_version()` read. The documents
/// that cannot read it, the OpenAPI document and the Python package's metadata, must spell the
/// same version, or a release would describe itself two ways.
@Suite("One product version")
struct VersionTests {
    static let version = SMSKIT_VERSION
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The value of the first line of `text` that starts with `prefix`, up to the end of the line.
    static func value(after prefix: String, in text: String) throws -> String {
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix(prefix) })
        return String(line.dropFirst(prefix.count))
    }

    @Test("the OpenAPI document's info.version is SMSKIT_VERSION")
    func openAPI() throws {
        #expect(try Self.value(after: "  version: ", in: OpenAPIDocument.text) == Self.version)
    }

    @Test("the Python package's version is SMSKIT_VERSION")
    func python() throws {
        let pyproject = try String(contentsOf: Self.root.appendingPathComponent("bindings/python/pyproject.toml"), encoding: .utf8)
        #expect(try Self.value(after: "version = ", in: pyproject) == "\"\(Self.version)\"")
        let module = try String(contentsOf: Self.root.appendingPathComponent("bindings/python/src/smskit/__init__.py"), encoding: .utf8)
        #expect(try Self.value(after: "__version__ = ", in: module) == "\"\(Self.version)\"")
    }

    @Test("smskit_version() of the library is SMSKIT_VERSION")
    func cAPI() {
        #expect(String(cString: smskit_version()) == Self.version)
    }
}
