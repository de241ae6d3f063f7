import PhoneVerificationSMPP
import ServiceLifecycle

/// Runs an SMPP client beside the server: it binds when the server starts, and on graceful
/// shutdown (SIGTERM, SIGINT), after the server has drained its requests, it waits for the
/// answers still due, unbinds and closes (see ``PhoneVerificationSMPP/SMPPClient/shutdown()``).
struct SMPPSessionService: Service {
    let client: SMPPClient

    func run() async throws {
        await client.start()
        // Cancellation ends the wait as a graceful shutdown does: either way the session unbinds.
        try? await gracefulShutdown()
        await client.shutdown()
    }
}
