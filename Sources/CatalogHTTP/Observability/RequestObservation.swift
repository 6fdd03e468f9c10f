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

    /// The request's id; an incoming one is also put on the context's logger, where Hummingbird's own id was.
    package func identify(_ request: Request, context: inout AppRequestContext) -> String {
        guard let incoming = request.headers[.requestID], RequestIdentity.isSane(incoming) else { return context.id }
        context.logger[metadataKey: RequestIdentity.logKey] = .string(incoming)
        return incoming
    }

    /// Marks `response` with `id` and nosniff, and records its duration and its access line under `route`.
    package func finish(
        _ response: inout Response, id: String, route: String, request: Request, since start: ContinuousClock.Instant
    ) {
        response.headers[.requestID] = id
        // On every answer, problems and images included: no browser may take a body for another type than it says.
        response.headers[.xContentTypeOptions] = "nosniff"
        let elapsed = durations.record(route: route, method: request.method, status: response.status.code, since: start)
        accessLog?.record(
            method: request.method.rawValue, path: request.uri.path, route: route,
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

/// A request's id: where it is kept and which incoming ones are accepted.
package enum RequestIdentity {
    /// The metadata key Hummingbird puts its request id under; log handlers print it as `request_id`.
    package static let logKey = "hb.request.id"

    /// 1-128 characters of letters, digits and `-._:`: enough for UUIDs and trace ids, nothing that could forge a
    /// log field or a header.
    package static func isSane(_ id: String) -> Bool {
        (1...128).contains(id.utf8.count)
            && id.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"),
                    UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"):
                    true
                default: false
                }
            }
    }
}

extension HTTPField.Name {
    package static let requestID = Self("X-Request-Id")!
}
