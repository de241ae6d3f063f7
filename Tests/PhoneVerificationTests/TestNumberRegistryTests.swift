import Foundation
import Testing

import PhoneNumbers
import PhoneVerification

/// The test-number registry: Firebase's rules (10 numbers, 6-digit codes, fictional numbers only).
@Suite("Test-number registry")
struct FictionalTestNumberRegistryTests {
    /// The seed registry: two numbers of NANPA's block reserved for fiction.
    static func seed() throws -> TestNumberRegistry {
        var registry = try TestNumberRegistry()
        try registry.add("+1 650-555-0134", code: "654321")
        try registry.add("+16505550167", code: "123456")
        return registry
    }

    /// The registry error `body` throws; nil when it throws nothing or another type of error.
    static func refusal(_ body: () throws -> Void) -> TestNumberRegistryError? {
        do {
            try body()
            return nil
        } catch {
            return error as? TestNumberRegistryError
        }
    }

    struct Form: CustomTestStringConvertible, Sendable {
        var text: String
        var region: RegionCode?
        var code: String
        var testDescription: String { "\(text) [\(region?.identifier ?? "no region")]" }
    }

    static let forms: [Form] = [
        Form(text: "+1 650-555-0134", region: nil, code: "654321"),
        Form(text: "+16505550134", region: nil, code: "654321"),
        Form(text: "(650) 555-0134", region: "US", code: "654321"),
        Form(text: "650.555.0134", region: "US", code: "654321"),
        Form(text: "1 650 555 0134", region: "US", code: "654321"),
        Form(text: "011 1 650 555 0134", region: "US", code: "654321"),
        Form(text: "00 1 650 555 0134", region: "GB", code: "654321"),
        Form(text: "(650) 555-0134", region: "CA", code: "654321"),
        Form(text: "tel:+1-650-555-0134", region: nil, code: "654321"),
        Form(text: "+1 (650) 555-0167", region: nil, code: "123456"),
        Form(text: "6505550167", region: "US", code: "123456"),
        Form(text: "+16505550167 ext. 9", region: nil, code: "123456"),
    ]

    @Test("every input form finds the same entry", arguments: forms)
    func lookupForms(_ form: Form) throws {
        let registry = try Self.seed()
        #expect(registry.code(for: form.text, defaultRegion: form.region) == form.code)
    }

    @Test("unknown, unparseable and other-country forms find nothing")
    func lookupMisses() throws {
        let registry = try Self.seed()
        #expect(registry.code(for: "+1 650-555-0135") == nil)
        #expect(registry.code(for: "(650) 555-0134") == nil)  // national without a region
        #expect(registry.code(for: "650 555 0134", defaultRegion: "GB") == nil)
        #expect(registry.code(for: "hello") == nil)
        #expect(registry.code(for: "") == nil)
        #expect(registry.code(for: String(repeating: "5", count: 10_000)) == nil)
    }

    @Test("entries keep the number, code, E.164 and fictional range")
    func entries() throws {
        let registry = try Self.seed()
        #expect(registry.entries.map(\.e164) == ["+16505550134", "+16505550167"])
        #expect(registry.entries.map(\.code) == ["654321", "123456"])
        #expect(registry.entries.allSatisfy { $0.fictionalRange.kind == .reservedForFiction })
        #expect(registry.capacity == 10)
    }

    @Test("a real number is refused, and the error says why")
    func realNumber() throws {
        var registry = try Self.seed()
        let error = Self.refusal { try registry.add("+1 650-253-0000", code: "111111") }
        #expect(error?.code == .notFictional)
        #expect(error?.message.contains("+16502530000") == true)
        #expect(error?.message.contains("real person") == true)
        #expect(registry.entries.count == 2)
        // 555-1212 is directory assistance: refused although it is in the 555 exchange.
        #expect(Self.refusal { try registry.add("+1 212-555-1212", code: "111111") }?.code == .notFictional)
    }

    @Test("the 11th number is refused; the capacity is configurable")
    func capacity() throws {
        var registry = try TestNumberRegistry()
        for line in 100..<110 {
            try registry.add("+1 212-555-0\(line)", code: "000000")
        }
        let error = Self.refusal { try registry.add("+1 212-555-0110", code: "000000") }
        #expect(error?.code == .full)
        #expect(error?.message.contains("10") == true)
        #expect(registry.entries.count == 10)

        var small = try TestNumberRegistry(capacity: 2)
        try small.add("+44 7700 900001", code: "123456")
        try small.add("+44 7700 900002", code: "123456")
        #expect(Self.refusal { try small.add("+44 7700 900003", code: "123456") }?.code == .full)

        var large = try TestNumberRegistry(capacity: 1_000)
        for line in 0..<1_000 {
            try large.add("+44 7700 900" + String(repeating: "0", count: 3 - String(line).count) + String(line), code: "123456")
        }
        #expect(large.code(for: "07700 900999", defaultRegion: "GB") == "123456")

        #expect(Self.refusal { _ = try TestNumberRegistry(capacity: 0) }?.code == .invalidCapacity)
        #expect(Self.refusal { _ = try TestNumberRegistry(capacity: -5) }?.code == .invalidCapacity)
        #expect(Self.refusal { _ = try TestNumberRegistry(acceptedKinds: []) }?.code == .invalidCapacity)
    }

    @Test(
        "a code must be exactly six ASCII digits",
        arguments: ["12345", "1234567", "", "12a456", "12 456", "١٢٣٤٥٦", "１２３４５６", "123456\n", String(repeating: "1", count: 500)])
    func invalidCodes(_ code: String) throws {
        var registry = try TestNumberRegistry()
        let error = Self.refusal { try registry.add("+1 650-555-0134", code: code) }
        #expect(error?.code == .invalidCode)
        #expect((error?.message.count ?? 0) < 200)
        #expect(registry.entries.isEmpty)
    }

    @Test("a number is registered once, whatever its form")
    func duplicates() throws {
        var registry = try Self.seed()
        #expect(Self.refusal { try registry.add("(650) 555-0134", code: "999999", defaultRegion: "US") }?.code == .duplicate)
        #expect(Self.refusal { try registry.add("+16505550134", code: "654321") }?.code == .duplicate)
        #expect(registry.code(for: "+16505550134") == "654321")
    }

    @Test("other refusals: unparseable text, extensions, kinds not accepted")
    func otherRefusals() throws {
        var registry = try TestNumberRegistry()
        let unparseable = Self.refusal { try registry.add("call me maybe", code: "123456") }
        #expect(unparseable?.code == .unparseable)
        #expect(Self.refusal { try registry.add("(650) 555-0134", code: "123456") }?.code == .unparseable)
        #expect(Self.refusal { try registry.add("+1 650-555-0134 ext. 12", code: "123456") }?.code == .hasExtension)

        var strict = try TestNumberRegistry(acceptedKinds: [.reservedForFiction])
        let kind = Self.refusal { try strict.add("+1 650-555-3434", code: "654321") }
        #expect(kind?.code == .kindNotAccepted)
        #expect(kind?.message.contains("nanp-555-convention") == true)
        try strict.add("+1 650-555-0123", code: "654321")
        try strict.add("07700 900123", code: "654321", defaultRegion: "GB")  // invalid for libphonenumber
        #expect(strict.entries.count == 2)
    }

    struct KindCase: CustomTestStringConvertible, Sendable {
        var number: String
        var kind: FictionalKind
        var testDescription: String { "\(number) (\(kind.rawValue))" }
    }

    /// One number of every kind that is fictional but not reserved by a regulator.
    static let unreservedKinds: [KindCase] = [
        KindCase(number: "+1 650-555-3434", kind: .nanp555Convention),   // Firebase's example
        KindCase(number: "+1 650-555-4567", kind: .nanp555Convention),   // Firebase's example
        KindCase(number: "+1 212-555-0000", kind: .nanp555Convention),
        KindCase(number: "+1 800-555-0199", kind: .reported),
        KindCase(number: "+1 888-555-1234", kind: .reported),
        KindCase(number: "+44 28 9018 0123", kind: .reported),
        KindCase(number: "+49 171 3920012", kind: .reported),
        KindCase(number: "+33 6 39 98 12 34", kind: .reported),
    ]

    @Test("by default only ranges reserved for fiction are accepted; the others when configured",
          arguments: unreservedKinds)
    func defaultKinds(_ item: KindCase) throws {
        #expect(TestNumberRegistry.defaultAcceptedKinds == [.reservedForFiction])
        let engine = PhoneNumberEngine()
        #expect(engine.fictionalRange(of: try engine.parse(item.number, defaultRegion: nil))?.kind == item.kind)
        var registry = try TestNumberRegistry()
        let error = Self.refusal { try registry.add(item.number, code: "123456") }
        #expect(error?.code == .kindNotAccepted)
        #expect(error?.message.contains(item.kind.rawValue) == true)
        let json = #"{"entries":[{"number":"\#(item.number)","code":"123456"}]}"#
        #expect(Self.refusal { _ = try TestNumberRegistry(json: Data(json.utf8)) }?.code == .kindNotAccepted)

        var open = try TestNumberRegistry(acceptedKinds: Set(FictionalKind.allCases))
        try open.add(item.number, code: "123456")
        #expect(open.code(for: item.number) == "123456")
        let configured = #"{"acceptedKinds":["\#(item.kind.rawValue)"],"entries":[{"number":"\#(item.number)","code":"123456"}]}"#
        #expect(try TestNumberRegistry(json: Data(configured.utf8)).code(for: item.number) == "123456")
    }

    @Test("the written file names the accepted kinds only when they are not the default")
    func writtenKinds() throws {
        let strict = String(decoding: try Self.seed().jsonData(), as: UTF8.self)
        #expect(!strict.contains("acceptedKinds"))
        let open = String(decoding: try TestNumberRegistry(acceptedKinds: Set(FictionalKind.allCases)).jsonData(), as: UTF8.self)
        #expect(open.contains("nanp-555-convention"))
        #expect(try TestNumberRegistry(json: Data(open.utf8)).acceptedKinds == Set(FictionalKind.allCases))
    }

    @Test("removing a number frees its place and keeps the others findable")
    func remove() throws {
        var registry = try Self.seed()
        #expect(registry.remove("(650) 555-0134", defaultRegion: "US")?.code == "654321")
        #expect(registry.remove("+16505550134") == nil)
        #expect(registry.code(for: "+16505550134") == nil)
        #expect(registry.code(for: "+16505550167") == "123456")
        try registry.add("+16505550134", code: "111222")
        #expect(registry.code(for: "+16505550134") == "111222")
    }

    @Test("JSON round trip and loading national forms with a region")
    func json() throws {
        let text = """
            {
              "capacity": 5,
              "entries": [
                { "number": "+1 650-555-0134", "code": "654321" },
                { "number": "(650) 555-0167", "region": "US", "code": "123456" },
                { "number": "07700 900123", "region": "GB", "code": "000111" }
              ]
            }
            """
        let registry = try TestNumberRegistry(json: Data(text.utf8))
        #expect(registry.capacity == 5)
        #expect(registry.code(for: "+16505550167") == "123456")
        #expect(registry.code(for: "+447700900123") == "000111")

        let written = try registry.jsonData()
        let again = try TestNumberRegistry(json: written)
        #expect(again == registry)
        let output = String(decoding: written, as: UTF8.self)
        #expect(output.contains("\"+447700900123\""))

        let decoded = try JSONDecoder().decode(TestNumberRegistry.self, from: written)
        #expect(decoded == registry)
        #expect(try JSONDecoder().decode(TestNumberRegistry.self, from: Data("{}".utf8)).entries.isEmpty)
    }

    struct BadJSON: CustomTestStringConvertible, Sendable {
        var json: String
        var code: TestNumberRegistryError.Code
        var testDescription: String { "\(code): \(json.prefix(60))" }
    }

    static let badJSON: [BadJSON] = [
        BadJSON(json: #"{"entries":[{"number":"+16505550134","code":"654321"},{"number":"+16502530000","code":"111111"}]}"#, code: .notFictional),
        BadJSON(json: #"{"entries":[{"number":"+16505550134","code":"65432"}]}"#, code: .invalidCode),
        BadJSON(json: #"{"entries":[{"number":"+16505550134","code":"654321"},{"number":"6505550134","region":"US","code":"1"}]}"#, code: .invalidCode),
        BadJSON(json: #"{"entries":[{"number":"+16505550134","code":"654321"},{"number":"650 555 0134","region":"US","code":"654321"}]}"#, code: .duplicate),
        BadJSON(json: #"{"capacity":1,"entries":[{"number":"+16505550134","code":"654321"},{"number":"+16505550167","code":"123456"}]}"#, code: .full),
        BadJSON(json: #"{"capacity":0}"#, code: .invalidCapacity),
        BadJSON(json: #"{"acceptedKinds":[]}"#, code: .invalidCapacity),
        BadJSON(json: #"{"acceptedKinds":["made-up"]}"#, code: .invalidJSON),
        BadJSON(json: #"{"entries":[{"number":"6505550134","region":"Utopia","code":"654321"}]}"#, code: .invalidJSON),
        BadJSON(json: #"{"entries":[{"number":"+16505550134","code":654321}]}"#, code: .invalidJSON),
        BadJSON(json: #"{"entries":[{"code":"654321"}]}"#, code: .invalidJSON),
        BadJSON(json: #"{"entries":"#, code: .invalidJSON),
        BadJSON(json: "", code: .invalidJSON),
        BadJSON(json: "\u{FF}\u{FE}garbage", code: .invalidJSON),
        BadJSON(json: #"[1,2,3]"#, code: .invalidJSON),
    ]

    @Test("bad JSON gives a typed error naming the problem", arguments: badJSON)
    func badJSONRefused(_ bad: BadJSON) {
        let error = Self.refusal { _ = try TestNumberRegistry(json: Data(bad.json.utf8)) }
        #expect(error?.code == bad.code, "\(error?.description ?? "no error")")
        #expect(error?.message.isEmpty == false)
    }

    @Test("a refused entry in JSON is named by its position")
    func jsonPosition() {
        let json = #"{"entries":[{"number":"+16505550134","code":"654321"},{"number":"+16502530000","code":"111111"}]}"#
        let error = Self.refusal { _ = try TestNumberRegistry(json: Data(json.utf8)) }
        #expect(error?.message.hasPrefix("entries[1]: ") == true)
    }

    @Test("loading from a file, and a missing file")
    func file() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("smskit-registry-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try Self.seed().jsonData().write(to: url)
        let loaded = try TestNumberRegistry(contentsOfFile: url.path)
        #expect(loaded == (try Self.seed()))
        let missing = Self.refusal { _ = try TestNumberRegistry(contentsOfFile: url.path + ".missing") }
        #expect(missing?.code == .unreadableFile)
    }

    @Test("reading from many tasks at once")
    func concurrentReads() async throws {
        let registry = try Self.seed()
        let codes = await withTaskGroup(of: String?.self) { group in
            for index in 0..<64 {
                group.addTask {
                    index.isMultiple(of: 2)
                        ? registry.code(for: "+1 650-555-0134") : registry.code(for: "6505550167", defaultRegion: "US")
                }
            }
            var codes: [String?] = []
            for await code in group { codes.append(code) }
            return codes
        }
        #expect(codes.filter { $0 == "654321" }.count == 32)
        #expect(codes.filter { $0 == "123456" }.count == 32)
    }
}
