import Foundation
import PhoneVerification
import Testing

@Suite struct WebhookSignatureTests {
    let signer = try! WebhookSignature(secret: Array("whsec-0123456789abcdef".utf8))
    let body = Array(#"{"id":"AAAAAAAAAAAAAAAAAAAAAA.1","kind":"approved"}"#.utf8)
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func headerHasTimestampAndHexMAC() throws {
        let header = signer.header(body: body, timestamp: now)
        #expect(header.hasPrefix("t=1800000000,v1="))
        #expect(header.utf8.count == "t=1800000000,v1=".utf8.count + 64)
        try signer.verify(header: header, body: body, now: now)
    }

    /// The MAC is over `<t>.<body>` exactly as an independent HMAC computes it: the vector was made
    /// with Python's `hmac.new(b"whsec-0123456789abcdef", b"1800000000." + body, hashlib.sha256)`,
    /// which is what the receiver in docs/webhooks.md runs.
    @Test func macMatchesAnIndependentComputation() {
        #expect(signer.signature(body: body, timestamp: 1_800_000_000)
            == "a9857f0ecdee83bb92fda5539d3749e47ffa250f268d3254d74a43de019169de")
    }

    @Test func tamperedBodyIsAMismatch() {
        let header = signer.header(body: body, timestamp: now)
        var tampered = body
        tampered[tampered.count - 3] ^= 0x01
        #expect(throws: WebhookSignature.VerificationFailure(reason: .mismatch)) {
            try signer.verify(header: header, body: tampered, now: now)
        }
    }

    @Test func tamperedSignatureOrTimestampIsAMismatch() {
        let header = signer.header(body: body, timestamp: now)
        var flipped = Array(header.utf8)
        flipped[flipped.count - 1] = flipped[flipped.count - 1] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
        #expect(throws: WebhookSignature.VerificationFailure(reason: .mismatch)) {
            try signer.verify(header: String(decoding: flipped, as: UTF8.self), body: body, now: now)
        }
        // A replayed signature under a fresh timestamp does not match: the time is in the MAC.
        let moved = header.replacingOccurrences(of: "t=1800000000", with: "t=1800000100")
        #expect(throws: WebhookSignature.VerificationFailure(reason: .mismatch)) {
            try signer.verify(header: moved, body: body, now: now)
        }
    }

    @Test func otherSecretIsAMismatch() throws {
        let other = try WebhookSignature(secret: Array("whsec-another-secret-0000".utf8))
        #expect(throws: WebhookSignature.VerificationFailure(reason: .mismatch)) {
            try other.verify(header: signer.header(body: body, timestamp: now), body: body, now: now)
        }
    }

    @Test func replayOutsideTheToleranceIsRefused() throws {
        let header = signer.header(body: body, timestamp: now)
        try signer.verify(header: header, body: body, now: now.addingTimeInterval(299))
        #expect(throws: WebhookSignature.VerificationFailure(reason: .outsideTolerance)) {
            try signer.verify(header: header, body: body, now: now.addingTimeInterval(301))
        }
        #expect(throws: WebhookSignature.VerificationFailure(reason: .outsideTolerance)) {
            try signer.verify(header: header, body: body, now: now.addingTimeInterval(-301))
        }
    }

    @Test(arguments: ["", "v1=00", "t=abc,v1=" + String(repeating: "0", count: 64), "t=1800000000",
                      "t=1800000000,v1=" + String(repeating: "0", count: 63), "t=1,t=2,v1=" + String(repeating: "0", count: 64),
                      "garbage", String(repeating: "t=1,", count: 400)])
    func malformedHeadersAreTyped(header: String) {
        #expect(throws: WebhookSignature.VerificationFailure(reason: .malformedHeader)) {
            try signer.verify(header: header, body: body, now: now)
        }
    }

    @Test func laterSchemesAreIgnoredAndAnyV1MayMatch() throws {
        let header = signer.header(body: body, timestamp: now)
        let rotated = header.replacingOccurrences(of: ",v1=", with: ",v0=zz,v1=" + String(repeating: "a", count: 64) + ",v1=")
        try signer.verify(header: rotated, body: body, now: now)
    }

    @Test func shortSecretsAreRefused() {
        #expect(throws: VerificationError.self) { try WebhookSignature(secret: Array("short".utf8)) }
    }
}
