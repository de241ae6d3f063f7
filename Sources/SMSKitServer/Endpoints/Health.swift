import Hummingbird
import SMSKitJSON

/// `GET /healthz` (the process answers) and `GET /readyz` (and its verification store, if any,
/// passes its readiness probe within 3 seconds; otherwise 503).
enum Health {
    static func live(_ request: Request, _ context: SMSKitRequestContext, _ state: ServerState) async throws -> Response {
        .json(.object([("status", .string("ok"))]))
    }

    static func ready(_ request: Request, _ context: SMSKitRequestContext, _ state: ServerState) async throws -> Response {
        if let verifications = state.verifications, !(await verifications.isStoreReachable(timeout: .seconds(3))) {
            throw ServiceError.storeUnavailable
        }
        return .json(.object([("status", .string("ok"))]))
    }
}
