import HTTPTypes
import Hummingbird
import Logging

/// Observes every request: its id (a sane incoming `X-Request-Id`, else the one Hummingbird gave it), echoed on the
/// response and on every log line of the request; its duration to the response head in `RequestDurations`; and its
/// line in the `AccessLog`. It also marks every answer `X-Content-Type-Options: nosniff`.
struct RequestObservation<Context: RequestContext>: RouterMiddleware {
    let durations: RequestDurations
    let accessLog: AccessLog?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        var context = context
        let id: String
        if let incoming = request.headers[.requestID], RequestIdentity.isSane(incoming) {
            id = incoming
            context.logger[metadataKey: RequestIdentity.logKey] = .string(incoming)
        } else {
            id = context.id
        }
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            // ProblemMiddleware answers every error; one that escapes it still counts.
            durations.record(route: context.endpointPath ?? "unmatched", method: request.method, status: 500, since: start)
            throw error
        }
        response.headers[.requestID] = id
        // On every answer, problems and images included: no browser may take a body for another type than it says.
        response.headers[.xContentTypeOptions] = "nosniff"
        let route = context.endpointPath ?? "unmatched"   // read once: it is behind a lock
        let elapsed = durations.record(route: route, method: request.method, status: response.status.code, since: start)
        accessLog?.record(method: request.method.rawValue, path: request.uri.path, route: route,
                          status: response.status.code, elapsed: elapsed, bytes: response.body.contentLength, requestId: id)
        return response
    }
}

/// A request's id: where it is kept and which incoming ones are accepted.
enum RequestIdentity {
    /// The metadata key Hummingbird puts its request id under; log handlers print it as `request_id`.
    static let logKey = "hb.request.id"

    /// 1-128 characters of letters, digits and `-._:`: enough for UUIDs and trace ids, nothing that could forge a
    /// log field or a header.
    static func isSane(_ id: String) -> Bool {
        (1...128).contains(id.utf8.count) && id.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"): true
            default: false
            }
        }
    }
}

extension HTTPField.Name {
    static let requestID = Self("X-Request-Id")!
}
