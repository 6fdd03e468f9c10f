import CatalogCore
import Foundation
import PostgresNIO
import Purchases

/// The inbox: every delivery stored raw before anything else, deduplicated by (source, environment, event id), the
/// refused ones quarantined; then applied in a transaction that also records how it ended.
extension PostgresPurchases: PurchaseRepository {
    package func receive(_ delivery: Delivery, verdict: Result<PurchaseEvent, PurchaseError>) async throws -> Receipt {
        let event: PurchaseEvent
        switch verdict {
        case .failure(let error):
            let id = try await quarantine(delivery, eventId: nil, status: WebhookStatus(error), detail: error.reason)
            return .quarantined(id: id, error)
        case .success(let verified):
            event = verified
        }
        let sha = sha256Hex(delivery.body)
        if let id = try await insertDelivery(
            delivery, eventId: event.eventId, quarantined: false, status: .received, detail: nil, inbox: true)
        {
            return try await applyStored(id: id, event, user: delivery.user, force: false)
        }
        // The id is taken: the same body is a duplicate (applied again only if its first apply never finished).
        let existing = try await read { connection in
            try await connection.query(
                """
                SELECT id, body_sha256, status, user_id FROM webhook_events
                WHERE source = \(delivery.source.rawValue) AND environment = \(delivery.environment) AND event_id = \(event.eventId)
                  AND NOT quarantined
                """, logger: logger
            ).decode((Int64, String, String, String?).self).first { _ in true }
        }
        guard let (id, storedSha, status, storedUser) = existing else {
            return try await receive(delivery, verdict: verdict)
        }
        // A client's transaction posted by another user is not a duplicate either.
        guard storedSha == sha, storedUser == delivery.user else {
            let quarantined = try await quarantine(
                delivery, eventId: event.eventId, status: .conflict,
                detail: "event id already used by webhook event \(id) with a different body or user")
            return .conflict(id: quarantined, existing: id)
        }
        let stored = WebhookStatus(rawValue: status) ?? .received
        return stored == .received
            ? try await applyStored(id: id, event, user: delivery.user, force: false)
            : .duplicate(id: id, status: stored)
    }

    package func replay(id: Int64, verdict: Result<PurchaseEvent, PurchaseError>) async throws -> Receipt {
        let event: PurchaseEvent
        switch verdict {
        case .failure(let error): return .quarantined(id: id, error)
        case .success(let verified): event = verified
        }
        let row = try await read { connection in
            try await connection.query(
                "SELECT source, quarantined, user_id, body_sha256 FROM webhook_events WHERE id = \(id)", logger: logger
            )
            .decode((String, Bool, String?, String).self).first { _ in true }
        }
        guard let (source, quarantined, user, sha) = row else { throw CatalogError.notFound("Webhook event \(id)") }
        guard quarantined else { return try await applyStored(id: id, event, user: user, force: true) }
        // A quarantined delivery that now passes enters the inbox, unless its event id was taken meanwhile.
        let entered = try await read { connection in
            try await connection.first(
                """
                UPDATE webhook_events SET quarantined = false, status = 'received', environment = \(event.environment),
                       event_id = \(event.eventId), detail = 'replayed from quarantine'
                WHERE id = \(id) AND NOT EXISTS (SELECT 1 FROM webhook_events WHERE source = \(source)
                    AND environment = \(event.environment) AND event_id = \(event.eventId) AND NOT quarantined)
                RETURNING id
                """, as: Int64.self, logger: logger)
        }
        if entered != nil { return try await applyStored(id: id, event, user: user, force: true) }
        let taken = try await read { connection in
            try await connection.query(
                """
                SELECT id, body_sha256, status FROM webhook_events
                WHERE source = \(source) AND environment = \(event.environment) AND event_id = \(event.eventId) AND NOT quarantined
                """, logger: logger
            ).decode((Int64, String, String).self).first { _ in true }
        }
        guard let (existing, existingSha, status) = taken else {
            throw CatalogError.conflict("The event was stored meanwhile; replay again.")
        }
        return existingSha == sha
            ? .duplicate(id: existing, status: WebhookStatus(rawValue: status) ?? .received)
            : .conflict(id: id, existing: existing)
    }

    package func stalledDeliveries(receivedBefore date: Date, limit: Int) async throws -> [Int64] {
        try await read { connection in
            var ids: [Int64] = []
            for try await id in try await connection.query(
                """
                SELECT id FROM webhook_events WHERE status = 'received' AND NOT quarantined AND received_at < \(date) ORDER BY id LIMIT \(limit)
                """, logger: logger
            ).decode(Int64.self) { ids.append(id) }
            return ids
        }
    }

    package func resume(id: Int64, verdict: Result<PurchaseEvent, PurchaseError>) async throws -> Receipt {
        switch verdict {
        case .success(let event):
            let user = try await read { connection in
                try await connection.first(
                    "SELECT user_id FROM webhook_events WHERE id = \(id)", as: String?.self, logger: logger)
            }
            return try await applyStored(id: id, event, user: user ?? nil, force: false)
        case .failure(let error):
            _ = try await read { connection in
                try await connection.query(
                    """
                    UPDATE webhook_events SET quarantined = true, status = \(WebhookStatus(error).rawValue), detail = \(error.reason), processed_at = now(),
                           stored_bytes = \(unescaped: Self.storedBytesSQL)
                    WHERE id = \(id) AND status = 'received' AND NOT quarantined
                    """, logger: logger)
            }
            return .quarantined(id: id, error)
        }
    }

    /// Applies stored delivery `id` in one transaction with the update of its status; `force` applies one already
    /// processed (a replay). A refusal by the rules quarantines the delivery; a failure leaves it `received`.
    private func applyStored(id: Int64, _ event: PurchaseEvent, user: String?, force: Bool) async throws -> Receipt {
        do {
            let (status, users) = try await transaction { connection in
                try await apply(event, webhookId: id, bindTo: user, force: force, connection)
            }
            for user in users { entitlementChanges.changed(user: user) }
            return .stored(id: id, status: status)
        } catch let error as EntitlementError {
            _ = try await read { connection in
                try await connection.query(
                    """
                    UPDATE webhook_events SET quarantined = true, status = 'rejected', detail = \(String(describing: error)), processed_at = now(),
                           stored_bytes = \(unescaped: Self.storedBytesSQL)
                    WHERE id = \(id)
                    """, logger: logger)
            }
            try await pruneQuarantine(id: id, bytes: 0, source: event.source.rawValue, status: .rejected)
            throw error
        }
    }

    /// Stores a delivery; with `inbox`, nil when its event id is already in the inbox.
    package func insertDelivery(
        _ delivery: Delivery, eventId: String?, quarantined: Bool, status: WebhookStatus, detail: String?,
        inbox: Bool
    ) async throws -> Int64? {
        let conflict: PostgresQuery =
            inbox ? "ON CONFLICT (source, environment, event_id) WHERE NOT quarantined DO NOTHING" : ""
        let signature = delivery.source == .generic ? delivery.credential : nil
        return try await read { connection in
            try await connection.first(
                """
                INSERT INTO webhook_events (source, environment, event_id, body, body_sha256, signature, user_id, quarantined, status, detail,
                                            processed_at, stored_bytes)
                VALUES (\(delivery.source.rawValue), \(delivery.environment), \(eventId), \(ByteBuffer(bytes: delivery.body)),
                        \(sha256Hex(delivery.body)), \(signature), \(delivery.user), \(quarantined),
                        \(status.rawValue), \(detail), \(quarantined ? Date() : nil),
                        \(Self.storedBytes(body: delivery.body, signature: signature, eventId: eventId)))
                \(unescaped: conflict.sql) RETURNING id
                """, as: Int64.self, logger: logger)
        }
    }
}
