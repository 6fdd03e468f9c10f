import Foundation
import StickerCatalogAPI

extension CatalogService {
    /// `POST /v1/usage` with `events` (1 to 100): returns once the service has them (202), with the user's token when
    /// there is one, anonymously otherwise.
    func recordUsage(_ events: [UsageQueue.Event]) async throws {
        let batch = Components.Schemas.UsageBatch(
            events: events.map { .init(sticker: $0.sticker, action: $0.action, at: $0.at) })
        switch try await call({ try await api.recordUsage(body: .json(batch)) }) {
        case .accepted: return
        default: throw StickerClientError.invalidAnswer("an undocumented answer to POST /v1/usage")
        }
    }
}

/// What becomes of a batch of usage events, by how sending it ended.
enum UsageDelivery: Sendable, Equatable {
    /// The service has it: it leaves the queue.
    case delivered
    /// Refused as it is (400 `invalid_body`, 413, 422, a service without the route): sent again, it would be refused
    /// again, so it leaves the queue rather than block those behind it for good.
    case refused
    /// Not had (no network, 503 or 429, a server error, a token refused): it stays, and is sent again after the
    /// backoff, at least `retryAfter`.
    case failed(retryAfter: Duration?)
    /// The sender was stopped (its sync is gone).
    case stopped

    /// The delivery a send that threw `error` made.
    init(_ error: any Error) {
        if error is CancellationError {
            self = .stopped
            return
        }
        switch error as? StickerClientError {
        case .refused(let status, _, _) where Self.final(status): self = .refused
        case .unavailable(_, _, let retryAfter): self = .failed(retryAfter: retryAfter)
        default: self = .failed(retryAfter: nil)
        }
    }

    /// Whether a refusal with `status` would be the same for the same batch later: a client error, apart from a token
    /// refused (401: the user may sign in again), a request too slow (408) and too many (429).
    static func final(_ status: Int) -> Bool {
        (400..<500).contains(status) && ![401, 408, 429].contains(status)
    }
}
