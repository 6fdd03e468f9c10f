import Prometheus
import Synchronization

/// PostgreSQL hot standbys (`DATABASE_READ_URL`) that take the big reads off the primary: catalog snapshots and
/// image bytes. Writes, LISTEN and entitlement reads stay on the primary. A standby is used only when it has what
/// the primary has told this replica of: a snapshot older than the revision this replica knows is not served (the
/// primary is read instead), and an image the standby lacks yet is read from the primary.
package final class ReadReplicas: Sendable {
    package let pools: [DatabasePool]
    private let turn = Atomic<Int>(0)
    private let counters: [String: Prometheus.Counter]

    /// `registry`: where `standby_reads_total{read,result}` is counted.
    package init(pools: [DatabasePool], registry: PrometheusCollectorRegistry?) {
        self.pools = pools
        var counters: [String: Prometheus.Counter] = [:]
        let reads = MetricNameDescriptor(
            metricName: "standby_reads", unitName: "total",
            helpText:
                "Reads sent to a standby: used, or passed to the primary because it was behind, lacked the row or failed."
        )
        for read in ["snapshot", "asset"] {
            for result in Result.allCases {
                counters[read + "." + result.rawValue] = registry?.makeCounter(
                    descriptor: reads, labels: [("read", read), ("result", result.rawValue)])
            }
        }
        self.counters = counters
    }

    /// What became of a read sent to a standby.
    package enum Result: String, CaseIterable, Sendable {
        case used, behind, missing, failed
    }

    /// The next standby that answered its last attempt, round robin; nil when none does.
    package func next() -> DatabasePool? {
        for _ in pools.indices {
            let pool = pools[turn.wrappingAdd(1, ordering: .relaxed).oldValue % pools.count]
            if pool.isAvailable { return pool }
        }
        return nil
    }

    package func count(_ read: String, _ result: Result) {
        counters[read + "." + result.rawValue]?.increment()
    }
}

/// A standby's catalog is older than the revision this replica knows.
package struct StandbyBehind: Error {
    package let standby: Int64
    package let wanted: Int64
}
