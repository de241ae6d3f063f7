import Foundation
import PhoneVerification
@testable import PhoneVerificationKannel
import SMSEncoding
import Testing

@Suite("Kannel delivery reports: dlr-url and report reading (no Kannel needed)")
struct KannelDeliveryReportTests {
    static let token = "AbCdEfGhIjKlMnOpQrStUv"
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("every part asks for reports with its token and number; Kannel's escapes stay for Kannel")
    func dlrURL() throws {
        var configuration = try KannelSender.Configuration(url: "http://u:p@127.0.0.1:13013/cgi-bin/sendsms?from=Acme")
        configuration.deliveryReportURL = "https://gw.example/v1/delivery-reports/kannel"
        var sms = KannelSenderTests.sms(String(repeating: "ş", count: 80))
        sms.deliveryToken = Self.token
        let targets = try KannelSender.requestTargets(for: sms, configuration: configuration)
        #expect(targets.count == 2)
        for (index, target) in targets.enumerated() {
            let expected = "https://gw.example/v1/delivery-reports/kannel?token=\(Self.token)&part=\(index + 1)"
                + "&type=%d&status=%A&smsc=%i&ts=%T"
            #expect(target.hasSuffix("&dlr-mask=27&dlr-url=" + KannelSender.Configuration.percentEncoded(expected)))
        }
        // No token (a sender used outside a verifier) or no report URL: no report asked for.
        sms.deliveryToken = nil
        #expect(try KannelSender.requestTargets(for: sms, configuration: configuration).allSatisfy { !$0.contains("dlr-") })
        configuration.deliveryReportMask = 31
        configuration.deliveryReportURL = "https://gw.example/r?x=1"
        sms.deliveryToken = Self.token
        let masked = try KannelSender.requestTargets(for: sms, configuration: configuration)
        #expect(masked[0].contains("&dlr-mask=31&dlr-url=" + KannelSender.Configuration.percentEncoded("https://gw.example/r?x=1&token=")))
    }

    @Test("a report URL that is not http(s), a mask out of range or a dlr-url of the user's own is refused", arguments: [
        ("ftp://gw.example/r", 27, "from=A"), ("https:///r", 27, "from=A"), ("https://gw.example/r", 0, "from=A"),
        ("https://gw.example/r", 32, "from=A"), ("https://gw.example/r", 27, "dlr-url=http%3A%2F%2Fx"),
        ("https://gw.example/r", 27, "dlr-mask=3"),
    ])
    func invalid(_ url: String, _ mask: Int, _ query: String) throws {
        var configuration = try KannelSender.Configuration(url: "http://u:p@127.0.0.1:13013/cgi-bin/sendsms?" + query)
        configuration.deliveryReportURL = url
        configuration.deliveryReportMask = mask
        var sms = KannelSenderTests.sms("Code 1")
        sms.deliveryToken = Self.token
        let error = #expect(throws: KannelError.self) { try KannelSender.requestTargets(for: sms, configuration: configuration) }
        #expect(error?.code == .invalidConfiguration)
    }

    struct TypeCase: Sendable {
        let type: String
        let status: String?
        let state: DeliveryState
        let error: String?
    }

    @Test("Kannel's report types and the receipt text give the state, the error code and the done date", arguments: [
        TypeCase(type: "1", status: "id:1000 sub:001 dlvrd:001 submit date:2611280910 done date:2611280911 stat:DELIVRD err:000 text:Kod",
                 state: .delivered, error: nil),
        TypeCase(type: "2", status: "id:1001 sub:001 dlvrd:000 submit date:2611280910 done date:2611280912 stat:UNDELIV err:011 text:",
                 state: .failed, error: "011"),
        TypeCase(type: "2", status: "id:1002 stat:EXPIRED err:027", state: .expired, error: "027"),
        TypeCase(type: "8", status: "ACK/", state: .accepted, error: nil),
        TypeCase(type: "4", status: nil, state: .accepted, error: nil),
        TypeCase(type: "16", status: "NACK/0x00000045/Submit failed", state: .failed, error: nil),
        TypeCase(type: "34", status: nil, state: .expired, error: nil),
        TypeCase(type: "66", status: nil, state: .unknown, error: nil),
    ])
    func types(_ test: TypeCase) throws {
        var query = [(name: "token", value: Self.token), ("part", "2"), ("type", test.type), ("smsc", "sim"), ("ts", "1800000000")]
        if let status = test.status { query.append(("status", status)) }
        let report = try KannelDeliveryReport(query: query, receivedAt: Self.t0)
        #expect(report.deliveryReport.state == test.state)
        #expect(report.deliveryReport.errorCode == test.error)
        #expect(report.deliveryReport.target == .token(digest: DeliveryMessage.digest(ofToken: Self.token), part: 2))
        if test.type == "1" {
            #expect(report.deliveryReport.providerMessageID == "1000")
            #expect(report.deliveryReport.doneAt == DeliveryReceipt.date("2611280911"))
        }
    }

    @Test("hostile reports are typed refusals", arguments: [
        ([("part", "1"), ("type", "1")], "missing_token"),
        ([("token", "short"), ("part", "1"), ("type", "1")], "malformed_token"),
        ([("token", "AbCdEfGhIjKlMnOpQrSt/v"), ("part", "1"), ("type", "1")], "malformed_token"),
        ([("token", token), ("part", "0"), ("type", "1")], "malformed_part"),
        ([("token", token), ("part", "256"), ("type", "1")], "malformed_part"),
        ([("token", token), ("part", "one"), ("type", "1")], "malformed_part"),
        ([("token", token), ("part", "1")], "unknown_type"),
        ([("token", token), ("part", "1"), ("type", "3")], "unknown_type"),
        ([("token", token), ("part", "1"), ("type", "%d")], "unknown_type"),
        ([("token", token), ("part", "1"), ("type", "1"), ("status", String(repeating: "x", count: 1025))], "oversized_field"),
    ] as [([(String, String)], String)])
    func hostile(_ query: [(String, String)], _ reason: String) {
        let error = #expect(throws: KannelDeliveryReport.Failure.self) {
            try KannelDeliveryReport(query: query.map { (name: $0.0, value: $0.1) }, receivedAt: Self.t0)
        }
        #expect(error?.reason == reason)
    }

    @Test("receipt texts with invalid dates or non-ASCII text still give what they hold")
    func oddReceipts() throws {
        let query = [(name: "token", value: Self.token), ("part", "1"), ("type", "2"),
                     ("status", "id:7 submit date:2613451299 done date:26022x3000 stat:REJECTD err:0x0b text:Doğrulama")]
        let report = try KannelDeliveryReport(query: query, receivedAt: Self.t0)
        #expect(report.deliveryReport.state == .failed && report.deliveryReport.errorCode == "0x0b")
        #expect(report.deliveryReport.doneAt == nil)
        #expect(report.receipt?.text == "Do")
    }
}

@Suite("Receipt texts")
struct DeliveryReceiptTests {
    @Test("fields by label in any order and case; dates only when they are dates")
    func fields() {
        let receipt = DeliveryReceipt(text: "ID:3E8 Stat:delivrd sub:001 dlvrd:001 submit date:2611280910 done date:261128091130 err:000 text:Your code")
        #expect(receipt.messageID == "3E8" && receipt.state == .delivered && receipt.submitted == 1 && receipt.delivered == 1)
        #expect(receipt.text == "Your code" && !receipt.hasError)
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        #expect(receipt.doneAt == utc.date(from: DateComponents(year: 2026, month: 11, day: 28, hour: 9, minute: 11, second: 30)))
        for bad in ["2613281000", "2602301000", "2611282400", "26112809", "abcdefghij", "26112809111"] {
            #expect(DeliveryReceipt.date(bad) == nil, "\(bad)")
        }
        #expect(DeliveryReceipt(text: "stat:GONE").state == nil)
        #expect(DeliveryReceipt(text: "").messageID == nil)
        #expect(DeliveryReceipt(text: "err:011 stat:UNDELIV").hasError)
        #expect(DeliveryReceipt(bytes: [0x69, 0x64, 0x3A, 0x31, 0x00, 0x73]).messageID == "1")
    }
}
