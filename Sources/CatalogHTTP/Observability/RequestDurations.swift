import Hummingbird
import Synchronization

/// Request durations per route, method and status as a Prometheus histogram with fixed buckets, and the request
/// count from the same series (`http_requests_total`). A series is made once, on first use; recording a request
/// is a dictionary lookup under a lock and three atomic adds, with no allocation.
package final class RequestDurations: Sendable {
    /// Upper bounds in seconds: from half a millisecond (a cached manifest) to ten seconds (an upload on a slow link).
    package static let bounds: [Double] = [
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
    ]
    private static let boundNanos: [Int64] = bounds.map { Int64($0 * 1e9) }

    package struct Key: Hashable {
        package let route: String
        package let method: String
        package let status: Int
    }

    package final class Cell: Sendable {
        package let value = Atomic<UInt64>(0)
        package func add(_ amount: UInt64) { value.add(amount, ordering: .relaxed) }
        package var current: UInt64 { value.load(ordering: .relaxed) }
    }

    /// One series: a count per bucket (not cumulative: each request adds to one), the sum in nanoseconds, the count.
    package final class Series: Sendable {
        package let buckets = RequestDurations.bounds.map { _ in Cell() }
        package let sum = Cell()
        package let count = Cell()
    }

    /// false: only requests are counted (what `--no-request-durations` leaves, so `make bench` can price the rest).
    package let timed: Bool
    private let series = Mutex<[Key: Series]>([:])

    package init(timed: Bool = true) {
        self.timed = timed
    }

    /// Records one request that started at `start`; returns how long it took (nil when not timed).
    @discardableResult
    package func record(
        route: String, method: HTTPRequest.Method, status: Int, since start: ContinuousClock.Instant
    ) -> Duration? {
        let series = self.series(Key(route: route, method: Self.label(method), status: status))
        series.count.add(1)
        guard timed else { return nil }
        let elapsed = ContinuousClock.now - start
        let nanos = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
        if let index = Self.boundNanos.firstIndex(where: { nanos <= $0 }) { series.buckets[index].add(1) }
        series.sum.add(UInt64(max(0, nanos)))
        return elapsed
    }

    private func series(_ key: Key) -> Series {
        series.withLock { all in
            if let found = all[key] { return found }
            let made = Series()
            all[key] = made
            return made
        }
    }

    /// Methods outside the standard ones are one label, so a client cannot grow the series without bound.
    package static func label(_ method: HTTPRequest.Method) -> String {
        switch method {
        case .get, .head, .post, .put, .patch, .delete, .options: method.rawValue
        default: "other"
        }
    }

    /// Every series as Prometheus text exposition (format 0.0.4), sorted so that scrapes compare.
    package func render() -> String {
        let all = series.withLock { $0 }.sorted {
            ($0.key.route, $0.key.method, $0.key.status) < ($1.key.route, $1.key.method, $1.key.status)
        }
        var text =
            "# HELP http_requests_total Requests answered, by route, method and status.\n# TYPE http_requests_total counter\n"
        for (key, series) in all { text += "http_requests_total{\(labels(key))} \(series.count.current)\n" }
        guard timed else { return text }
        text += "# HELP http_request_duration_seconds Time to the response head, by route, method and status.\n"
        text += "# TYPE http_request_duration_seconds histogram\n"
        for (key, series) in all {
            let labels = labels(key)
            var cumulative: UInt64 = 0
            for (bound, cell) in zip(Self.bounds, series.buckets) {
                cumulative += cell.current
                text += "http_request_duration_seconds_bucket{\(labels),le=\"\(bound)\"} \(cumulative)\n"
            }
            let count = series.count.current
            text += "http_request_duration_seconds_bucket{\(labels),le=\"+Inf\"} \(count)\n"
            text += "http_request_duration_seconds_sum{\(labels)} \(Double(series.sum.current) / 1e9)\n"
            text += "http_request_duration_seconds_count{\(labels)} \(count)\n"
        }
        return text
    }

    private func labels(_ key: Key) -> String {
        let route = key.route.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
        return "route=\"\(route)\",method=\"\(key.method)\",status=\"\(key.status)\""
    }
}
