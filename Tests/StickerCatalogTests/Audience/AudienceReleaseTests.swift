import CatalogCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// An audience change is a catalog change: a release that says so, restorable; the admin's preview and exports take
/// a caller's facts.
@Suite struct AudienceReleaseTests {
    @Test func anAudienceChangeIsAReleaseAndARestoreBringsItBack() async throws {
        try await withApp(demo: true, options: Audiences.options) { client, db in
            let french = Audiences.caller(country: "FR")
            let open = Int64(try await DraftPrivacyTests.revision(db))
            // Action: chewy for the US only, then its name changed too.
            try await Audiences.set(client, "chewy", ["countries": ["US"]])
            let restricted = Int64(try await DraftPrivacyTests.revision(db))
            // Check: a release naming the audience change; French callers lose chewy.
            #expect(restricted == open + 1)
            let releases = try await ReleaseTests.releases(client)
            let latest = try #require((releases["releases"] as? [[String: Any]])?.first)
            let groups = (latest["summary"] as? [String: Any])?["groups"] as? [String: Any]
            #expect(latest["revision"] as? Int == Int(restricted))
            #expect(groups?["audience"] as? [String] == ["chewy"] && groups?["changed"] as? [String] == ["chewy"])
            #expect(try await !Audiences.sees(client, "chewy", french))
            // Restoring the release before brings everyone back; restoring the restricted one restricts again.
            _ = try await ReleaseTests.restore(client, open)
            #expect(try await Audiences.sees(client, "chewy", french))
            let stored = try await db.count("SELECT count(*)::int FROM sticker_groups WHERE audience IS NOT NULL")
            #expect(stored == 0)
            _ = try await ReleaseTests.restore(client, restricted)
            #expect(try await !Audiences.sees(client, "chewy", french))
            #expect(try await Audiences.sees(client, "chewy", Audiences.caller(country: "US")))
        }
    }

    @Test func aRestoredGroupKeepsItsBuckets() async throws {
        try await withApp(demo: true) { client, db in
            try await Audiences.set(client, "chewy", ["percentage": 50])
            let salt = try #require(
                try await db.strings("SELECT audience_salt FROM sticker_groups WHERE id = 'chewy'").first)
            let kept = Int64(try await DraftPrivacyTests.revision(db))
            #expect(
                try await client.execute(uri: "/v1/admin/groups/chewy", method: .delete, headers: admin).status
                    == .noContent)
            _ = try await ReleaseTests.restore(client, kept)
            #expect(try await db.strings("SELECT audience_salt FROM sticker_groups WHERE id = 'chewy'") == [salt])
        }
    }

    @Test func thePreviewAndExportsTakeACallersFacts() async throws {
        try await withApp(demo: true) { client, _ in
            try await Audiences.set(
                client, "chewy", ["countries": ["US"], "platforms": ["ios"], "appVersions": ["minimum": "2.0"]])
            try await Audiences.set(client, "chocolate", ["percentage": 10])
            func preview(_ query: String) async throws -> [String] {
                let response = try await client.execute(
                    uri: "/v1/admin/manifest?\(query)", method: .get, headers: admin)
                #expect(response.status == .ok, "\(query): \(String(buffer: response.body))")
                return try JSONDecoder().decode(Manifest.self, from: Data(buffer: response.body)).groups.map(\.id)
            }
            #expect(try await preview("") == ["crunchy"])
            #expect(
                Set(try await preview("country=US&platform=ios&appVersion=2.1&bucket=500")) == ["crunchy", "chewy"])
            #expect(try await preview("country=US&platform=ios&appVersion=2.1&bucket=99").contains("chocolate"))
            #expect(try await !preview("bucket=100").contains("chocolate"))
            let user = try await client.execute(
                uri: "/v1/admin/users/someone/manifest?country=US&platform=ios&appVersion=2", method: .get,
                headers: admin)
            #expect(String(buffer: user.body).contains("\"id\":\"chewy\""))
            let bad = try await client.execute(uri: "/v1/admin/manifest?bucket=1000", method: .get, headers: admin)
            #expect(bad.status == .badRequest && bad.problemCode == "invalid_parameter")
            // Exports: everyone's view by default, a caller's with its facts.
            let hidden = try await client.execute(
                uri: "/v1/admin/exports/signal?group=chewy", method: .head, headers: admin)
            let shown = try await client.execute(
                uri: "/v1/admin/exports/signal?group=chewy&country=US&platform=ios&appVersion=2", method: .head,
                headers: admin)
            #expect(hidden.status == .notFound && shown.status == .ok)
        }
    }
}
