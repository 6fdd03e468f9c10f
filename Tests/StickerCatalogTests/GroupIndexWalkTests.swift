import CatalogStore
import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

/// The group index on a real database: a walk through its pages while groups are added, moved and unpublished between
/// every two pages lists no group twice and skips none that stayed.
@Suite struct GroupIndexWalkTests {
    static func page(_ client: some TestClientProtocol, _ query: String) async throws -> [String: Any] {
        let response = try await client.execute(uri: "/v1/groups?" + query, method: .get)
        #expect(response.status == .ok, "\(query)")
        return try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    static func ids(_ page: [String: Any]) -> [String] {
        (page["groups"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    /// `count` groups `prefix-1`... after the demo's, each with one sticker (a demo image), written in SQL: uploads
    /// make renditions, which take seconds each on a busy machine.
    static func addGroups(_ db: DatabasePool, _ prefix: String, _ count: Int, at position: Int) async throws {
        try await db.execute(
            """
            INSERT INTO sticker_groups (id, name, position)
            SELECT '\(prefix)-' || n, 'Walk \(prefix) ' || n, \(position) + n FROM generate_series(1, \(count)) n
            """)
        try await db.execute(
            """
            INSERT INTO stickers (group_id, name, description, position, asset_sha256)
            SELECT '\(prefix)-' || n, 'W' || n, 'A sticker', 0,
                   (SELECT asset_sha256 FROM stickers WHERE group_id = 'chewy' ORDER BY position LIMIT 1)
            FROM generate_series(1, \(count)) n
            """)
    }

    @Test func aWalkAcrossEditsListsEachGroupOnceAndSkipsNoneThatStayed() async throws {
        try await withApp(demo: true) { client, db in
            // Setup: 40 groups beside the demo's 3, seen by the index.
            try await Self.addGroups(db, "walk", 40, at: 10)
            let all = try await eventually({ Self.ids(try await Self.page(client, "limit=500")) }) { $0.count == 43 }
            #expect(all.count == 43)
            // Action: pages of 4; between every two, a group added, one moved to the front, one unpublished.
            var random = SplitMix(47)
            var stayed = Set(all)
            var sent: [String] = []
            var query = "limit=4"
            for round in 0..<40 {
                let page = try await Self.page(client, query)
                sent += Self.ids(page)
                guard let next = page["next"] as? String else { break }
                query = "limit=4&cursor=" + next
                try await Self.addGroups(db, "new\(round)", 1, at: 1000 + round)
                let place = Int.random(in: 0...40, using: &random)
                try await ChangeFeedTests.patch(client, "groups/new\(round)-1", ["position": place])
                let moved = try #require(all.randomElement(using: &random))
                try await ChangeFeedTests.patch(client, "groups/\(moved)", ["position": 0])
                let gone = try #require(all.filter(stayed.contains).randomElement(using: &random))
                try await ChangeFeedTests.patch(client, "groups/\(gone)", ["published": false])
                stayed.remove(gone)
            }
            // Check
            #expect(Set(sent).count == sent.count, "a group listed twice: \(sent)")
            #expect(stayed.isSubset(of: Set(sent)), "skipped: \(stayed.subtracting(sent).sorted())")
        }
    }
}
