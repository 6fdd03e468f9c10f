import CatalogCore
import CatalogHTTP
import CatalogServices
import Prometheus
import Synchronization

/// Gauges read from the running service when `/metrics` is scraped: nothing on the request path keeps them.
package struct ServiceGauges: Sendable {
    package let revision: CatalogRevision
    package let draining: Draining
    package let database: any DatabaseHealth
    package let hub: EventHub
    package let manifests: ManifestService
    package let search: SearchService
    package let assets: AssetStore
    package let uploads: UploadGate
    package let quarantine: any QuarantineCounter
    /// The log whose dropped lines `log_lines_dropped_total` counts.
    package let log: LogSink?
    private let gauges: [String: Gauge]
    private let droppedLines: Counter
    /// What `droppedLines` has counted so far: the sink keeps the total, the counter is moved by the difference.
    private let droppedCounted = Reported()

    package init(
        registry: PrometheusCollectorRegistry, revision: CatalogRevision, draining: Draining,
        database: any DatabaseHealth, hub: EventHub, manifests: ManifestService, search: SearchService,
        assets: AssetStore,
        uploads: UploadGate,
        quarantine: any QuarantineCounter, log: LogSink? = nil
    ) {
        (self.revision, self.draining, self.database, self.hub) = (revision, draining, database, hub)
        (self.manifests, self.search, self.assets, self.uploads, self.quarantine, self.log) = (
            manifests, search, assets, uploads, quarantine, log
        )
        var gauges: [String: Gauge] = [:]
        for (name, help) in Self.described {
            // A gauge's name carries its unit where it has one (`_bytes`); the descriptor joins the parts back.
            gauges[name] = registry.makeGauge(descriptor: .init(metricName: name, unitName: "", helpText: help))
        }
        self.gauges = gauges
        droppedLines = registry.makeCounter(
            descriptor: .init(
                metricName: "log_lines_dropped", unitName: "total",
                helpText: "Log lines dropped because the log's buffer was full (its reader is slow or stuck)."))
    }

    package static let described: [(String, String)] = [
        (
            "stickerd_ready",
            "1 while this replica takes traffic: not shutting down, the database answers, catalog changes reach it."
        ),
        ("catalog_revision", "The catalog revision this replica serves."),
        ("event_streams_open", "Server-Sent Event streams open on this replica."),
        ("manifest_cache_bytes", "Bytes of encoded manifests held in memory."),
        ("asset_cache_bytes", "Bytes of images held in memory."),
        ("search_index_bytes", "Bytes the search index of the current catalog takes (an estimate of its arrays)."),
        ("search_cache_bytes", "Bytes of encoded search answers held in memory."),
        (
            "uploads_in_progress",
            "Uploads being read, validated or stored; past --max-uploads they are refused with 503."
        ),
        ("db_pool_connections_in_use", "Database connections running a statement for this replica."),
        ("db_pool_waiting", "Callers waiting for a database connection."),
        ("db_available", "1 while PostgreSQL answers, 0 after a failure until a probe reaches it again."),
        ("webhook_quarantine_size", "Refused webhook deliveries kept for replay (-1: the database did not answer)."),
    ]

    /// Reads every value now; the quarantine size is kept by the store (`QuarantineTally`), and not read while the
    /// database is down.
    package func update() async {
        let usage = database.connections
        set("catalog_revision", Double(revision.current))
        set("event_streams_open", Double(hub.count))
        set("manifest_cache_bytes", Double(manifests.cachedBytes))
        set("asset_cache_bytes", Double(assets.cachedBytes))
        set("search_index_bytes", Double(search.indexBytes))
        set("search_cache_bytes", Double(search.cachedBytes))
        set("uploads_in_progress", Double(uploads.current))
        set("db_pool_connections_in_use", Double(usage.inUse))
        set("db_pool_waiting", Double(usage.waiting))
        set("db_available", database.isAvailable ? 1 : 0)
        set("stickerd_ready", !draining.isDraining && database.isAvailable && database.keepsUp ? 1 : 0)
        let size = database.isAvailable ? (try? await quarantine.quarantineSize()) : nil
        set("webhook_quarantine_size", size.map(Double.init) ?? -1)
        if let log {
            let total = log.dropped
            let before = droppedCounted.value.exchange(total, ordering: .relaxed)
            if total > before { droppedLines.increment(by: Int64(total - before)) }
        }
    }

    private func set(_ name: String, _ value: Double) { gauges[name]?.set(value) }
}

/// A total already reported, shared by the copies of `ServiceGauges`.
private final class Reported: Sendable {
    package let value = Atomic<Int>(0)
}
