import Foundation
import PhoneNumbers
import PhoneVerification
import Testing

@Suite("PhoneVerifier: send guard, test numbers and bad input")
struct GuardTests {
    let clock = ManualClock()
    let sender = RecordingSender()

    struct TypeCase: Sendable, CustomTestStringConvertible {
        var number: String
        var type: PhoneNumberType
        var refused: Bool
        var testDescription: String { "\(number) \(type.rawValue)" }
    }

    // libphonenumber's example numbers for these types (metadata 9.0.43).
    static let typeCases: [TypeCase] = [
        TypeCase(number: "+19002345678", type: .premiumRate, refused: true),
        TypeCase(number: "+33810123456", type: .sharedCost, refused: true),
        TypeCase(number: "+448431234567", type: .premiumRate, refused: true),
        TypeCase(number: "+445512345678", type: .uan, refused: true),
        TypeCase(number: "+447640123456", type: .pager, refused: true),
        TypeCase(number: "+18002345678", type: .tollFree, refused: true),
        TypeCase(number: "+445612345678", type: .voip, refused: false),
        TypeCase(number: "+447012345678", type: .personalNumber, refused: true),
        TypeCase(number: "+447400123456", type: .mobile, refused: false),
    ]

    @Test("number types that cannot take an SMS or cost extra are refused", arguments: typeCases)
    func types(_ testCase: TypeCase) async throws {
        let engine = PhoneNumberEngine()
        #expect(engine.type(of: try engine.parse(testCase.number, defaultRegion: nil)) == testCase.type)
        let verifier = try makeVerifier(sender: sender, clock: clock)
        let error = await caught { try await verifier.start(phoneNumber: testCase.number) }
        #expect((error?.code == .refusedNumberType) == testCase.refused)
        #expect(error == nil || error?.code == .refusedNumberType)
        #expect(sender.messages.count == (testCase.refused ? 0 : 1))
    }

    @Test("toll free and VoIP are configurable")
    func configurableTypes() async throws {
        let verifier = try makeVerifier(sender: sender, clock: clock) {
            $0.sendGuard.refusedTypes.remove(.tollFree)
            $0.sendGuard.refusedTypes.insert(.voip)
        }
        _ = try await verifier.start(phoneNumber: "+18002345678")
        #expect(await caught { try await verifier.start(phoneNumber: "+445612345678") }?.code == .refusedNumberType)
    }

    @Test("allowed and denied regions")
    func regions() async throws {
        let allowOnlyUS = try makeVerifier(sender: sender, clock: clock) { $0.sendGuard.allowedRegions = ["US"] }
        _ = try await allowOnlyUS.start(phoneNumber: Numbers.us)
        #expect(await caught { try await allowOnlyUS.start(phoneNumber: Numbers.brazil) }?.code == .regionNotAllowed)
        let denyBrazil = try makeVerifier(sender: sender, clock: clock) { $0.sendGuard.deniedRegions = ["BR"] }
        #expect(await caught { try await denyBrazil.start(phoneNumber: Numbers.brazil) }?.code == .regionNotAllowed)
        _ = try await denyBrazil.start(phoneNumber: Numbers.germany)
    }

    @Test("many starts into one range with no approvals block it; other ranges go on; the block lifts")
    func pumping() async throws {
        let verifier = try makeVerifier(sender: sender, clock: clock) {
            $0.sendGuard.rangeVelocity = RangeVelocity(prefixLength: 6, threshold: 5, window: .seconds(600),
                                                       minimumSuccessRatio: 0.2, blockDuration: .seconds(1800))
        }
        for index in 0..<5 { _ = try await verifier.start(phoneNumber: "+1650253010\(index)") }
        let blocked = await caught { try await verifier.start(phoneNumber: "+16502530105") }
        #expect(blocked?.code == .rangeBlocked)
        #expect(blocked?.retryAfter == clock.now.addingTimeInterval(1800))
        #expect(await caught { try await verifier.start(phoneNumber: "+16502539999") }?.code == .rangeBlocked)
        #expect(sender.messages.count == 5)
        _ = try await verifier.start(phoneNumber: "+12127360100")
        clock.advance(by: .seconds(1801))
        _ = try await verifier.start(phoneNumber: "+16502530106")
    }

    @Test("a range whose codes are checked stays open")
    func pumpingWithApprovals() async throws {
        let verifier = try makeVerifier(sender: sender, clock: clock) {
            $0.sendGuard.rangeVelocity = RangeVelocity(prefixLength: 6, threshold: 5, window: .seconds(600),
                                                       minimumSuccessRatio: 0.2, blockDuration: .seconds(1800))
        }
        for index in 0..<12 {
            let started = try await verifier.start(phoneNumber: "+165025302\(String(format: "%02d", index))")
            if index % 2 == 0 {
                let code = try #require(sender.lastCode(to: started.e164))
                #expect(try await verifier.check(id: started.id, code: code).isApproved)
            }
        }
    }

    @Test("per client key limit; hostile client keys are refused")
    func clientLimit() async throws {
        let verifier = try makeVerifier(sender: sender, clock: clock) {
            $0.sendGuard.clientLimit = RateLimit(count: 3, window: .seconds(60))
        }
        for index in 0..<3 { _ = try await verifier.start(phoneNumber: "+1212736000\(index)", clientKey: "203.0.113.9") }
        let limited = await caught { try await verifier.start(phoneNumber: "+12127360009", clientKey: "203.0.113.9") }
        #expect(limited?.code == .clientRateLimited)
        // Sliding: 3 hits in this minute weigh 3 × (1 − e/60 s) in the next; the 4th fits at e = 20 s.
        #expect(limited?.retryAfter == clock.now.addingTimeInterval(80))
        _ = try await verifier.start(phoneNumber: "+12127360009", clientKey: "198.51.100.7")
        #expect(await caught { try await verifier.start(phoneNumber: Numbers.us, clientKey: "") }?.code == .invalidClientKey)
        #expect(await caught {
            try await verifier.start(phoneNumber: Numbers.us, clientKey: String(repeating: "x", count: 10_000))
        }?.code == .invalidClientKey)
    }

    @Test("test numbers: no SMS, fixed code, limited as other numbers; unregistered fictional numbers are never sent to")
    func testNumbers() async throws {
        var registry = try TestNumberRegistry()
        try registry.add("+1 650-555-0100", code: "123456")
        let verifier = try makeVerifier(sender: sender, clock: clock, testNumbers: registry) {
            $0.sendGuard.clientLimit = RateLimit(count: 1, window: .seconds(60))
        }
        for index in 0..<5 {
            let started = try await verifier.start(phoneNumber: "(650) 555-0100", defaultRegion: "US", clientKey: "k\(index)")
            #expect(started.isTest && started.segments == 0 && started.e164 == "+16505550100")
            #expect(try await verifier.check(id: started.id, code: "654321") == .incorrectCode(attemptsLeft: 4))
            #expect(try await verifier.check(id: started.id, code: "123456") == .approved(e164: "+16505550100"))
            let again = await caught { try await verifier.start(phoneNumber: "+16505550100", clientKey: "k\(index)") }
            // The number limit is read before the client limit is counted (a refusal writes nothing).
            #expect(again?.code == (index < 4 ? .clientRateLimited : .numberRateLimited))
        }
        let limited = await caught { try await verifier.start(phoneNumber: "+16505550100", clientKey: "k9") }
        #expect(limited?.code == .numberRateLimited && limited?.retryAfter != nil)
        #expect(sender.messages.isEmpty)
        let error = await caught { try await verifier.start(phoneNumber: Numbers.fictionalUS) }
        #expect(error?.code == .fictionalNumber)
        #expect(await caught { try await verifier.start(phoneNumber: "+447700900123") }?.code == .fictionalNumber)
        #expect(sender.messages.isEmpty)
    }

    struct BadNumber: Sendable, CustomTestStringConvertible {
        var text: String
        var testDescription: String { String(text.prefix(24)).debugDescription }
    }

    static let badNumbers: [BadNumber] = [
        "", "hello", "+", "+999 123", "+1 650", "++++++", "\u{0}\u{1}\u{2}", "+1 650 253 0000 0000 0000 0000", "\u{202E}\u{202E}",
        String(repeating: "9", count: 100_000), "+1 000 000 0000", "💥📞",
    ].map { BadNumber(text: $0) }

    @Test("garbage numbers are refused with the engine's reason", arguments: badNumbers)
    func garbageNumbers(_ bad: BadNumber) async throws {
        let verifier = try makeVerifier(sender: sender, clock: clock)
        let error = await caught { try await verifier.start(phoneNumber: bad.text, defaultRegion: "US") }
        #expect(error?.code == .invalidNumber)
        #expect(sender.messages.isEmpty)
    }

    @Test("hostile language codes are refused; unknown ones fall back",
          arguments: ["../../etc/passwd", "en\u{0}", String(repeating: "a", count: 65), "<script>", "en US", "ру"])
    func hostileLanguages(_ code: String) async throws {
        let verifier = try makeVerifier(sender: sender, clock: clock)
        #expect(await caught { try await verifier.start(phoneNumber: Numbers.us, languageCode: code) }?.code
                    == .invalidLanguageCode)
        #expect(sender.messages.isEmpty)
    }

    @Test("unknown language codes fall back to a catalog the renderer has", arguments: ["zz", "qaa-Qaaa-QM", "x-klingon"])
    func unknownLanguages(_ code: String) async throws {
        let verifier = try makeVerifier(sender: sender, clock: clock)
        let started = try await verifier.start(phoneNumber: Numbers.us, languageCode: code)
        #expect(started.locale != code && !started.locale.isEmpty)
        #expect(sender.messages.count == 1 && sender.lastCode(to: Numbers.us)?.utf8.count == 6)
    }

    @Test("malformed codes are refused without counting; odd IDs are not found",
          arguments: ["12a456", "١٢٣٤٥٦", "１２３４５６", "123", "12345678901", "", " 123456", "123456\n"])
    func malformedCodes(_ code: String) async throws {
        let verifier = try makeVerifier(sender: sender, clock: clock)
        let started = try await verifier.start(phoneNumber: Numbers.us)
        #expect(await caught { try await verifier.check(id: started.id, code: code) }?.code == .malformedCode)
        let right = try #require(sender.lastCode(to: started.e164))
        let wrong = right == "000000" ? "000001" : "000000"
        #expect(try await verifier.check(id: started.id, code: wrong) == .incorrectCode(attemptsLeft: 4))
    }

    @Test("IDs of another length or alphabet, or huge, are not found",
          arguments: ["", "short", String(repeating: "A", count: 21), String(repeating: "A", count: 23),
                      String(repeating: "A", count: 1_000_000), "AAAAAAAAAAAAAAAAAAAA+/", "AAAAAAAAAAAAAAAAAAAA==",
                      "ÅAAAAAAAAAAAAAAAAAAAAA", "AAAAAAAAAAAAAAAAAAAAA\u{0}"])
    func oddIDs(_ id: String) async throws {
        let verifier = try makeVerifier(sender: sender, clock: clock)
        #expect(try await verifier.check(id: id, code: "123456") == .notFound)
    }

    @Test("configuration out of range is refused", arguments: [3, 11, 0, -1])
    func configuration(_ length: Int) async throws {
        #expect(throws: VerificationError.self) { try makeVerifier(sender: sender, clock: clock) { $0.codeLength = length } }
        #expect(throws: VerificationError.self) { try VerificationSecret(Array("too short".utf8)) }
    }
}
