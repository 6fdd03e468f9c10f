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
        hits = registry.makeCounter(
            name: "cache_requests_total", labels: [("cache", cache), ("result", "hit")], help: help)
        misses = registry.makeCounter(
            name: "cache_requests_total", labels: [("cache", cache), ("result", "miss")], help: help)
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
            name: "rendition_build_seconds",
            buckets: [
                .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
                .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
            ],
            help: "Time to validate an upload and make its renditions, off the event loop.")
        // Served from the start, at 0, so that rates and alerts see them before the first upload or delivery.
        for verdict in ["accepted", "internal_error"] { counter(uploads: verdict) }
        for reason in ["user", "address", "replica"] { counter(streamsRefused: reason) }
    }

    @discardableResult
    private func counter(streamsRefused reason: String) -> Prometheus.Counter {
        registry.makeCounter(
            name: "event_streams_refused_total", labels: [("reason", reason)],
            help: "Event streams refused: past a user's or an address's share (429), or the replica's bound (503).")
    }

    /// One event stream refused, by the bound it reached: `user`, `address` or `replica`.
    package func streamRefused(reason: String) {
        counter(streamsRefused: reason).increment()
    }

    @discardableResult
    private func counter(uploads verdict: String) -> Prometheus.Counter {
        registry.makeCounter(
            name: "sticker_uploads_total", labels: [("verdict", verdict)],
            help: "Uploads by verdict: accepted, or the problem code they were refused with.")
    }

    /// One upload's verdict: `accepted`, or the problem code it was refused with.
    package func upload(verdict: String) {
        counter(uploads: verdict).increment()
    }

    /// One webhook delivery by source and outcome (a delivery status, `duplicate`, `conflict` or `quarantined`).
    package func delivery(source: String, outcome: String) {
        registry.makeCounter(
            name: "webhook_deliveries_total", labels: [("source", source), ("outcome", outcome)],
            help: "Purchase webhook deliveries by source and outcome."
        ).increment()
    }
}
