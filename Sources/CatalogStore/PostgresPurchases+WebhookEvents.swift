import CatalogCore
import Foundation
import PostgresNIO
import Purchases

/// Stored deliveries as admins list and replay them.
extension PostgresPurchases {
    package func webhookEvents(status: WebhookStatus?, before: Int64?, limit: Int) async throws -> [WebhookEvent] {
        try await read { connection in
            try await webhookEvents(
                try await connection.query(
                    """
                    SELECT id, source, environment, event_id, status, quarantined, detail, octet_length(body), body_sha256, received_at,
                           processed_at, NULL::bytea FROM webhook_events
                    WHERE (\(status?.rawValue)::text IS NULL OR status = \(status?.rawValue)) AND id < \(before ?? Int64.max)
                    ORDER BY id DESC LIMIT \(limit)
                    """, logger: logger))
        }
    }

    package func webhookEvent(id: Int64) async throws -> WebhookEvent? {
        try await read { connection in
            try await webhookEvents(
                try await connection.query(
                    """
                    SELECT id, source, environment, event_id, status, quarantined, detail, octet_length(body), body_sha256, received_at,
                           processed_at, body FROM webhook_events WHERE id = \(id)
                    """, logger: logger)
            ).first
        }
    }

    package func storedDelivery(id: Int64) async throws -> (Delivery, status: WebhookStatus)? {
        try await read { connection in
            let rows = try await connection.query(
                """
                SELECT source, environment, body, signature, user_id, status FROM webhook_events WHERE id = \(id)
                """, logger: logger)
            for try await (source, environment, body, signature, user, status) in rows.decode(
                (String, String, ByteBuffer, String?, String?, String).self)
            {
                guard let source = PurchaseSource(rawValue: source) else { return nil }
                return (
                    Delivery(
                        source: source, environment: environment, body: Array(buffer: body), credential: signature,
                        user: user),
                    WebhookStatus(rawValue: status) ?? .received
                )
            }
            return nil
        }
    }

    private func webhookEvents(_ rows: PostgresRowSequence) async throws -> [WebhookEvent] {
        var events: [WebhookEvent] = []
        for try await (
            id, source, environment, eventId, status, quarantined, detail, bytes, sha, received, processed, body
        ) in rows.decode(
            (Int64, String, String, String?, String, Bool, String?, Int, String, Date, Date?, ByteBuffer?).self)
        {
            events.append(
                WebhookEvent(
                    id: id, source: source, environment: environment, eventId: eventId,
                    status: WebhookStatus(rawValue: status) ?? .received, quarantined: quarantined, detail: detail,
                    bytes: bytes, bodySha256: sha, receivedAt: received, processedAt: processed,
                    body: body.map { String(decoding: $0.readableBytesView, as: UTF8.self) }))
        }
        return events
    }
}
