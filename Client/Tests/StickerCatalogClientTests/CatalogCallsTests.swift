import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import StickerCatalogClient

/// Trending, filters, entitlements and one group through `StickerSync`: the user's token, the client's facts, its
/// retries and its view, as a sync's own requests have them.
@Suite struct CatalogCallsTests {
    nonisolated(unsafe) static let group: [String: Any] = [
        "id": "g", "name": "G", "sizeClass": "small", "flags": [], "position": 0, "locked": false,
        "productId": NSNull(), "stickers": [],
    ]

    /// A service answering the four routes, the first request to each with 503 `Retry-After: 1`.
    static func service() -> MemoryService {
        let service = MemoryService()
        service.handler = { request, number in
            let path = String((request.path ?? "").split(separator: "?").first ?? "")
            let answers: [String: Any] = [
                "/v1/trending": [
                    "window": "week", "revision": 1, "locale": NSNull(), "total": 0, "results": [], "next": NSNull(),
                ],
                "/v1/filters": ["filters": [["name": "chocoholic", "title": "Chocoholic", "flags": ["chocolate"]]]],
                "/v1/me/entitlements": [
                    "userId": "hana",
                    "entitlements": [
                        [
                            "productId": "pro",
                            "grantedBy": [
                                [
                                    "source": "stripe", "environment": "production", "transactionId": "t",
                                    "originalTransactionId": "t", "productId": "pro",
                                    "purchasedAt": "2026-01-01T00:00:00Z", "asOf": "2026-01-01T00:00:00Z",
                                    "active": true,
                                ]
                            ],
                        ]
                    ],
                ],
                "/v1/groups/g": Self.group,
            ]
            guard let answer = answers[path] else { return nil }
            return number == 1
                ? MemoryService.refusal(.serviceUnavailable, code: "unavailable", retryAfter: "1")
                : MemoryService.json(answer)
        }
        return service
    }

    @Test("Each call carries the token, is tried again after a 503, and decodes; catalog reads state the facts")
    func calls() async throws {
        // Setup
        let service = Self.service()
        let clock = FakeClock()
        let sync = StickerSync.testing(
            service, clock: clock, view: CatalogView(filter: "chocoholic", size: .small, scale: .x2),
            credentials: .token("t")
        ) { ($0.platform, $0.appVersion) = ("ios", "2.3") }
        // Action
        let trending = try await sync.trending(.week, limit: 5)
        let filters = try await sync.filters()
        let entitlements = try await sync.entitlements()
        let group = try await sync.group("g")
        // Check: the answers, an unknown transaction source kept as sent.
        #expect(trending.window.value1 == .week && filters.map(\.name) == ["chocoholic"] && group.id == "g")
        #expect(entitlements.entitlements.first?.grantedBy.first?.source.value2 == "stripe")
        // Every route asked twice (the 503, then the answer), after the service's Retry-After; all signed in.
        for path in ["/v1/trending", "/v1/filters", "/v1/me/entitlements", "/v1/groups/g"] {
            #expect(service.count(path) == 2, "\(path)")
        }
        #expect(clock.waits.filter { $0 == .seconds(1) }.count == 4)
        #expect(service.requests.allSatisfy { $0.headerFields[.authorization] == "Bearer t" })
        // Trending and the group are in the view and state the facts.
        let catalogReads = service.requests.filter {
            $0.path?.hasPrefix("/v1/trending") == true || $0.path?.hasPrefix("/v1/groups/") == true
        }
        #expect(catalogReads.allSatisfy { $0.headerFields[AudienceFactsTests.platform] == "ios" })
        #expect(
            catalogReads.allSatisfy { $0.path?.contains("size=small") == true && $0.path?.contains("scale=2") == true })
        #expect(
            service.requests.first { $0.path?.hasPrefix("/v1/trending") == true }?.path?.contains("filter=chocoholic")
                == true)
    }
}
