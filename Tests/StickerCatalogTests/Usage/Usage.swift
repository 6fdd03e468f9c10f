import CatalogApp
import CatalogStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Usage events as clients post them, and the checks usage tests share.
enum Usage {
    /// Writes within a tenth of a second and reads scores again as often: tests see counts quickly. A test client is
    /// one source sending many uses of a sticker, so the bound per source and hour is lifted; the tests of the bound
    /// (`aFloodFromOneSourceDoesNotMoveTheTop10`) set it back.
    static let quick: @Sendable (inout ServiceOptions) -> Void = { options in
        options.usage.flushInterval = .milliseconds(100)
        options.usage.scoresInterval = .milliseconds(100)
        options.usage.perSourceHour = 1_000_000
    }

    static func event(_ sticker: String, _ action: String = "sent", at: Date = Date()) -> [String: Any] {
        ["sticker": sticker, "action": action, "at": ISO8601DateFormatter().string(from: at)]
    }

    /// Posts `events` (as one batch) with `headers`; the answer.
    @discardableResult
    static func post(
        _ client: some TestClientProtocol, _ events: [[String: Any]], headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        try await client.execute(uri: "/v1/usage", method: .post, headers: headers, body: Body.json(["events": events]))
    }

    /// `count` sends of `sticker`, in batches of at most 100, each answered 202.
    static func send(
        _ client: some TestClientProtocol, _ sticker: String, times count: Int, headers: HTTPFields = [:]
    ) async throws {
        var left = count
        while left > 0 {
            let batch = min(left, 100)
            let response = try await post(client, Array(repeating: event(sticker), count: batch), headers: headers)
            #expect(response.status == .accepted)
            left -= batch
        }
    }

    /// The sends stored for `sticker` (every hour), once the flush wrote them.
    static func stored(_ db: DatabasePool, _ sticker: String, action: String = "sent") async throws -> Int {
        try await db.count(
            "SELECT coalesce(sum(count), 0)::bigint FROM sticker_usage WHERE sticker_id = '\(sticker)' AND action = '\(action)'"
        )
    }

    /// The ids of the trending page `query` asks for, as `headers` sees it.
    static func trending(
        _ client: some TestClientProtocol, _ query: String = "", headers: HTTPFields = [:]
    ) async throws -> [String] {
        let response = try await client.execute(uri: "/v1/trending?\(query)", method: .get, headers: headers)
        #expect(response.status == .ok, "\(String(buffer: response.body))")
        return (response.json["results"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    /// Every demo sticker's id by name.
    static func ids(_ client: some TestClientProtocol) async throws -> [String: String] {
        let manifest = try await ChangeFeedTests.manifest(client)
        return Dictionary(uniqueKeysWithValues: manifest.groups.flatMap(\.stickers).map { ($0.name, $0.id) })
    }
}
