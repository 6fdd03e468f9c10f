import CatalogCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// What a restricted group must not give away on a real database (issue 46): its place among the groups, and any
/// change to it in the change feed, unless the caller sees it now or saw it at its cursor's point.
@Suite struct AudienceFeedTests {
    static let inside = Audiences.caller(country: "US")
    static let outside = Audiences.caller(country: "FR")

    static func page(
        _ client: some TestClientProtocol, since cursor: String, _ headers: HTTPFields
    ) async throws -> ManifestChanges {
        let response = try await ChangeFeedTests.changes(client, since: cursor, headers: headers)
        try #require(response.status == .ok, "\(response.status)")
        return try JSONDecoder().decode(ManifestChanges.self, from: Data(buffer: response.body))
    }

    @Test func positionsAreCountedAmongTheGroupsTheCallerSees() async throws {
        try await withApp(demo: true, options: Audiences.options) { client, _ in
            let order = try await Audiences.groups(client)
            try #require(order.count == 3)
            try await Audiences.set(client, order[1], ["countries": ["US"]])
            let outsider = try await ChangeFeedTests.manifest(client, headers: Self.outside)
            let insider = try await ChangeFeedTests.manifest(client, headers: Self.inside)
            #expect(outsider.groups.map(\.id) == [order[0], order[2]])
            #expect(outsider.groups.map(\.position) == [0, 1])
            #expect(insider.groups.map(\.position) == [0, 1, 2])
            let last = try await client.execute(uri: "/v1/groups/\(order[2])", method: .get, headers: Self.outside)
            #expect(last.json["position"] as? Int == 1)
            let seen = try await client.execute(uri: "/v1/groups/\(order[2])", method: .get, headers: Self.inside)
            #expect(seen.json["position"] as? Int == 2)
        }
    }

    @Test func aPublicGroupThatGainsAnAudienceIsRemovedForThoseWhoSawIt() async throws {
        try await withApp(demo: true, options: Audiences.options) { client, _ in
            let before = try await ChangeFeedTests.manifest(client, headers: Self.outside)
            try await Audiences.set(client, "chewy", ["countries": ["US"]])
            let page = try await Self.page(client, since: before.cursor, Self.outside)
            #expect(page.removedGroups == ["chewy"] && !page.order.contains("chewy"))
        }
    }

    @Test func aRestrictedGroupNeverSeenIsNotNamedWhenUnpublishedOrEmptied() async throws {
        try await withApp(demo: true, options: Audiences.options) { client, _ in
            try await Audiences.set(client, "chewy", ["countries": ["US"]])
            let outsider = try await ChangeFeedTests.manifest(client, headers: Self.outside)
            let insider = try await ChangeFeedTests.manifest(client, headers: Self.inside)
            let chewy = try #require(insider.groups.first { $0.id == "chewy" }?.stickers.first?.id)
            let crunchy = try #require(insider.groups.first { $0.id == "crunchy" }?.stickers.first?.id)
            for sticker in [chewy, crunchy] {
                let deleted = try await client.execute(
                    uri: "/v1/admin/stickers/\(sticker)", method: .delete, headers: admin)
                #expect(deleted.status == .noContent)
            }
            try await ChangeFeedTests.patch(client, "groups/chewy", ["published": false])
            let outside = try await Self.page(client, since: outsider.cursor, Self.outside)
            #expect(outside.removedGroups.isEmpty && outside.removedStickers == [crunchy])
            #expect(!outside.order.contains("chewy") && !outside.groups.contains { $0.id == "chewy" })
            #expect(outside.groups.contains { $0.id == "crunchy" })
            let inside = try await Self.page(client, since: insider.cursor, Self.inside)
            #expect(inside.removedGroups == ["chewy"] && inside.removedStickers == [chewy, crunchy].sorted())
        }
    }
}
