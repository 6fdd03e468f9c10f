import Hummingbird

/// What answers every request: it observes it (id, duration, access line), then gives it to `HotRoutes` or the router.
/// Errors a hot route throws become problems as `ProblemMiddleware` makes them on the router's routes.
package struct ServiceResponder: HTTPResponder {
    package let router: RouterResponder<AppRequestContext>
    package let hot: HotRoutes
    package let observation: RequestObservation
    package let problems: ProblemMiddleware<AppRequestContext>
    /// Nil when no other origin may call (`--cors-origin` not given): nothing is added to any answer.
    package let crossOrigin: CrossOrigin?

    package func respond(to request: Request, context: AppRequestContext) async throws -> Response {
        let start = ContinuousClock.now
        var context = context
        let id = observation.identify(request, context: &context)
        // Read once: Hummingbird makes the path's String anew at each read (an allocation for an asset's).
        let path = request.uri.path
        var response: Response
        let route: String
        if let hotRoute = HotRoutes.route(method: request.method, path: path) {
            route = hotRoute.name
            do {
                response = try await hot.respond(hotRoute, to: request)
            } catch {
                response = try await answer(error, request, context, route: route, start: start)
            }
            // As the router's generated HEAD routes answer, problems included.
            if request.method == .head { response = response.createHeadResponse() }
        } else {
            do {
                response = try await router.respond(to: request, context: context)
            } catch {
                // ProblemMiddleware answers every error on the router's routes; one that escapes it still counts.
                observation.failed(route: context.endpointPath ?? "unmatched", request: request, since: start)
                throw error
            }
            route = context.endpointPath ?? "unmatched"  // read once: it is behind a lock
        }
        crossOrigin?.decorate(&response, request: request, path: path)
        observation.finish(&response, id: id, route: route, request: request, path: path, since: start)
        return response
    }

    /// The problem answering a hot route's error; counted as a 500 when even that fails.
    private func answer(
        _ error: any Error, _ request: Request, _ context: AppRequestContext, route: String,
        start: ContinuousClock.Instant
    ) async throws -> Response {
        do {
            return try await problems.answer(error, to: request, context: context)
        } catch {
            observation.failed(route: route, request: request, since: start)
            throw error
        }
    }

    package init(
        router: RouterResponder<AppRequestContext>, hot: HotRoutes, observation: RequestObservation,
        problems: ProblemMiddleware<AppRequestContext>, crossOrigin: CrossOrigin? = nil
    ) {
        self.router = router
        self.hot = hot
        self.observation = observation
        self.problems = problems
        self.crossOrigin = crossOrigin
    }
}
