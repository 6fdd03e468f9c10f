import Hummingbird
import Metrics
import Synchronization

/// Counts requests by route, method and status (`http_requests_total`).
/// Lighter than Hummingbird's MetricsMiddleware, whose per-request timer and gauge cost a quarter of the
/// manifest's throughput in `make bench`; durations are left to the proxy in front.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    private let counters = RequestCounters()

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            let response = try await next(request, context)
            count(context.endpointPath, request.method, response.status.code)
            return response
        } catch {
            count(context.endpointPath, request.method, (error as? any HTTPResponseError)?.status.code ?? 500)
            throw error
        }
    }

    private func count(_ route: String?, _ method: HTTPRequest.Method, _ status: Int) {
        counters.counter(route: route ?? "unmatched", method: method, status: status).increment()
    }
}

/// One counter per (route, method, status), made on first use.
private final class RequestCounters: Sendable {
    private struct Key: Hashable {
        let route: String
        let method: HTTPRequest.Method
        let status: Int
    }

    private let counters = Mutex<[Key: Counter]>([:])

    func counter(route: String, method: HTTPRequest.Method, status: Int) -> Counter {
        let key = Key(route: route, method: method, status: status)
        return counters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = Counter(label: "http_requests_total", dimensions: [
                ("route", key.route), ("method", key.method.rawValue), ("status", String(key.status)),
            ])
            counters[key] = counter
            return counter
        }
    }
}
