import Foundation
import PhoneVerification
@testable import SMSKitServer
import Testing

/// The background sweep a server with verifications runs.
@Suite("SMSKitServer: verification sweep")
struct VerificationSweepTests {
    @Test("The server runs a sweep service that deletes verifications past the retention")
    func sweepService() async throws {
        let fixture = try VerificationFixture {
            $0.store = OpenedVerificationStore(store: InMemoryVerificationStore())
            $0.verifier.retention = .zero
            $0.sweepInterval = .milliseconds(20)
        }
        let endpoints = try #require(fixture.server.state.verifications)
        let sweeper = try #require(endpoints.services.compactMap { $0 as? VerificationSweepService }.first)
        let store = try #require(endpoints.verifier.store as? InMemoryVerificationStore)
        _ = try await endpoints.verifier.start(phoneNumber: "+447400123456")
        #expect(store.count == 1)
        fixture.clock.advance(by: .seconds(3 * 86_400))
        let running = Task { try await sweeper.run() }
        var waited = 0
        while store.count > 0, waited < 500 {
            try await Task.sleep(for: .milliseconds(10))
            waited += 1
        }
        running.cancel()
        _ = try? await running.value
        #expect(store.count == 0)
    }
}
