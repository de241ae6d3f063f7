import Foundation
import PhoneVerification
import Synchronization
import SMPPCodec

/// Feeds the delivery receipts an ``SMPPClient`` receives into a verifier's store, through the same
/// API as every other report (``PhoneVerification/PhoneVerifier/applyDeliveryReport(_:)``): the
/// receipt's message ID (decimal or hex) finds the part whose `submit_sm_resp` gave it.
///
/// A receipt can overtake the verifier's recording of the IDs (the SMSC answers part 1 while part 2
/// is still being submitted): a receipt whose ID is not found yet but that the client matched to a
/// part it submitted is tried again a few times, with a bounded number held.
///
/// It reads the client's ``SMPPClient/events``, which have one reader: run one feed per client.
///
/// ```swift
/// let feed = SMPPReceiptFeed(client: client, verifier: verifier)
/// Task { await feed.run() }
/// ```
public struct SMPPReceiptFeed: Sendable {
    public let client: SMPPClient
    public let verifier: PhoneVerifier
    /// Pauses before the retries of a receipt whose ID is not recorded yet.
    public var retryDelays: [Duration] = [.milliseconds(200), .seconds(1), .seconds(5)]
    /// The most receipts waiting for a retry at once; past it, a receipt that finds nothing is dropped (and counted).
    public var maximumHeld = 1024
    /// Called with each receipt's outcome: `applied`, `duplicate`, `stale`, `unknown_message` or a store error's code.
    public var onOutcome: @Sendable (String) -> Void = { _ in }

    /// A feed from `client` into `verifier`.
    public init(client: SMPPClient, verifier: PhoneVerifier) {
        self.client = client
        self.verifier = verifier
    }

    /// Reads receipts until the client's events end (at shutdown) or the task is cancelled.
    public func run() async {
        await withTaskGroup(of: Void.self) { group in
            let held = HeldCount()
            for await event in client.events {
                guard case .receipt(let receipt, let part) = event else { continue }
                let report = receipt.deliveryReport(receivedAt: verifier.currentDate)
                if let outcome = await apply(report), outcome != "unknown_message" || part == nil {
                    onOutcome(outcome)
                    continue
                }
                guard held.take(limit: maximumHeld) else {
                    onOutcome("unknown_message")
                    continue
                }
                group.addTask { [self] in
                    defer { held.give() }
                    for delay in retryDelays {
                        try? await Task.sleep(for: delay)
                        if let outcome = await apply(report), outcome != "unknown_message" {
                            onOutcome(outcome)
                            return
                        }
                    }
                    onOutcome("unknown_message")
                }
            }
            group.cancelAll()
        }
    }

    /// The outcome of one report, or `nil` when the store failed (the caller may retry).
    private func apply(_ report: DeliveryReport) async -> String? {
        do {
            guard let result = try await verifier.applyDeliveryReport(report) else { return "unknown_message" }
            return result.transition == .changed ? "applied" : result.transition.rawValue
        } catch {
            return nil
        }
    }
}

private final class HeldCount: Sendable {
    private let count = Mutex(0)
    func take(limit: Int) -> Bool { count.withLock { if $0 >= limit { return false }; $0 += 1; return true } }
    func give() { count.withLock { $0 -= 1 } }
}
