import Foundation
import PhoneNumbers

extension PhoneVerifier {
    /// Checks a code against a verification ID.
    ///
    /// Counting the attempt, comparing HMAC-SHA256(secret, id ‖ code) with the stored digest,
    /// approving and counting the approval for the range detector are one atomic store operation
    /// (one round trip to a database), so concurrent checks never get more than
    /// ``VerificationConfiguration/maxAttempts`` tries between them and only one approval. Every
    /// store compares the digests in constant time (PostgreSQL in its check function, over every
    /// byte with no early exit). An ID that is not 22 URL-safe characters is
    /// `notFound` without touching the store.
    ///
    /// ```swift
    /// switch try await verifier.check(id: id, code: "042917") {
    /// case .approved(let e164): signIn(e164)
    /// case .incorrectCode(let left): ask(again: left)
    /// default: restart()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - id: The verification ID from ``start(phoneNumber:defaultRegion:languageCode:clientKey:)``.
    ///   - code: The code as typed: 4 to 10 ASCII digits.
    /// - Returns: The verdict.
    /// - Throws: ``VerificationError`` `.malformedCode` (letters, non-ASCII digits, wrong length: no
    ///   attempt counted) or a store fault (nothing approved).
    public func check(id: String, code: String) async throws(VerificationError) -> CheckResult {
        guard _Random.isWellFormedCode(code) else {
            throw VerificationError(.malformedCode, "a code is 4 to 10 ASCII digits 0-9")
        }
        guard _Random.isWellFormedID(id) else { return .notFound }
        let now = clock.now()
        var request = CheckRequest(id: id, digest: secret.digest(id: id, code: code), keyID: secret.keyID, now: now,
                                   approvalWindow: configuration.sendGuard.rangeVelocity?.window,
                                   failureWindow: configuration.sendGuard.failedCheckLimit?.window)
        // The approval is counted in the conversion statistics in the check's own transaction.
        request.conversion = conversionCounting(now: now)
        let outcome = try await withStore { [store, request] in try await store.check(request) }
        switch outcome {
        case .approved(let e164): return .approved(e164: e164)
        case .incorrect(let left): return .incorrectCode(attemptsLeft: left)
        case .notFound: return .notFound
        case .expired, .closed, .secretChanged: return .expired
        case .tooManyAttempts: return .tooManyAttempts
        case .alreadyUsed: return .alreadyUsed
        }
    }
}
