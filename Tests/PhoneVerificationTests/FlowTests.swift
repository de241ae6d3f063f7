import Foundation
import PhoneNumbers
import PhoneVerification
import Testing

@Suite("PhoneVerifier: start and check")
struct FlowTests {
    let clock = ManualClock()
    let sender = RecordingSender()

    @Test("start sends a 6-digit code; the right code is approved once")
    func startAndCheck() async throws {
        let verifier = try makeVerifier(sender: sender, clock: clock)
        let started = try await verifier.start(phoneNumber: Numbers.us)
        #expect(started.e164 == "+16502530000")
        #expect(started.id.utf8.count == 22)
        #expect(started.locale == "en")
        #expect(started.segments == 1)
        #expect(!started.isTest && !started.isResend)
        #expect(started.expiresAt == clock.now.addingTimeInterval(600))
        #expect(started.resendAllowedAt == clock.now.addingTimeInterval(30))
        let sms = try #require(sender.messages.last)
        #expect(sms.to == "+16502530000" && sms.encoding == .gsm7 && sms.parts.count == 1)
        let code = try #require(sender.lastCode(to: started.e164))
        #expect(code.utf8.count == 6)
        #expect(try await verifier.check(id: started.id, code: code) == .approved(e164: "+16502530000"))
        #expect(try await verifier.check(id: started.id, code: code) == .alreadyUsed)
    }

    @Test("national input with a default region; the language follows the number's region")
    func regionLanguage() async throws {
        let verifier = try makeVerifier(sender: sender, clock: clock)
        let us = try await verifier.start(phoneNumber: Numbers.usNational, defaultRegion: "US")
        #expect(us.e164 == "+16502530001")
        let brazil = try await verifier.start(phoneNumber: Numbers.brazil)
        #expect(brazil.locale == "pt-BR")
        #expect(sender.messages.last?.locale == "pt-BR")
        let asked = try await verifier.start(phoneNumber: Numbers.germany, languageCode: "fr")
        #expect(asked.locale == "fr")
        let unknown = try await verifier.start(phoneNumber: "+16502530002", languageCode: "xx-YY")
        #expect(unknown.locale == "en")
    }

    @Test("codes have the configured length, keep leading zeros, and differ", arguments: [4, 6, 8, 10])
    func codeLength(length: Int) async throws {
        let verifier = try makeVerifier(sender: sender, clock: clock) {
            $0.codeLength = length
            $0.sendGuard.numberLimit = nil
            $0.sendGuard.rangeVelocity = nil
            $0.resendCooldown = .zero
        }
        var codes = Set<String>()
        for index in 0..<40 {
            let number = "+165025300\(String(format: "%02d", index))"
            let started = try await verifier.start(phoneNumber: number)
            let code = try #require(sender.lastCode(to: started.e164))
            #expect(code.utf8.count == length)
            codes.insert(code)
        }
        #expect(codes.count >= 35)  // 40 draws from 10^4 or more: collisions are rare
    }

    @Test("IDs are 22 URL-safe characters and unique")
    func ids() async throws {
        let verifier = try makeVerifier(sender: sender, clock: clock) {
            $0.sendGuard.numberLimit = nil
            $0.sendGuard.rangeVelocity = nil
        }
        var ids = Set<String>()
        for index in 0..<50 {
            let started = try await verifier.start(phoneNumber: "+165025301\(String(format: "%02d", index))")
            #expect(started.id.utf8.allSatisfy { byte in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            })
            ids.insert(started.id)
        }
        #expect(ids.count == 50)
    }

    @Test("wrong codes count down per verification; then too many attempts, even for the right code")
    func attempts() async throws {
        let verifier = try makeVerifier(sender: sender, clock: clock)
        let started = try await verifier.start(phoneNumber: Numbers.us)
        let code = try #require(sender.lastCode(to: started.e164))
        let wrong = code == "000000" ? "000001" : "000000"
        for left in stride(from: 4, through: 0, by: -1) {
            #expect(try await verifier.check(id: started.id, code: wrong) == .incorrectCode(attemptsLeft: left))
        }
        #expect(try await verifier.check(id: started.id, code: code) == .tooManyAttempts)
        // Attempts are per verification: the same number can start again and succeed.
        clock.advance(by: .seconds(31))
        let again = try await verifier.start(phoneNumber: Numbers.us)
        #expect(again.id != started.id)
        let newCode = try #require(sender.lastCode(to: again.e164))
        #expect(try await verifier.check(id: again.id, code: newCode) == .approved(e164: Numbers.us))
    }

    @Test("a code expires after its lifetime")
    func expiry() async throws {
        let verifier = try makeVerifier(sender: sender, clock: clock)
        let started = try await verifier.start(phoneNumber: Numbers.us)
        let code = try #require(sender.lastCode(to: started.e164))
        clock.advance(by: .seconds(600))
        #expect(try await verifier.check(id: started.id, code: code) == .expired)
    }

    @Test("resend: cooldown, same ID, new code replaces the old one, at most 5 SMS per sliding 10 minutes")
    func resend() async throws {
        let verifier = try makeVerifier(sender: sender, clock: clock)
        let first = try await verifier.start(phoneNumber: Numbers.us)
        let firstCode = try #require(sender.lastCode(to: first.e164))
        let early = await caught { try await verifier.start(phoneNumber: Numbers.us) }
        #expect(early?.code == .resendCooldown)
        #expect(early?.retryAfter == clock.now.addingTimeInterval(30))
        clock.advance(by: .seconds(30))
        let second = try await verifier.start(phoneNumber: Numbers.us)
        #expect(second.id == first.id && second.isResend)
        #expect(sender.messages.count == 2)
        for _ in 0..<3 {
            clock.advance(by: .seconds(30))
            _ = try await verifier.start(phoneNumber: Numbers.us)
        }
        clock.advance(by: .seconds(30))
        let limited = await caught { try await verifier.start(phoneNumber: Numbers.us) }
        #expect(limited?.code == .numberRateLimited)
        // A sliding window: the 5 SMS of this 10-minute bucket still weigh 5 × (1 − elapsed/10 min)
        // in the next one; a 6th fits when that drops to 4, 2 minutes into it.
        #expect(limited?.retryAfter == first.expiresAt.addingTimeInterval(120))
        let latest = try #require(sender.lastCode(to: first.e164))
        if latest != firstCode {
            #expect(try await verifier.check(id: first.id, code: firstCode) == .incorrectCode(attemptsLeft: 4))
        }
        #expect(try await verifier.check(id: first.id, code: latest) == .approved(e164: Numbers.us))
    }

    @Test("resend can send the same code (sealed in the store)")
    func resendSameCode() async throws {
        let verifier = try makeVerifier(sender: sender, clock: clock) { $0.resendCode = .sameCode }
        let first = try await verifier.start(phoneNumber: Numbers.us)
        let code = try #require(sender.lastCode(to: first.e164))
        clock.advance(by: .seconds(45))
        let second = try await verifier.start(phoneNumber: Numbers.us)
        #expect(second.id == first.id)
        #expect(sender.lastCode(to: first.e164) == code)
        #expect(try await verifier.check(id: first.id, code: code) == .approved(e164: Numbers.us))
    }

    @Test("rotating the secret closes open verifications cleanly")
    func secretRotation() async throws {
        let store = InMemoryVerificationStore()
        let old = try makeVerifier(store: store, sender: sender, clock: clock)
        let started = try await old.start(phoneNumber: Numbers.us)
        let code = try #require(sender.lastCode(to: started.e164))
        let rotated = try makeVerifier(store: store, sender: sender, clock: clock, secret: otherSecret)
        #expect(try await rotated.check(id: started.id, code: code) == .expired)
        #expect(try await old.check(id: started.id, code: code) == .expired)  // closed for good
        // A new start under the new secret is a new verification, not a resend of the old one.
        let fresh = try await rotated.start(phoneNumber: Numbers.us)
        #expect(fresh.id != started.id && !fresh.isResend)
        let freshCode = try #require(sender.lastCode(to: fresh.e164))
        #expect(try await rotated.check(id: fresh.id, code: freshCode) == .approved(e164: Numbers.us))
    }

    @Test("the store keeps only a digest of the code")
    func noCodeAtRest() async throws {
        let store = InMemoryVerificationStore()
        let verifier = try makeVerifier(store: store, sender: sender, clock: clock)
        let started = try await verifier.start(phoneNumber: Numbers.us)
        let code = try #require(sender.lastCode(to: started.e164))
        let record = try #require(store.record(id: started.id))
        #expect(record.digest.count == 32)
        #expect(record.sealedCode == nil)
        let mirror = String(describing: record)
        #expect(!mirror.contains(code))
    }
}
