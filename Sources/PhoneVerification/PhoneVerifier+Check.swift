import Foundation
import PhoneNumbers

extension PhoneVerifier {
    /// Checks a code against a verification ID.
    ///
    /// The attempt is counted against the verification before the code is compared, in one atomic
    /// store operation, so concurrent checks never get more than
    /// ``VerificationConfiguration/maxAttempts`` tries between them. The code is compared as
    /// HMAC-SHA256(secret, id ‖ code) in constant time. An ID that is not 22 URL-safe characters is
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
        let outcome = try await withStore { [store] in try await store.countAttempt(id: id, now: now) }
        let record: VerificationRecord
        switch outcome {
        case .counted(let counted): record = counted
        case .notFound: return .notFound
        case .expired, .closed: return .expired
        case .tooManyAttempts: return .tooManyAttempts
        case .alreadyUsed: return .alreadyUsed
        }
        guard record.keyID == secret.keyID else {
            // Made under another server secret: it can never match; close it cleanly.
            try await withStore { [store] in try await store.close(id: id) }
            return .expired
        }
        guard secret.matches(record.digest, id: id, code: code) else {
            return .incorrectCode(attemptsLeft: max(0, record.maxAttempts - record.attempts))
        }
        let won = try await withStore { [store] in try await store.approve(id: id, now: now) }
        guard won else { return .alreadyUsed }
        if !record.isTest, let velocity = configuration.sendGuard.rangeVelocity,
           let number = try? engine.parse(e164: record.e164) {
            // Feed the velocity detector; a failure here must not turn an approval into an error.
            let key = "ra:" + Self.rangeKey(number, prefixLength: velocity.prefixLength)
            _ = try? await withStore { [store] in
                try await store.consume(counter: key, limit: .max, window: velocity.window, now: now)
            }
        }
        return .approved(e164: record.e164)
    }
}
