import Foundation

extension VerificationStore {
    // Stores written before delivery reports keep compiling; they answer that they keep none.

    /// Throws: this store keeps no delivery reports.
    public func recordMessage(_ message: DeliveryMessage) async throws {
        throw VerificationStoreError(.unavailable, "this store keeps no delivery reports")
    }

    /// Throws: this store keeps no delivery reports.
    public func applyDeliveryReport(_ report: DeliveryReport, counting: ConversionCounting?) async throws
        -> DeliveryReportResult? {
        throw VerificationStoreError(.unavailable, "this store keeps no delivery reports")
    }

    /// Applies a delivery report and counts nothing in the conversion statistics.
    public func applyDeliveryReport(_ report: DeliveryReport) async throws -> DeliveryReportResult? {
        try await applyDeliveryReport(report, counting: nil)
    }

    /// Throws: this store cannot look verifications up.
    public func status(id: String) async throws -> VerificationStatus? {
        throw VerificationStoreError(.unavailable, "this store cannot look verifications up")
    }

    /// Throws: this store cannot cancel verifications.
    public func cancel(id: String, now: Date) async throws -> CancelOutcome {
        throw VerificationStoreError(.unavailable, "this store cannot cancel verifications")
    }
}
