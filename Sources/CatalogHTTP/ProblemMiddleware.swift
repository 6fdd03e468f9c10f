import Hummingbird
import Logging

/// Turns every error into a problem answer: known ones keep their code, unknown ones become a logged 500.
package struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Turns the router's 404 for a method no route names into a 405 on a known path.
    package var unknownMethods: UnknownMethods?

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            return try await answer(error, to: request, context: context)
        }
    }

    /// The problem answering `error`, thrown while `request` was answered.
    package func answer(_ error: any Error, to request: Request, context: Context) async throws -> Response {
        if let http = error as? HTTPError, http.status == .notFound,
            let problem = try await unknownMethod(request, context)
        {
            return try problem.response(from: request, context: context)
        }
        if let problem = Problem(error) {
            if problem.status == .serviceUnavailable {
                context.logger.warning("Answered 503", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            }
            return try problem.response(from: request, context: context)
        }
        context.logger.error(
            "Unhandled error", metadata: ["error": "\(String(reflecting: error))", "path": "\(request.uri.path)"])
        return try Problem(
            .internalServerError, "internal_error", "The server failed to answer; the failure is logged."
        )
        .response(from: request, context: context)
    }

    /// The 405 (or, on the admin API without a token, 401) for a method no route names; a failed token lookup is its
    /// 503.
    private func unknownMethod(_ request: Request, _ context: Context) async throws -> Problem? {
        do {
            return try await unknownMethods?.problem(for: request, peer: (context as? AppRequestContext)?.remoteAddress)
        } catch {
            return Problem(error)
        }
    }

    package init(unknownMethods: UnknownMethods? = nil) {
        self.unknownMethods = unknownMethods
    }
}
