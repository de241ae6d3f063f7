import Foundation
import MetricsTestKit
import PhoneVerification
import PhoneVerificationKannel
import SMSEncoding
import Synchronization
import Testing

/// Forwards to a ``KannelSender`` and keeps what PhoneVerifier handed it, to compare with what
/// the fake SMSC received.
final class RecordingSender: SMSSender {
    let inner: KannelSender
    private let sent = Mutex<[OutgoingSMS]>([])
    init(_ inner: KannelSender) { self.inner = inner }
    var messages: [OutgoingSMS] { sent.withLock { $0 } }
    func send(_ sms: OutgoingSMS) async throws {
        sent.withLock { $0.append(sms) }
        try await inner.send(sms)
    }
}

let testSecret = try! VerificationSecret(Array("kannel-test-secret-0123456789abcdef-0123456789".utf8))

@Suite("Kannel: PhoneVerifier → smsbox → bearerbox → fakesmsc on loopback",
       .enabled(if: KannelPrograms.shouldRun, KannelPrograms.skipMessage))
struct KannelDeliveryTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var number: String
        var language: String
        var appName: String
        var encoding: SMSCharacterEncoding
        var testDescription: String { "\(language) \(number)" }
    }

    /// 63 characters (the renderer takes at most 64); in GSM 7-bit each is escaped, so 126 septets.
    static let longName = String(repeating: "{€}", count: 21)
    static let cases: [Case] = [
        Case(number: "+905321234567", language: "tr", appName: "Acme", encoding: .ucs2),
        Case(number: "+966501234567", language: "ar", appName: "Acme", encoding: .ucs2),
        Case(number: "+447400123456", language: "en", appName: "Acme", encoding: .gsm7),
        Case(number: "+905321234568", language: "tr", appName: longName, encoding: .ucs2),
        Case(number: "+966501234568", language: "ar", appName: longName, encoding: .ucs2),
        Case(number: "+447400123457", language: "en", appName: longName, encoding: .gsm7),
    ]

    @Test("Turkish, Arabic and English codes arrive with SMSKit's text, coding, headers and segment count")
    func threeLanguages() async throws {
        try await KannelStack.run { stack in
            let metrics = TestMetrics()
            let sender = RecordingSender(KannelSender(configuration: try Self.patient(stack.url), metricsFactory: metrics))
            var expectedParts = 0
            for item in Self.cases {
                var configuration = VerificationConfiguration(appName: item.appName)
                configuration.message = .verificationCodeWithExpiry
                let verifier = try PhoneVerifier(store: InMemoryVerificationStore(), sender: sender, secret: testSecret,
                                                 configuration: configuration)
                let started = try await verifier.start(phoneNumber: item.number, languageCode: item.language)
                let sms = try #require(sender.messages.last)
                #expect(sms.to == item.number && sms.encoding == item.encoding, "\(item)")
                #expect(started.segments == sms.parts.count)
                if item.appName == Self.longName {
                    #expect(started.segments > 1, "the long app name makes a multipart SMS: \(item)")
                }

                let received = try await stack.waitForParts(to: item.number, count: started.segments)
                try #require(received.count == started.segments, "fakesmsc received \(received.count) parts, SMSKit counted \(started.segments): \(item)")
                var text = ""
                for (part, sent) in zip(received, sms.parts) {
                    #expect(part.from == "SMSKit")
                    #expect(part.udh == sent.userDataHeader, "the part's header is SMSKit's: \(item)")
                    let decoded = try #require(decode(part, as: item.encoding), "a part is not valid \(item.encoding): \(item)")
                    #expect(decoded == sent.text)
                    text += decoded
                }
                #expect(text == sms.text, "\(item)")
                if started.segments > 1 {
                    let references = Set(received.map { Array($0.udh.prefix(4)) })
                    #expect(references.count == 1, "one concatenation reference for all parts")
                    #expect(received.map { Int($0.udh[4]) } == Array(repeating: started.segments, count: started.segments))
                    #expect(received.map { Int($0.udh[5]) } == Array(1...started.segments))
                }
                try await waitForCodings(stack, to: item.number, count: started.segments)
                #expect(stack.codings(to: item.number)
                        == Array(repeating: item.encoding == .gsm7 ? 0 : 2, count: started.segments), "\(item)")

                let sentCode = try #require(code(in: text), "no code in what fakesmsc received: \(item)")
                #expect(try await verifier.check(id: started.id, code: sentCode) == .approved(e164: item.number))
                expectedParts += started.segments
            }
            #expect(try metrics.expectCounter("smskit_kannel_sms_total", [("result", "sent")]).totalValue == Int64(Self.cases.count))
            let parts = try metrics.expectCounter("smskit_kannel_parts_total", [("encoding", "ucs2")]).totalValue
                + metrics.expectCounter("smskit_kannel_parts_total", [("encoding", "gsm7")]).totalValue
            #expect(parts == Int64(expectedParts))
        }
    }

    @Test("an emoji and an escaped GSM character at a part boundary arrive whole, in SMSKit's parts")
    func boundaries() async throws {
        try await KannelStack.run { stack in
            let sender = KannelSender(configuration: try Self.patient(stack.url))
            let texts = [
                // 66 UCS-2 units, then a surrogate pair: Kannel's own splitting would cut it in two.
                ("+447400123460", String(repeating: "ş", count: 66) + "😀" + String(repeating: "b", count: 10)),
                // 152 septets, then € (two septets, escape first): it goes whole into the second part.
                ("+447400123461", String(repeating: "a", count: 152) + "€" + String(repeating: "b", count: 10)),
            ]
            for (to, text) in texts {
                let analysis = SMSEncoder().analyze(text)
                #expect(analysis.segmentCount == 2)
                try await sender.send(OutgoingSMS(to: to, text: analysis.text, encoding: analysis.encoding,
                                                  parts: analysis.parts, locale: "en", verificationID: "boundary"))
                let received = try await stack.waitForParts(to: to, count: analysis.segmentCount)
                #expect(received.count == analysis.segmentCount)
                let decoded = received.map { decode($0, as: analysis.encoding) }
                #expect(decoded == analysis.parts.map(\.text), "each part decodes alone to SMSKit's part")
                #expect(decoded.compactMap { $0 }.joined() == text)
            }
        }
    }

    @Test("Kannel down or refusing: a typed error, no retry where smsbox may have taken it, nothing sent")
    func kannelFailures() async throws {
        try await KannelStack.run { stack in
            let metrics = TestMetrics()
            // Wrong password: smsbox answers 403, which is not retried.
            let wrong = try KannelSender.Configuration(url: stack.url, password: "wrong")
            let rejecting = KannelSender(configuration: wrong, metricsFactory: metrics)
            let store = InMemoryVerificationStore()
            let verifier = try PhoneVerifier(store: store, sender: rejecting, secret: testSecret)
            let refused = await #expect(throws: VerificationError.self) {
                try await verifier.start(phoneNumber: "+447400123470", languageCode: "en")
            }
            #expect(refused?.code == .sendFailed)
            #expect(store.count == 1)
            // The verification is closed, its code never usable: the next start is a new one, not a resend.
            let outbox = FileManager.default.temporaryDirectory.appendingPathComponent("kannel-\(UUID().uuidString).jsonl").path
            defer { try? FileManager.default.removeItem(atPath: outbox) }
            let working = try PhoneVerifier(store: store, sender: OutboxSender(path: outbox), secret: testSecret)
            let again = try await working.start(phoneNumber: "+447400123470", languageCode: "en")
            #expect(!again.isResend, "the verification is closed: its code is never usable")
            #expect(try metrics.expectCounter("smskit_kannel_failures_total", [("reason", "rejected")]).totalValue == 1)
            #expect(throws: (any Error).self) { try metrics.expectCounter("smskit_kannel_retries_total", [("reason", "connection")]) }

            // smsbox stopped: connection refused on every attempt, retried with backoff, then a typed error.
            await stack.stop("smsbox")
            var configuration = try KannelSender.Configuration(url: stack.url)
            configuration.initialBackoff = .milliseconds(10)
            let down = KannelSender(configuration: configuration, metricsFactory: metrics)
            let error = await #expect(throws: KannelError.self) {
                try await down.send(OutgoingSMS(to: "+447400123471", text: "x", encoding: .gsm7,
                                                parts: SMSEncoder().analyze("x").parts, locale: "en", verificationID: "down"))
            }
            #expect(error?.code == .connectionFailed && error?.acceptedParts == 0)
            #expect(error.map { !$0.description.contains(stack.password) } == true)
            #expect(try metrics.expectCounter("smskit_kannel_retries_total", [("reason", "connection")]).totalValue
                    == Int64(configuration.maxAttempts - 1))
            let downVerifier = try PhoneVerifier(store: InMemoryVerificationStore(), sender: down, secret: testSecret)
            let notSent = await #expect(throws: VerificationError.self) {
                try await downVerifier.start(phoneNumber: "+447400123472", languageCode: "en")
            }
            #expect(notSent?.code == .sendFailed)
            try await Task.sleep(for: .milliseconds(300))
            #expect(stack.received().filter { $0.to.hasPrefix("+44740012347") }.isEmpty, "nothing reached the SMSC")
        }
    }

    private func waitForCodings(_ stack: KannelStack, to: String, count: Int) async throws {
        let deadline = Date().addingTimeInterval(10)
        while stack.codings(to: to).count < count, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
    }
}

extension KannelDeliveryTests {
    /// smsbox answers slowly while the whole suite loads the machine: these tests are about
    /// what arrives, not about timeouts.
    static func patient(_ url: String) throws -> KannelSender.Configuration {
        var configuration = try KannelSender.Configuration(url: url)
        configuration.responseTimeout = .seconds(60)
        return configuration
    }
}
