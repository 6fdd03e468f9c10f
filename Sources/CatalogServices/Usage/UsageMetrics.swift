import Prometheus

/// Usage counting's metrics: events by outcome (`counted`, `ignored`: unknown, hidden, deleted or out of time,
/// `dropped`: past a source's allowance or bound, or the tally's), rows flushed, and each flush's duration and failures.
/// Hidden and unknown stickers share one outcome: the metric says nothing of what exists.
package struct UsageMetrics: Sendable {
    private let counted: Prometheus.Counter?
    private let ignored: Prometheus.Counter?
    private let dropped: Prometheus.Counter?
    private let flushedRows: Prometheus.Counter?
    private let flushFailures: Prometheus.Counter?
    private let flushCapped: Prometheus.Counter?
    private let flushSeconds: DurationHistogram?

    package static let none = UsageMetrics(registry: nil)

    package init(registry: PrometheusCollectorRegistry?) {
        let help =
            "Usage events received: counted, ignored (unknown, not visible, or out of time) or dropped by a bound."
        func events(_ outcome: String) -> Prometheus.Counter? {
            registry?.makeCounter(
                descriptor: .init(metricName: "usage_events", unitName: "total", helpText: help),
                labels: [("outcome", outcome)])
        }
        (counted, ignored, dropped) = (events("counted"), events("ignored"), events("dropped"))
        flushedRows = registry?.makeCounter(
            descriptor: .init(
                metricName: "usage_flushed_rows", unitName: "total",
                helpText: "Hourly usage buckets written to PostgreSQL."))
        flushFailures = registry?.makeCounter(
            descriptor: .init(
                metricName: "usage_flush_failures", unitName: "total",
                helpText: "Flushes that failed; their counts wait for the next one."))
        flushCapped = registry?.makeCounter(
            descriptor: .init(
                metricName: "usage_flush_capped", unitName: "total",
                helpText:
                    "Uses a replica held that the store did not count: their source's bound was reached elsewhere."))
        flushSeconds = registry?.makeDurationHistogram(
            descriptor: .init(
                metricName: "usage_flush", unitName: "seconds", helpText: "Time to write one flush of usage buckets."),
            buckets: [.milliseconds(5), .milliseconds(25), .milliseconds(100), .milliseconds(500), .seconds(2)])
    }

    package func events(counted: Int, ignored: Int, dropped: Int) {
        if counted > 0 { self.counted?.increment(by: Int64(counted)) }
        if ignored > 0 { self.ignored?.increment(by: Int64(ignored)) }
        if dropped > 0 { self.dropped?.increment(by: Int64(dropped)) }
    }

    package func flushed(rows: Int, took: Duration) {
        flushedRows?.increment(by: Int64(rows))
        flushSeconds?.record(took)
    }

    package func flushFailed() { flushFailures?.increment() }

    package func capped(_ uses: Int) {
        if uses > 0 { flushCapped?.increment(by: Int64(uses)) }
    }
}
