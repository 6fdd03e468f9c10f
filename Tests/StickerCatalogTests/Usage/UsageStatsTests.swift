import CatalogApp
import CatalogCore
import CatalogStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// `GET /v1/admin/stats/stickers` and `/groups`: days, order, pages, CSV, bad parameters, admins only.
@Suite struct UsageStatsTests {
    @Test func countsPerDaySortedPagedAndAsCSV() async throws {
        try await withApp(demo: true) { client, db in
            let ids = try await Usage.ids(client)
            let (caramel, gummy, lollipop) = (
                try #require(ids["Caramel"]), try #require(ids["GummiBear"]), try #require(ids["Lollipop"])
            )
            let today = UsageDay(Date())
            for (sticker, group, days, count) in [
                (caramel, "chewy", 0, 5), (caramel, "chewy", 2, 4), (gummy, "chewy", 1, 7), (lollipop, "crunchy", 0, 1),
            ] {
                try await db.execute(
                    """
                    INSERT INTO sticker_usage (hour, action, sticker_id, group_id, count)
                    VALUES ('\(today.advanced(by: -days).text)T10:00:00Z', 'sent', '\(sticker)', '\(group)', \(count))
                    """)
            }
            let range = "from=\(today.advanced(by: -2).text)&to=\(today.text)"
            let stickers = try await client.execute(
                uri: "/v1/admin/stats/stickers?\(range)", method: .get, headers: admin)
            #expect(stickers.status == .ok)
            let rows = try #require(stickers.json["rows"] as? [[String: Any]])
            #expect(rows.map { $0["name"] as? String } == ["Caramel", "GummiBear", "Lollipop"])
            #expect(rows.map { $0["counts"] as? [Int] } == [[4, 0, 5], [0, 7, 0], [0, 0, 1]])
            #expect(rows.map { $0["total"] as? Int } == [9, 7, 1] && rows.first?["group"] as? String == "chewy")
            #expect(stickers.json["days"] as? [String] == (-2...0).map { today.advanced(by: $0).text })
            // Sorted by name, descending, two a page.
            let page = try await client.execute(
                uri: "/v1/admin/stats/stickers?\(range)&sort=-name&limit=2", method: .get, headers: admin)
            #expect(
                (page.json["rows"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Lollipop", "GummiBear"])
            #expect(page.json["total"] as? Int == 3 && page.json["next"] as? String == "o2")
            // Groups, as CSV.
            var csv = admin
            csv[.accept] = "text/csv"
            let groups = try await client.execute(uri: "/v1/admin/stats/groups?\(range)", method: .get, headers: csv)
            #expect(groups.headers[.contentType] == "text/csv; charset=utf-8")
            let days = (-2...0).map { today.advanced(by: $0).text }.joined(separator: ",")
            #expect(
                String(buffer: groups.body)
                    == "id,name,total,\(days)\r\nchewy,Chewy,16,4,7,5\r\ncrunchy,Crunchy,1,0,0,1\r\n")
            // One group's stickers, one sticker.
            let chewy = try await client.execute(
                uri: "/v1/admin/stats/stickers?\(range)&group=crunchy", method: .get, headers: admin)
            #expect((chewy.json["rows"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Lollipop"])
        }
    }

    @Test func badParametersAndStrangersAreRefused() async throws {
        try await withApp(demo: false) { client, _ in
            for query in [
                "from=2026-02-30", "from=yesterday", "from=2026-11-28&to=2026-11-01", "from=2024-01-01&to=2026-01-01",
                "action=liked", "sort=popularity", "limit=0", "limit=501", "group=Not%20a%20slug", "sticker=7",
                "cursor=x",
            ] {
                let response = try await client.execute(
                    uri: "/v1/admin/stats/stickers?\(query)", method: .get, headers: admin)
                #expect(response.status == .badRequest && response.problemCode == "invalid_parameter", "\(query)")
            }
            let stranger = try await client.execute(uri: "/v1/admin/stats/groups", method: .get)
            #expect(stranger.status == .unauthorized)
        }
    }
}
