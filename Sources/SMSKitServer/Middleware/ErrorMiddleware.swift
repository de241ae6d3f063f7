import HTTPTypes
import Hummingbird
import NIOHTTP1

/// Turns errors into responses with the JSON error body: a ``ServiceError`` as it says, a path
/// the router did not match as 404, or 405 with `Allow` when the path has an endpoint under
/// another method, and anything else as a 500 that says nothing internal.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = SMSKitRequestContext
    let routes: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as ServiceError {
            return error.response
        } catch let error as HTTPParserError {
            throw error
        } catch let error as HTTPError where error.status == .notFound && context.endpointPath == "NotFound" {
            return notMatched(request).response
        } catch {
            // Never the error's text: it may carry internal detail.
            context.logger.error("request failed", metadata: [
                "route": "\(context.endpointPath ?? "-")", "error_type": "\(type(of: error))",
            ])
            return ServiceError.internalError.response
        }
    }

    private func notMatched(_ request: Request) -> ServiceError {
        guard let (path, methods) = routes.match(request.uri.path) else {
            return ServiceError(.notFound, "not_found", "There is no such endpoint; see /openapi.yaml.")
        }
        var headers = HTTPFields()
        headers[.allow] = RouteTable.allow(methods)
        let names = methods.map(\.rawValue).joined(separator: " or ")
        return ServiceError(.methodNotAllowed, "method_not_allowed", "Use \(names) for \(path).", headers: headers)
    }
}
