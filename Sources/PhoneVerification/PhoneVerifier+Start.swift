import Crypto
import Foundation
import PhoneNumberCarriers
import PhoneNumbers
import SMSEncoding
import SMSTemplates

extension PhoneVerifier {
    /// Sends a code to a number (or resends it) and returns the verification ID.
    ///
    /// A second start for a number that has an open verification is a resend: same ID, a new code
    /// (or the same one, see ``VerificationConfiguration/resendCode``), allowed once the cooldown after
    /// the previous SMS has passed and within the per-number limits. A new verification is made only
    /// while the number's failure budget has room for its attempts. A registered test number gets a
    /// new verification with its fixed code each time and no SMS, within the client and number limits.
    /// A refused start stores nothing.
    ///
    /// ```swift
    /// let started = try await verifier.start(phoneNumber: "(650) 555-0100", defaultRegion: "US",
    ///                                        clientKey: request.remoteAddress)
    /// ```
    ///
    /// - Parameters:
    ///   - phoneNumber: The number as typed: E.164, international, or national with `defaultRegion`.
    ///   - defaultRegion: The region national input is dialled from.
    ///   - languageCode: The SMS language (BCP 47 or POSIX, e.g. `pt-BR`, `es_MX`); `nil` for the
    ///     language of the number's region. Unknown languages fall back as the renderer does.
    ///   - clientKey: Who asks (e.g. the client's IP address), for the per-client limit; `nil` to skip it.
    /// - Returns: The ID, the E.164 number, locale, segments, expiry and when a resend may come.
    /// - Throws: ``VerificationError``: `.invalidNumber`, `.fictionalNumber`, `.regionNotAllowed`,
    ///   `.refusedNumberType`, `.clientRateLimited`, `.numberRateLimited`, `.tooManyFailedChecks`, `.rangeBlocked`,
    ///   `.resendCooldown` (with `retryAfter`), `.invalidLanguageCode`, `.invalidClientKey`,
    ///   `.sendFailed`, `.renderFailed` or a store fault.
    ///
    /// A refusal by the guard appends a `refused` event; a start appends `started` or `resent`
    /// with its store transaction, and `sent` once the sender accepted the SMS (see
    /// ``VerificationEventStore``).
    public func start(phoneNumber: String, defaultRegion: RegionCode? = nil, languageCode: String? = nil,
                      clientKey: String? = nil) async throws(VerificationError) -> StartedVerification {
        var number: String?
        do {
            return try await startUnrecorded(phoneNumber: phoneNumber, defaultRegion: defaultRegion,
                                             languageCode: languageCode, clientKey: clientKey, e164: &number)
        } catch {
            if let number, let event = refusedEvent(error, e164: number, now: clock.now()) {
                await appendBestEffort([event])
            }
            throw error
        }
    }

    /// ``start(phoneNumber:defaultRegion:languageCode:clientKey:)`` without the `refused` event;
    /// `e164` is set as soon as the number is known.
    private func startUnrecorded(phoneNumber: String, defaultRegion: RegionCode?, languageCode: String?,
                                 clientKey: String?, e164 known: inout String?) async throws(VerificationError) -> StartedVerification {
        if let languageCode { try Self.validateLanguageCode(languageCode) }
        if let clientKey {
            guard !clientKey.isEmpty, clientKey.utf8.count <= Self.maximumClientKeyLength else {
                throw VerificationError(.invalidClientKey,
                    "the client key must have 1 to \(Self.maximumClientKeyLength) bytes, not \(clientKey.utf8.count)")
            }
        }
        guard phoneNumber.utf8.count <= Self.maximumNumberLength else {
            throw VerificationError(.invalidNumber,
                "the phone number has \(phoneNumber.utf8.count) bytes; at most \(Self.maximumNumberLength) are read")
        }
        let number: PhoneNumber
        do {
            number = try engine.parse(phoneNumber, defaultRegion: defaultRegion)
        } catch {
            throw VerificationError(.invalidNumber, "not a phone number (\(error.code.name)): \(error.message)")
        }
        let now = clock.now()
        let (region, type) = engine.classify(number)

        // Test numbers: no SMS and a fixed code, as Firebase does; limited as other numbers are,
        // so that their starts cannot fill the store.
        if let entry = testNumbers.entry(for: number) {
            known = entry.e164
            return try await startTest(entry, region: region, languageCode: languageCode, clientKey: clientKey, now: now)
        }
        let e164 = engine.formatE164(number)
        known = e164
        if engine.fictionalRange(of: number) != nil {
            throw VerificationError(.fictionalNumber,
                "\(e164) is a fictional number that is not a registered test number; no SMS is ever sent to it")
        }
        guard engine.isValid(number), let region else {
            throw VerificationError(.invalidNumber, "\(e164) is not a valid number in any region's numbering plan")
        }
        let guardConfiguration = configuration.sendGuard
        if guardConfiguration.deniedNumbers.contains(e164) {
            throw VerificationError(.numberDenied, "\(e164) is on the deny list")
        }
        // An allowed number skips the region rules, never the number's own limits.
        let isAllowed = guardConfiguration.allowedNumbers.contains(e164)
        if !isAllowed, let allowed = guardConfiguration.allowedRegions, !allowed.contains(region) {
            throw VerificationError(.regionNotAllowed, "numbers of region \(region) are not allowed")
        }
        if !isAllowed, guardConfiguration.deniedRegions.contains(region) {
            throw VerificationError(.regionNotAllowed, "numbers of region \(region) are denied")
        }
        if guardConfiguration.refusedTypes.contains(type) {
            throw VerificationError(.refusedNumberType,
                "\(e164) is a \(type.rawValue.replacingOccurrences(of: "_", with: " ")) number, which is refused")
        }
        if guardConfiguration.refusedCallingCodes.contains(number.countryCode) {
            throw VerificationError(.refusedNumberType,
                "\(e164) is on the network +\(number.countryCode), whose numbers are refused")
        }

        // One atomic store operation: limits, range block, resend claim or insertion.
        let range = isAllowed ? nil : guardConfiguration.rangeVelocity.map { Self.rangeKey(number, prefixLength: $0.prefixLength) }
        let id = _Random.id()
        let newCode = _Random.code(length: configuration.codeLength)
        var record = makeRecord(id: id, e164: e164, code: newCode, isTest: false, locale: "", now: now)
        record.rangeKey = range
        var request = limitedRequest(record, clientKey: clientKey)
        request.resendCooldown = configuration.resendCooldown
        if let budget = guardConfiguration.failedCheckLimit {
            request.failureBudget = WindowLimit(key: WindowLimit.failureKey(e164: e164), limit: budget.count,
                                                window: budget.window)
        }
        if let range, let velocity = guardConfiguration.rangeVelocity {
            request.range = RangeRule(range: range, threshold: velocity.threshold, window: velocity.window,
                                      minimumSuccessBasisPoints: Int((velocity.minimumSuccessRatio * 10_000).rounded()),
                                      block: velocity.blockDuration, monitor: velocity.monitor)
        }
        if let conversion = configuration.conversion {
            let keys = conversionKeys(number, region: region, tracking: conversion)
            request.sentKeys = keys.map { $0.counterKey(.sent) }
            request.sentWindow = conversion.window
            if !isAllowed {
                for (hold, dimension) in [(guardConfiguration.rangeHold, ConversionDimension.range),
                                          (guardConfiguration.regionHold, .region)] {
                    guard let hold, let key = keys.first(where: { $0.dimension == dimension }) else { continue }
                    request.holds.append(hold.rule(key, window: conversion.window))
                }
            }
        }
        if !isAllowed, let caps = guardConfiguration.regionCaps, let limit = caps.limit(for: region) {
            request.regionCap = WindowLimit(key: "rc:" + region.identifier, limit: limit, window: RegionCaps.window)
            request.regionCapMonitor = caps.monitor
        }
        // The first SMS is rendered before the store is touched, so that the start records its
        // message in its own transaction (a report that comes before the send returns finds it).
        let first = try prepare(record, code: newCode, region: region, languageCode: languageCode, now: now)
        request.message = first.message
        var outcome = try await withStore { [store, request] in try await store.start(request) }
        var monitored: [String] = []
        if case .monitored(let rules, let inner) = outcome {
            monitored = rules
            outcome = inner
        }
        let notes = Notes(region: region, monitored: monitored)
        switch outcome {
        case .created:
            return try await deliver(record, first, recorded: true, now: now, isResend: false, notes: notes)
        case .resend(let open):
            // Same ID; the same code when configured and recoverable, else a new one.
            var resent: String?
            if configuration.resendCode == .sameCode, let sealed = open.sealedCode {
                resent = secret.open(sealed: sealed, id: open.id)
            }
            if let resent {
                let prepared = try await prepareOrClose(open, code: resent, region: region, languageCode: languageCode,
                                                        now: now)
                return try await deliver(open, prepared, recorded: false, now: now, isResend: true, notes: notes)
            }
            let code = _Random.code(length: configuration.codeLength)
            let digest = secret.digest(id: open.id, code: code)
            let sealed = configuration.resendCode == .sameCode ? secret.seal(code: code, id: open.id) : nil
            let replaced = try await withStore { [store, secret] in
                try await store.replaceCode(id: open.id, digest: digest, sealedCode: sealed, keyID: secret.keyID, now: now)
            }
            guard replaced else {
                throw VerificationError(.resendCooldown,
                    "the verification for \(e164) was used or expired while its code was resent; start again",
                    retryAfter: now)
            }
            let prepared = try await prepareOrClose(open, code: code, region: region, languageCode: languageCode, now: now)
            return try await deliver(open, prepared, recorded: false, now: now, isResend: true, notes: notes)
        case .clientLimited, .numberLimited, .failureLimited:
            throw refusal(outcome, e164: e164)
        case .rangeBlocked(let until, let newly):
            throw VerificationError(.rangeBlocked,
                newly ? "the number range of \(e164) is now blocked: many codes were sent into it and few were checked"
                      : "the number range of \(e164) is blocked: many codes were sent into it and few were checked",
                retryAfter: until)
        case .cooldown(let until):
            throw VerificationError(.resendCooldown,
                "a code was sent to \(e164) less than \(configuration.resendCooldown) ago", retryAfter: until)
        case .regionCapped(let retryAt):
            throw VerificationError(.regionCapped,
                "region \(region) took its cap of \(guardConfiguration.regionCaps?.limit(for: region) ?? 0) SMS per 24 h",
                retryAfter: retryAt)
        case .held(let key, let until, _):
            let what = key.hasPrefix("r:") ? "region \(region)" : "the number range of \(e164)"
            throw VerificationError(.conversionHold,
                "\(what) is held: too few of the codes sent into it were approved or delivered", retryAfter: until)
        case .monitored:
            throw VerificationError(.storeUnavailable, "the store answered an unexpected outcome")
        }
    }

    /// What a start reports besides its verification.
    private struct Notes {
        var region: RegionCode?
        var monitored: [String]
    }

    /// The region, range and carrier (when the metadata names one) a number's conversion is counted under.
    func conversionKeys(_ number: PhoneNumber, region: RegionCode?, tracking: ConversionTracking) -> [ConversionKey] {
        var keys = [ConversionKey(.region, (region ?? .unknown).identifier),
                    ConversionKey(.range, Self.rangeKey(number, prefixLength: tracking.rangePrefixLength))]
        if let carrier = engine.carrierName(of: number, locale: .english) {
            keys.append(ConversionKey(.carrier, carrier.text))
        }
        return keys
    }

    /// A start request for `record` with the client limit and the number limits.
    private func limitedRequest(_ record: VerificationRecord, clientKey: String?) -> StartRequest {
        let guardConfiguration = configuration.sendGuard
        var request = StartRequest(record: record)
        if let clientKey, let limit = guardConfiguration.clientLimit {
            request.clientLimit = WindowLimit(key: "c:" + Self.fingerprint(clientKey), limit: limit.count, window: limit.window)
        }
        if let limit = guardConfiguration.numberLimit {
            request.numberLimit = WindowLimit(key: "n:" + record.e164, limit: limit.count, window: limit.window)
        }
        if let limit = guardConfiguration.dailyNumberLimit {
            request.dailyNumberLimit = WindowLimit(key: "d:" + record.e164, limit: limit.count, window: limit.window)
        }
        return request
    }

    /// The error for a limit's refusal of a start.
    private func refusal(_ outcome: StartOutcome, e164: String) -> VerificationError {
        let guardConfiguration = configuration.sendGuard
        switch outcome {
        case .clientLimited(let retryAt):
            return VerificationError(.clientRateLimited,
                "this client started \(guardConfiguration.clientLimit?.count ?? 0) verifications in the window",
                retryAfter: retryAt)
        case .numberLimited(let retryAt):
            let limits = [guardConfiguration.numberLimit, guardConfiguration.dailyNumberLimit].compactMap { $0 }
                .map { "\($0.count) per \(Self.spoken($0.window))" }.joined(separator: " and ")
            return VerificationError(.numberRateLimited,
                "too many codes were sent to \(e164) recently (at most \(limits))", retryAfter: retryAt)
        case .failureLimited(let retryAt):
            let budget = guardConfiguration.failedCheckLimit
            return VerificationError(.tooManyFailedChecks,
                "\(e164) had too many failed checks (at most \(budget?.count ?? 0) per \(Self.spoken(budget?.window ?? .zero))); "
                    + "no new verification for it until the window passes", retryAfter: retryAt)
        default:
            return VerificationError(.storeUnavailable, "the store answered an unexpected outcome")
        }
    }

    private func startTest(_ entry: TestNumberRegistry.Entry, region: RegionCode?, languageCode: String?,
                           clientKey: String?, now: Date) async throws(VerificationError) -> StartedVerification {
        let locale = renderer.resolveLocale(languageCode ?? defaultLanguage(forRegion: region) ?? "").locale
        let record = makeRecord(id: _Random.id(), e164: entry.e164, code: entry.code, isTest: true, locale: locale, now: now)
        let request = limitedRequest(record, clientKey: clientKey)
        let outcome = try await withStore { [store] in try await store.start(request) }
        guard outcome == .created else { throw refusal(outcome, e164: entry.e164) }
        return StartedVerification(id: record.id, e164: record.e164, locale: locale, segments: 0,
                                   expiresAt: record.expiresAt, resendAllowedAt: now, isTest: true, isResend: false,
                                   region: region?.identifier)
    }

    private func makeRecord(id: String, e164: String, code: String, isTest: Bool, locale: String,
                            now: Date) -> VerificationRecord {
        VerificationRecord(
            id: id, e164: e164, digest: secret.digest(id: id, code: code), keyID: secret.keyID,
            sealedCode: configuration.resendCode == .sameCode && !isTest ? secret.seal(code: code, id: id) : nil,
            locale: locale, isTest: isTest, createdAt: now,
            expiresAt: now.addingTimeInterval(configuration.lifetime.timeInterval), attempts: 0,
            maxAttempts: configuration.maxAttempts, sendCount: 1, lastSentAt: now, state: .open)
    }

    /// An SMS rendered for a verification, with the message a store records before it is sent.
    private struct PreparedSMS {
        var rendered: RenderedMessage
        var token: String
        var message: DeliveryMessage
    }

    /// Renders the SMS of `record` with `code` and makes its message (a new token; the store keeps
    /// only its digest, and the token travels only to the sender).
    private func prepare(_ record: VerificationRecord, code: String, region: RegionCode, languageCode: String?,
                         now: Date) throws(VerificationError) -> PreparedSMS {
        let requested = languageCode ?? defaultLanguage(forRegion: region) ?? ""
        let rendered: RenderedMessage
        do {
            rendered = try renderer.render(configuration.message, locale: requested, code: code,
                                           appName: configuration.appName,
                                           minutes: Int(configuration.lifetime.components.seconds / 60))
        } catch {
            throw VerificationError(.renderFailed, "the SMS could not be rendered: \(error.message)")
        }
        let token = DeliveryMessage.makeToken()
        let message = DeliveryMessage(token: token, verificationID: record.id, sequence: record.sendCount,
                                      partCount: rendered.encoding?.parts.count ?? 0, createdAt: now,
                                      locale: rendered.locale)
        return PreparedSMS(rendered: rendered, token: token, message: message)
    }

    /// ``prepare(_:code:region:languageCode:now:)`` for a verification the store holds: closed when
    /// its SMS cannot be rendered, so its code is never usable unsent.
    private func prepareOrClose(_ record: VerificationRecord, code: String, region: RegionCode, languageCode: String?,
                                now: Date) async throws(VerificationError) -> PreparedSMS {
        do {
            return try prepare(record, code: code, region: region, languageCode: languageCode, now: now)
        } catch {
            try? await withStore { [store] in try await store.close(id: record.id) }
            throw error
        }
    }

    /// Records the message (unless the start did) and sends the SMS; on any failure closes the
    /// verification so its code is never usable unsent.
    private func deliver(_ record: VerificationRecord, _ prepared: PreparedSMS, recorded: Bool, now: Date,
                         isResend: Bool, notes: Notes) async throws(VerificationError) -> StartedVerification {
        let (rendered, token, message) = (prepared.rendered, prepared.token, prepared.message)
        let analysis = rendered.encoding
        let parts = analysis?.parts ?? []
        // The message is stored before the send, so that a report that comes before the sender
        // returns finds it.
        if !recorded {
            do {
                try await withStore { [store] in try await store.recordMessage(message) }
            } catch {
                try? await withStore { [store] in try await store.close(id: record.id) }
                throw error
            }
        }
        let sms = OutgoingSMS(
            to: record.e164, text: analysis?.text ?? rendered.text, encoding: analysis?.encoding ?? .ucs2,
            parts: parts, locale: rendered.locale, verificationID: record.id, deliveryToken: token)
        let submitted: SubmittedSMS
        do {
            submitted = try await sender.submit(sms)
        } catch {
            try? await withStore { [store] in try await store.close(id: record.id) }
            for part in message.parts {
                _ = try? await withStore { [store, clock] in
                    try await store.applyDeliveryReport(DeliveryReport(
                        target: .token(digest: message.tokenDigest, part: part.number), state: .failed,
                        errorCode: "send_failed", receivedAt: clock.now()))
                }
            }
            throw VerificationError(.sendFailed,
                "the SMS to \(record.e164) was not sent; the verification was closed, start again")
        }
        await appendBestEffort([VerificationEvent(verificationID: record.id, kind: .sent, time: clock.now(),
                                                  details: .init(segments: rendered.segmentCount))])
        // The SMS centre took the parts it gave IDs for; a receipt that came first stays final.
        for (index, id) in submitted.providerMessageIDs.prefix(message.parts.count).enumerated() {
            guard let id else { continue }
            _ = try? await withStore { [store, clock] in
                try await store.applyDeliveryReport(DeliveryReport(
                    target: .token(digest: message.tokenDigest, part: index + 1), state: .accepted,
                    providerMessageID: id, receivedAt: clock.now()))
            }
        }
        return StartedVerification(
            id: record.id, e164: record.e164, locale: rendered.locale, segments: rendered.segmentCount,
            expiresAt: record.expiresAt,
            resendAllowedAt: now.addingTimeInterval(configuration.resendCooldown.timeInterval),
            isTest: false, isResend: isResend, region: notes.region?.identifier, monitored: notes.monitored)
    }

    /// A window's length as a person says it: `24 h`, `10 min`, `45 s`.
    static func spoken(_ duration: Duration) -> String {
        let seconds = duration.components.seconds
        if seconds >= 3600, seconds % 3600 == 0 { return "\(seconds / 3600) h" }
        if seconds >= 60, seconds % 60 == 0 { return "\(seconds / 60) min" }
        return "\(seconds) s"
    }

    /// The range a number falls in: its calling code and the first digits of its national number.
    static func rangeKey(_ number: PhoneNumber, prefixLength: Int) -> String {
        let national = number.nationalSignificantNumber
        let length = min(prefixLength, max(1, national.utf8.count - 2))
        return "\(number.countryCode):" + national.prefix(length)
    }

    /// A short, non-reversible key for a client key (IP addresses are personal data).
    static func fingerprint(_ clientKey: String) -> String {
        VerificationSecret.hex(SHA256.hash(data: Array(clientKey.utf8)).prefix(12))
    }

    /// Refuses language codes no locale tag looks like: too long, or with characters outside
    /// letters, digits, `-`, `_`, `@`, `=`, `;` and `.`.
    static func validateLanguageCode(_ code: String) throws(VerificationError) {
        guard code.utf8.count <= maximumLanguageCodeLength else {
            throw VerificationError(.invalidLanguageCode,
                "the language code has \(code.utf8.count) bytes; at most \(maximumLanguageCodeLength)")
        }
        for byte in code.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "@"),
                 UInt8(ascii: "="), UInt8(ascii: ";"), UInt8(ascii: "."):
                continue
            default:
                throw VerificationError(.invalidLanguageCode,
                    "the language code holds a character that no locale tag has (only letters, digits and - _ @ = ; .)")
            }
        }
    }
}
