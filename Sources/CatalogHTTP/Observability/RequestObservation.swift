import HTTPTypes
import Hummingbird
import Logging

/// Observes every request (`ServiceResponder` calls it around each): its id (a sane incoming `X-Request-Id`, else the
/// one Hummingbird gave it), echoed on the response and on every log line of the request; its duration to the response
/// head in `RequestDurations`; and its line in the `AccessLog`. It also marks every answer
/// `X-Content-Type-Options: nosniff`. Plain calls rather than a middleware: a middleware is an async frame per request.
package struct RequestObservation: Sendable {
    package let durations: RequestDurations
    package let accessLog: AccessLog?

    /// The request's id, put on the context's logger where Hummingbird's own (sequential) id was: every log line and
    /// problem of the request quotes it.
    package func identify(_ request: Request, context: inout AppRequestContext) -> String {
        var id = RequestIdentity.id(of: context)
        if let incoming = request.headers[.requestID], RequestIdentity.isSane(incoming) { id = incoming }
        context.logger[metadataKey: RequestIdentity.logKey] = .string(id)
        return id
    }

    /// Marks `response` with `id` and nosniff, and records its duration and its access line under `route` (`path`:
    /// the request's, without its query).
    package func finish(
        _ response: inout Response, id: String, route: String, request: Request, path: String,
        since start: ContinuousClock.Instant
    ) {
        response.headers[.requestID] = id
        // On every answer, problems and images included: no browser may take a body for another type than it says.
        // Cached answers carry it already (a lookup costs less than setting it again).
        if response.headers[.xContentTypeOptions] == nil { response.headers[.xContentTypeOptions] = "nosniff" }
        let elapsed = durations.record(route: route, method: request.method, status: response.status.code, since: start)
        accessLog?.record(
            method: request.method.rawValue, path: path, route: route,
            status: response.status.code, elapsed: elapsed, bytes: response.body.contentLength, requestId: id)
    }

    /// Counts a request no problem answered (the answer itself failed) as a 500.
    package func failed(route: String, request: Request, since start: ContinuousClock.Instant) {
        _ = durations.record(route: route, method: request.method, status: 500, since: start)
    }

    package init(durations: RequestDurations, accessLog: AccessLog?) {
        self.durations = durations
        self.accessLog = accessLog
    }
}

extension HTTPField.Name {
    package static let requestID = Self("X-Request-Id")!
}
