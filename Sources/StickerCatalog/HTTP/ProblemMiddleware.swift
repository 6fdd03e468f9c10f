import Hummingbird
import Logging

/// Turns every error into a problem answer: known ones keep their code, unknown ones become a logged 500.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Turns the router's 404 for a method no route names into a 405 on a known path.
    var unknownMethods: UnknownMethods?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            if let http = error as? HTTPError, http.status == .notFound, let allowed = unknownMethods?.allowed(for: request.uri.path) {
                return try Problem.methodNotAllowed(allow: allowed).response(from: request, context: context)
            }
            if let problem = Problem(error) {
                if problem.status == .serviceUnavailable {
                    context.logger.warning("Answered 503", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
                }
                return try problem.response(from: request, context: context)
            }
            context.logger.error("Unhandled error", metadata: ["error": "\(String(reflecting: error))", "path": "\(request.uri.path)"])
            return try Problem(.internalServerError, "internal_error", "The server failed to answer; the failure is logged.")
                .response(from: request, context: context)
        }
    }
}
