import Hummingbird
import Logging

/// Turns every error into a problem answer: known ones keep their code, unknown ones become a logged 500.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let problem as Problem {
            return try problem.response(from: request, context: context)
        } catch let error as HTTPError {
            return try Self.problem(for: error).response(from: request, context: context)
        } catch {
            context.logger.error("Unhandled error", metadata: ["error": "\(String(reflecting: error))", "path": "\(request.uri.path)"])
            return try Problem(.internalServerError, "internal_error", "The server failed to answer; the failure is logged.")
                .response(from: request, context: context)
        }
    }

    /// Hummingbird's own errors (unknown route, body too large, undecodable JSON) as problems.
    static func problem(for error: HTTPError) -> Problem {
        let detail = error.body ?? error.status.reasonPhrase
        var problem = switch error.status {
        case .notFound: Problem(.notFound, "not_found", "No such resource.")
        case .methodNotAllowed: Problem(.methodNotAllowed, "method_not_allowed", "This resource does not support that method.")
        case .contentTooLarge: Problem(.contentTooLarge, "too_large", "The request body is too large.")
        case .badRequest: Problem.invalidBody(detail)
        case .unsupportedMediaType: Problem(.unsupportedMediaType, "unsupported_media_type", detail)
        default: Problem(error.status, error.status.code < 500 ? "bad_request" : "internal_error", detail)
        }
        problem.headers.append(contentsOf: error.headers)
        return problem
    }
}
