import Foundation
import MetricsTestKit
import PhoneVerification
@testable import PhoneVerificationKannel
import SMSEncoding
import Testing

@Suite("KannelSender: configuration, requests and faults (no Kannel needed)")
struct KannelSenderTests {
    static func sms(_ text: String, encoder: SMSEncoder = SMSEncoder()) -> OutgoingSMS {
        let analysis = encoder.analyze(text)
        return OutgoingSMS(to: "+447400123456", text: analysis.text, encoding: analysis.encoding,
                           parts: analysis.parts, locale: "en", verificationID: "v1")
    }

    @Test("the URL gives host, port, path, credentials and extra parameters; the password is never shown")
    func configuration() throws {
        let configuration = try KannelSender.Configuration(
            url: "http://smskit:s%40cret@127.0.0.1:13113/cgi-bin/sendsms?from=Acme&dlr-mask=31")
        #expect(configuration.host == "127.0.0.1" && configuration.port == 13113)
        #expect(configuration.path == "/cgi-bin/sendsms")
        #expect(configuration.username == "smskit" && configuration.password == "s@cret")
        #expect(configuration.parameters.map(\.name) == ["from", "dlr-mask"])
        #expect(configuration.redactedURL == "http://smskit:***@127.0.0.1:13113/cgi-bin/sendsms?from=Acme&dlr-mask=31")
        #expect(!"\(configuration)".contains("s@cret"))
        let fromEnvironment = try KannelSender.Configuration(url: "http://127.0.0.1", username: "u", password: "p")
        #expect(fromEnvironment.port == 13013 && fromEnvironment.path == "/cgi-bin/sendsms" && fromEnvironment.password == "p")
    }

    @Test("unusable URLs are typed configuration errors without the password", arguments: [
        "https://u:topsecret@127.0.0.1:13013/cgi-bin/sendsms",
        "http://127.0.0.1:13013/cgi-bin/sendsms",
        "http://u:topsecret@127.0.0.1:13013/cgi-bin/sendsms?text=hi",
        "http://u:topsecret@127.0.0.1:13013/cgi-bin/sendsms?Password=x",
        "http://u:topsecret@:13013/",
        "not a url at all",
    ])
    func invalidConfiguration(url: String) {
        let error = #expect(throws: KannelError.self) { try KannelSender.Configuration(url: url) }
        #expect(error?.code == .invalidConfiguration)
        #expect(error.map { !$0.description.contains("topsecret") } == true)
    }

    @Test("one request per part: UCS-2 bytes with coding=2 and SMSKit's header; GSM text with coding=0")
    func requests() throws {
        let configuration = try KannelSender.Configuration(url: "http://u:p+q@127.0.0.1:13013/cgi-bin/sendsms?from=A%20B")
        let long = Self.sms(String(repeating: "ş", count: 80))
        let targets = try KannelSender.requestTargets(for: long, configuration: configuration)
        #expect(targets.count == 2)
        let udh = long.parts[0].userDataHeader.map { "%" + String($0, radix: 16, uppercase: true).leftPadded }.joined()
        #expect(targets[0].hasPrefix("/cgi-bin/sendsms?username=u&password=p%2Bq&to=%2B447400123456&text=%01_%01_"))
        #expect(targets[0].contains("&coding=2&udh=\(udh)&from=A%20B"))
        #expect(!targets[0].contains("charset"))
        let short = try KannelSender.requestTargets(for: Self.sms("Code 1+1 {x}"), configuration: configuration)
        #expect(short == ["/cgi-bin/sendsms?username=u&password=p%2Bq&to=%2B447400123456&text=Code%201%2B1%20%7Bx%7D&coding=0&charset=UTF-8&from=A%20B"])
    }

    @Test("what sendsms cannot carry exactly is refused before anything is sent")
    func unsupported() throws {
        let configuration = try KannelSender.Configuration(url: "http://u:p@127.0.0.1:9/")
        let turkish = SMSEncoder(options: .init(nationalLanguageTables: .only([.turkish])))
        let national = Self.sms("Doğrulama kodunuz: 123456. Şimdi girin, çünkü süre kısa.", encoder: turkish)
        #expect(national.encoding == .gsm7)
        let error = #expect(throws: KannelError.self) { try KannelSender.requestTargets(for: national, configuration: configuration) }
        #expect(error?.code == .unsupportedMessage)
        var empty = Self.sms("x")
        empty.parts = []
        #expect(throws: KannelError.self) { try KannelSender.requestTargets(for: empty, configuration: configuration) }
    }

    static func configuration(port: Int) throws -> KannelSender.Configuration {
        var configuration = try KannelSender.Configuration(url: "http://u:secretpw@127.0.0.1:\(port)/cgi-bin/sendsms")
        configuration.initialBackoff = .milliseconds(10)
        configuration.responseTimeout = .seconds(20)
        return configuration
    }

    @Test("503 is retried with backoff and then succeeds")
    func unavailableThenAccepted() async throws {
        let server = try ScriptedHTTPServer([.status(503, "busy"), .status(503, "busy"), .status(202, "0: Accepted for delivery")])
        defer { server.stop() }
        let metrics = TestMetrics()
        try await KannelSender(configuration: Self.configuration(port: server.port), metricsFactory: metrics).send(Self.sms("hi"))
        #expect(server.requests.count == 3)
        #expect(try metrics.expectCounter("smskit_kannel_retries_total", [("reason", "unavailable")]).totalValue == 2)
        #expect(try metrics.expectCounter("smskit_kannel_sms_total", [("result", "sent")]).totalValue == 1)
    }

    @Test("503 on every attempt, 500, 4xx and silence: typed errors, retried only for 503", arguments: [
        ([ScriptedHTTPServer.Answer.status(503, "busy")], KannelError.Code.unavailable, 3),
        ([.status(500, "boom")], .serverError, 1),
        ([.status(403, "Authorization failed for sendsms")], .rejected, 1),
        ([.silence], .timedOut, 1),
    ] as [([ScriptedHTTPServer.Answer], KannelError.Code, Int)])
    func faults(script: [ScriptedHTTPServer.Answer], code: KannelError.Code, requests: Int) async throws {
        let server = try ScriptedHTTPServer(script)
        defer { server.stop() }
        let metrics = TestMetrics()
        let sender = KannelSender(configuration: try Self.configuration(port: server.port), metricsFactory: metrics)
        let error = await #expect(throws: KannelError.self) { try await sender.send(Self.sms("hi")) }
        #expect(error?.code == code)
        #expect(error.map { !$0.description.contains("secretpw") } == true)
        #expect(server.requests.count == requests)
        #expect(server.requests.allSatisfy { $0.hasPrefix("GET /cgi-bin/sendsms?") })
        #expect(try metrics.expectCounter("smskit_kannel_failures_total", [("reason", code.name)]).totalValue == 1)
        #expect(try metrics.expectCounter("smskit_kannel_sms_total", [("result", "failed")]).totalValue == 1)
    }

    @Test("a multipart SMS that fails midway says how many parts smsbox took")
    func partial() async throws {
        let server = try ScriptedHTTPServer([.status(202, "0: Accepted for delivery"), .status(400, "bad")])
        defer { server.stop() }
        let sender = KannelSender(configuration: try Self.configuration(port: server.port))
        let error = await #expect(throws: KannelError.self) {
            try await sender.send(Self.sms(String(repeating: "ş", count: 150)))
        }
        #expect(error?.code == .rejected && error?.acceptedParts == 1 && error?.partCount == 3)
    }
}

extension String {
    fileprivate var leftPadded: String { count == 1 ? "0" + self : self }
}
