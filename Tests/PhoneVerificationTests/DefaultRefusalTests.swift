import Foundation
import PhoneNumbers
import PhoneVerification
import Testing

@Suite("PhoneVerifier: default refusals of personal numbers and the satellite and international networks")
struct DefaultRefusalTests {
    let clock = ManualClock()
    let sender = RecordingSender()

    /// A valid number of each refused calling code: the metadata's example number.
    static func example(_ code: Int) throws -> String {
        let engine = PhoneNumberEngine()
        let number = try #require(engine.exampleNumber(forNonGeographicCallingCode: code), "no example for +\(code)")
        #expect(engine.isValid(number))
        return engine.formatE164(number)
    }

    @Test("the defaults name personal numbers and +870, +881, +882, +883")
    func defaults() {
        #expect(SendGuard.defaultRefusedTypes.contains(.personalNumber))
        #expect(SendGuard.defaultRefusedCallingCodes == [870, 881, 882, 883])
        #expect(SendGuard().refusedCallingCodes == SendGuard.defaultRefusedCallingCodes)
    }

    @Test("a number of each network is refused by default, sending nothing", arguments: [870, 881, 882, 883])
    func refusedByDefault(code: Int) async throws {
        let number = try Self.example(code)
        let verifier = try makeVerifier(sender: sender, clock: clock)
        let error = await caught { try await verifier.start(phoneNumber: number) }
        #expect(error?.code == .refusedNumberType)
        #expect(error?.message.contains("+\(code)") == true)
        #expect(sender.messages.isEmpty)
    }

    @Test("each network is sent to when configured", arguments: [870, 881, 882, 883])
    func allowedWhenConfigured(code: Int) async throws {
        let number = try Self.example(code)
        let verifier = try makeVerifier(sender: sender, clock: clock) {
            $0.sendGuard.refusedCallingCodes.remove(code)
            // Whatever type the metadata gives the example, only the calling code is under test.
            $0.sendGuard.refusedTypes = []
        }
        let started = try await verifier.start(phoneNumber: number)
        #expect(started.e164 == number)
        #expect(sender.messages.count == 1)
    }

    @Test("UK personal numbers (+44 70) are refused by default and sent to when configured")
    func personalNumbers() async throws {
        let engine = PhoneNumberEngine()
        let number = "+447012345678"
        #expect(engine.type(of: try engine.parse(number, defaultRegion: nil)) == .personalNumber)
        let strict = try makeVerifier(sender: sender, clock: clock)
        #expect(await caught { try await strict.start(phoneNumber: number) }?.code == .refusedNumberType)
        #expect(sender.messages.isEmpty)
        let open = try makeVerifier(sender: sender, clock: clock) { $0.sendGuard.refusedTypes.remove(.personalNumber) }
        _ = try await open.start(phoneNumber: number)
        #expect(sender.messages.count == 1)
    }

    @Test("a refused calling code is refused in every spelling of the number", arguments: [882, 883])
    func spellings(code: Int) async throws {
        let e164 = try Self.example(code)
        let digits = e164.dropFirst()
        let verifier = try makeVerifier(sender: sender, clock: clock)
        for text in ["00" + digits, "+" + digits.prefix(3) + " " + digits.dropFirst(3), "tel:" + e164, "011 " + digits] {
            let error = await caught { try await verifier.start(phoneNumber: text, defaultRegion: "US") }
            #expect(error?.code == .refusedNumberType || error?.code == .invalidNumber, "\(text)")
        }
        #expect(sender.messages.isEmpty)
    }
}
