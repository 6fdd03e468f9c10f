import CatalogCore
import Foundation
import Metrics
import PostgresNIO
import Purchases

/// The quarantine: refused deliveries kept for replay, each (source, status) bounded in rows and in bytes, because
/// anyone can send them and a flood of one kind must not evict a genuine delivery refused as another.
extension PostgresPurchases {
    /// The bytes a row keeps that a sender chooses (migration 0010 counts stored rows the same way).
    package static let storedBytesSQL =
        "octet_length(body) + coalesce(octet_length(signature), 0) + coalesce(octet_length(event_id), 0)"

    package static func storedBytes(body: [UInt8], signature: String?, eventId: String?) -> Int {
        body.count + (signature?.utf8.count ?? 0) + (eventId?.utf8.count ?? 0)
    }

    /// Stores a refused delivery apart from the inbox.
    package func quarantine(
        _ delivery: Delivery, eventId: String?, status: WebhookStatus, detail: String?
    ) async throws -> Int64 {
        guard
            let id = try await insertDelivery(
                delivery, eventId: eventId, quarantined: true, status: status, detail: detail, inbox: false)
        else {
            throw DatabaseUnavailable(reason: "INSERT ... RETURNING returned no row")
        }
        let signature = delivery.source == .generic ? delivery.credential : nil
        let bytes = Self.storedBytes(body: delivery.body, signature: signature, eventId: eventId)
        quarantineTally.adjust(by: 1)
        try await pruneQuarantine(id: id, bytes: bytes, source: delivery.source.rawValue, status: status)
        return id
    }

    /// Keeps only the newest quarantined deliveries of each (source, status) within `quarantineLimit` rows and
    /// `quarantineBytes` bytes, so that no kind of refused delivery, signed or not, can fill the disk.
    /// Pruning reads the quarantine's index from the newest entry back to the first past a bound (1-9 ms at 10,000), so
    /// it runs on one delivery id in a hundredth of the row bound (at most 64), and at random about once per hundredth
    /// of the byte bound stored: a flood costs a fraction of a millisecond each, and overshoots by about 1%.
    package func pruneQuarantine(id: Int64, bytes: Int, source: String, status: WebhookStatus) async throws {
        let interval = Int64(max(1, min(64, quarantineLimit / 100)))
        // A delivery of `bytes` prunes with probability bytes / (1% of the bound): large bodies prune often, but
        // then the bound holds few rows, so each pruning reads few.
        let slice = max(1, quarantineBytes / 100)
        guard id % interval == 0 || Int.random(in: 0..<slice) < bytes else { return }
        let dropped = try await read { connection in
            try await connection.query(
                """
                DELETE FROM webhook_events w WHERE quarantined AND source = \(source) AND status = \(status.rawValue) AND id <= (
                    SELECT id FROM (
                        SELECT id, row_number() OVER newest AS kept, sum(stored_bytes) OVER newest AS bytes FROM webhook_events
                        WHERE quarantined AND source = \(source) AND status = \(status.rawValue)
                        WINDOW newest AS (ORDER BY id DESC ROWS UNBOUNDED PRECEDING)) newest
                    WHERE kept > \(quarantineLimit) OR bytes > \(quarantineBytes) ORDER BY id DESC LIMIT 1)
                  AND NOT EXISTS (SELECT 1 FROM entitlement_audit a WHERE a.webhook_event_id = w.id)
                RETURNING id
                """, logger: logger
            ).collect().count
        }
        guard dropped > 0 else { return }
        quarantineTally.adjust(by: -dropped)
        Counter(label: "webhook_quarantine_dropped_total").increment(by: dropped)
        logger.debug(
            "Quarantine full: dropped the oldest",
            metadata: ["dropped": "\(dropped)", "source": "\(source)", "status": "\(status.rawValue)"])
    }
}

extension PostgresPurchases: QuarantineCounter {
    /// Refused deliveries kept for replay (at most `quarantineLimit` of each source and status), from the tally.
    package func quarantineSize() async throws -> Int {
        try await quarantineTally.size {
            try await read { connection in
                try await connection.count("SELECT count(*) FROM webhook_events WHERE quarantined", logger: logger)
            }
        }
    }
}
