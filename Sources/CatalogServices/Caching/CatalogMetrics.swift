import Foundation
import Prometheus

/// Hits and misses of one cache (`cache_requests_total{cache,result}`); `.none` counts nothing, for a cache built
/// alone in a test.
package struct CacheCounters: Sendable {
    private let hits: Prometheus.Counter?
    private let misses: Prometheus.Counter?

    package static let none = CacheCounters(hits: nil, misses: nil)

    private init(hits: Prometheus.Counter?, misses: Prometheus.Counter?) {
        (self.hits, self.misses) = (hits, misses)
    }

    package init(registry: PrometheusCollectorRegistry, cache: String) {
        let help = "Lookups of a cache: answered from memory (hit) or built or read from the database (miss)."
        let requests = MetricNameDescriptor(metricName: "cache_requests", unitName: "total", helpText: help)
        hits = registry.makeCounter(descriptor: requests, labels: [("cache", cache), ("result", "hit")])
        misses = registry.makeCounter(descriptor: requests, labels: [("cache", cache), ("result", "miss")])
    }

    package func hit() { hits?.increment() }
    package func miss() { misses?.increment() }
}

/// What the catalog does, counted where it happens: upload verdicts, rendition work, webhook deliveries.
package struct CatalogMetrics: Sendable {
    package let registry: PrometheusCollectorRegistry
    package let renditionSeconds: DurationHistogram

    package init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
        renditionSeconds = registry.makeDurationHistogram(
            descriptor: .init(
                metricName: "rendition_build", unitName: "seconds",
                helpText: "Time to validate an upload and make its renditions, off the event loop."),
            buckets: [
                .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
                .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
            ])
        // Served from the start, at 0, so that rates and alerts see them before the first upload or delivery.
        for verdict in ["accepted", "internal_error"] { counter(uploads: verdict) }
        for reason in ["user", "address", "replica"] { counter(streamsRefused: reason) }
    }

    @discardableResult
    private func counter(streamsRefused reason: String) -> Prometheus.Counter {
        registry.makeCounter(
            descriptor: .init(
                metricName: "event_streams_refused", unitName: "total",
                helpText:
                    "Event streams refused: past a user's or an address's share (429), or the replica's bound (503)."),
            labels: [("reason", reason)])
    }

    /// One event stream refused, by the bound it reached: `user`, `address` or `replica`.
    package func streamRefused(reason: String) {
        counter(streamsRefused: reason).increment()
    }

    @discardableResult
    private func counter(uploads verdict: String) -> Prometheus.Counter {
        registry.makeCounter(
            descriptor: .init(
                metricName: "sticker_uploads", unitName: "total",
                helpText: "Uploads by verdict: accepted, or the problem code they were refused with."),
            labels: [("verdict", verdict)])
    }

    /// One upload's verdict: `accepted`, or the problem code it was refused with.
    package func upload(verdict: String) {
        counter(uploads: verdict).increment()
    }

    /// One webhook delivery by source and outcome (a delivery status, `duplicate`, `conflict` or `quarantined`).
    package func delivery(source: String, outcome: String) {
        registry.makeCounter(
            descriptor: .init(
                metricName: "webhook_deliveries", unitName: "total",
                helpText: "Purchase webhook deliveries by source and outcome."),
            labels: [("source", source), ("outcome", outcome)]
        ).increment()
    }
}
