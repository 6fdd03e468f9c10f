import CatalogApp
import CatalogCore
import CatalogServices
import CatalogStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// `GET /v1/trending` and search's tie-break: decay, the flood, hidden and premium stickers.
@Suite struct TrendingTests {
    /// Stores `count` sends of `sticker` in the hour `hoursAgo` before this one, as flushes would have.
    static func stored(_ db: DatabasePool, _ sticker: String, _ count: Int, hoursAgo: Int) async throws {
        try await db.execute(
            """
            INSERT INTO sticker_usage (hour, action, sticker_id, group_id, count)
            VALUES (date_trunc('hour', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - make_interval(hours => \(hoursAgo)),
                'sent', '\(sticker)', 'chewy', \(count))
            """)
    }

    @Test func decayPutsWhatIsHotNowFirstInEachWindow() async throws {
        try await withApp(demo: true, options: Usage.quick) { client, db in
            let ids = try await Usage.ids(client)
            let (old, recent, fresh, lastDay) = (
                try #require(ids["Caramel"]), try #require(ids["GummiBear"]), try #require(ids["SourCandy"]),
                try #require(ids["Lollipop"])
            )
            // Setup: 200 sends 20 days ago, 30 two hours ago, 10 in the last hour, 100 thirty hours ago.
            try await Self.stored(db, old, 200, hoursAgo: 480)
            try await Self.stored(db, recent, 30, hoursAgo: 2)
            try await Self.stored(db, fresh, 10, hoursAgo: 0)
            try await Self.stored(db, lastDay, 100, hoursAgo: 30)
            // Check: the day forgets last month and weighs yesterday's 100 below today's 30 and 10; the week keeps
            // yesterday's 100 on top and last month's 200 last.
            #expect(try await Usage.trending(client, "window=day") == [recent, fresh, lastDay])
            #expect(try await Usage.trending(client, "window=week") == [lastDay, recent, fresh, old])
            // Paged like search.
            let first = try await client.execute(uri: "/v1/trending?window=week&limit=3", method: .get)
            #expect(first.json["total"] as? Int == 4 && first.json["next"] as? String == "o3")
            #expect(try await Usage.trending(client, "window=week&limit=3&cursor=o3") == [old])
            #expect(first.headers[.cacheControl] == "max-age=30" && first.headers[.eTag] != nil)
            let again = try await client.execute(
                uri: "/v1/trending?window=week&limit=3", method: .get, headers: [.ifNoneMatch: first.headers[.eTag]!])
            #expect(again.status == .notModified)
            let bad = try await client.execute(uri: "/v1/trending?window=month", method: .get)
            #expect(bad.status == .badRequest && bad.problemCode == "invalid_parameter")
        }
    }

    @Test func aFloodFromOneSourceDoesNotMoveTheTop10() async throws {
        let proxy = try #require(AddressRange("127.0.0.1"))
        try await withReplicas(live: true) { options in
            Usage.quick(&options)
            options.server.trustedProxies = TrustedProxies([proxy])
            options.usage.perSourceHour = ServiceOptions.Usage().perSourceHour
        } setup: { db in
            // 11 stickers: the demo's 9 and 2 more sharing a demo image, written in SQL (uploads make renditions,
            // slow on a busy machine).
            try await db.execute(
                """
                INSERT INTO stickers (group_id, name, description, position, asset_sha256)
                SELECT 'chewy', 'Extra' || n, 'Extra', 10 + n,
                       (SELECT asset_sha256 FROM stickers WHERE group_id = 'chewy' ORDER BY position LIMIT 1)
                FROM generate_series(1, 2) n
                """)
        } _: { first, second in
            // Setup: the first 10 sent 40 down to 31 times, each send from an address of its own (so each counts),
            // through both replicas in turn.
            let all = Array(try await Usage.ids(first).values).sorted()
            try #require(all.count == 11)
            let (top, target) = (Array(all.prefix(10)), all[10])
            func replica(_ n: Int) -> any TestClientProtocol { n % 2 == 0 ? first : second }
            var address = 0
            for (rank, sticker) in top.enumerated() {
                for _ in 0..<(40 - rank) {
                    address += 1
                    let from: HTTPFields = [.xForwardedFor: "10.1.\(address / 200).\(address % 200)"]
                    try await Usage.post(replica(address), [Usage.event(sticker)], headers: from)
                }
            }
            let before = try await eventually {
                try await Usage.trending(first, "limit=10")
            } until: {
                $0.count == 10
            }
            #expect(before == top)
            // Action: the review's flood, 13 batches of 100 sends of the eleventh sticker from one address and from
            // each of five IPv6 /64s (7,800 sends), to both replicas in turn.
            let sources = ["203.0.113.9"] + (1...5).map { "2001:db8:0:\($0)::1" }
            for (index, source) in sources.enumerated() {
                for batch in 0..<13 {
                    let flood = try await Usage.post(
                        replica(index + batch), Array(repeating: Usage.event(target), count: 100),
                        headers: [.xForwardedFor: source])
                    #expect(flood.status == .accepted)
                }
            }
            // Check: it trends with 3 sends a source (18), below every one of the ten, which keep their order.
            let after = try await eventually {
                try await Usage.trending(first, "limit=20")
            } until: {
                $0.count == 11
            }
            #expect(Array(after.prefix(10)) == top && after.last == target)
            try await Task.sleep(for: .milliseconds(500))  // every flush of both replicas is done
            #expect(try await UsageRecordingTests.statsTotal(first, sticker: target) == 18)
        }
    }

    @Test func premiumTrendsLockedUnlessHeldAndHiddenStickersLeave() async throws {
        let purchasing = try await Purchasing.options()
        try await withApp(
            demo: true,
            options: {
                Usage.quick(&$0)
                purchasing(&$0)
            }
        ) { client, _ in
            let ids = try await Usage.ids(client)
            let (caramel, lollipop) = (try #require(ids["Caramel"]), try #require(ids["Lollipop"]))
            try await Usage.send(client, caramel, times: 5)
            try await Usage.send(client, lollipop, times: 3)
            _ = try await eventually {
                try await Usage.trending(client)
            } until: {
                $0 == [caramel, lollipop]
            }
            // Chewy becomes premium: Caramel trends locked, without pictures, for anyone but a holder.
            try await PremiumManifestTests.premiumChewy(client)
            _ = try await PremiumManifestTests.grant(client, "hana")
            for (headers, held) in [
                (HTTPFields(), false), (try await Purchasing.user("gus"), false),
                (try await Purchasing.user("hana"), true),
            ] {
                let page = try await client.execute(uri: "/v1/trending", method: .get, headers: headers)
                let first = try #require((page.json["results"] as? [[String: Any]])?.first)
                #expect(first["id"] as? String == caramel && first["locked"] as? Bool == !held)
                #expect((first["asset"] != nil) == held && (first["thumbnail"] != nil) == held)
                #expect(first["productId"] as? String == Purchasing.product)
                let asset = (first["asset"] as? [String: Any])?["url"] as? String
                #expect(asset.map { $0.contains("?") } ?? true, "a held premium picture's URL is signed")
            }
            // Crunchy (Lollipop's group) unpublished: Lollipop no longer trends.
            try await ChangeFeedTests.patch(client, "groups/crunchy", ["published": false])
            #expect(try await Usage.trending(client) == [caramel])
        }
    }

    @Test func searchBreaksTiesBetweenEquallyGoodMatchesBySends() async throws {
        try await withApp(demo: true, options: Usage.quick) { client, _ in
            let ids = try await Usage.ids(client)
            let chocolates = ["ChocolateBar", "ChocolateChip", "DarkChocolate"]
            #expect(try await SearchTests.names(client, "chocolate") == chocolates)
            // ChocolateChip sent 3 times, DarkChocolate (a weaker match: its second word) 10 times.
            try await Usage.send(client, try #require(ids["ChocolateChip"]), times: 3)
            try await Usage.send(client, try #require(ids["DarkChocolate"]), times: 10)
            let ranked = try await eventually {
                try await SearchTests.names(client, "chocolate")
            } until: {
                $0 != chocolates
            }
            // Relevance first: DarkChocolate stays last; of the two equal first-word matches, the one sent goes first.
            #expect(ranked == ["ChocolateChip", "ChocolateBar", "DarkChocolate"])
        }
    }
}
