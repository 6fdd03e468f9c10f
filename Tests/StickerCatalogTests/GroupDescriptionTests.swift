import CatalogCore
import Foundation
import HummingbirdTesting
import TestSupport
import Testing

/// A group's description through the API: set on creation and by a patch, checked like any text, shown in the asked
/// locale by the manifest, the group and the index, and a visible change like a name's: a new release, the group in
/// the change feed, a new `version`, and back with a restore.
@Suite struct GroupDescriptionTests {
    static func index(_ client: some TestClientProtocol, _ query: String = "") async throws -> [[String: Any]] {
        try await client.execute(uri: "/v1/groups" + query, method: .get).json["groups"] as? [[String: Any]] ?? []
    }

    @Test func aDescriptionIsShownInTheAskedLocaleEverywhereAGroupIs() async throws {
        try await withApp(demo: true) { client, _ in
            let created = try await client.execute(
                uri: "/v1/admin/groups", method: .post, headers: admin,
                body: Body.json([
                    "id": "sour", "name": "Sour", "description": "Sweets that bite back",
                    "localizedDescriptions": ["fr": "Des bonbons qui piquent"],
                ]))
            #expect(created.status == .created, "\(created.json)")
            #expect(created.json["description"] as? String == "Sweets that bite back")
            _ = try await DraftPrivacyTests.upload(client, into: "sour", name: "Lemon")
            for query in ["", "?locale=fr-CA"] {
                let expected = query.isEmpty ? "Sweets that bite back" : "Des bonbons qui piquent"
                let listed = try await Self.index(client, query).first { $0["id"] as? String == "sour" }
                #expect(listed?["description"] as? String == expected, "\(query)")
                let group = try await client.execute(uri: "/v1/groups/sour" + query, method: .get).json
                #expect(group["description"] as? String == expected, "\(query)")
                let manifest = try await client.execute(uri: "/v1/manifest" + query, method: .get).json
                let inManifest = (manifest["groups"] as? [[String: Any]])?.first { $0["id"] as? String == "sour" }
                #expect(inManifest?["description"] as? String == expected, "\(query)")
            }
            // The demo's groups have theirs; a group without one lists no key.
            let demo = try await Self.index(client, "?locale=de")
            #expect(
                demo.first { $0["id"] as? String == "chewy" }?["description"] as? String
                    == "Weiche Süßigkeiten zum Kauen")
            try await ChangeFeedTests.patch(client, "groups/sour", ["description": "", "localizedDescriptions": [:]])
            let cleared = try await Self.index(client, "?locale=fr").first { $0["id"] as? String == "sour" }
            #expect(cleared != nil && cleared?["description"] == nil)
        }
    }

    @Test func badDescriptionsAreRefusedAndStoreNothing() async throws {
        try await withApp(demo: true) { client, db in
            let bad: [[String: Any]] = [
                ["description": String(repeating: "a", count: 301)], ["description": "   "],
                ["description": "tab\there"], ["localizedDescriptions": ["fr": ""]],
                ["localizedDescriptions": ["not a tag": "x"]], ["description": NSNull()],
            ]
            for body in bad {
                let patched = try await client.execute(
                    uri: "/v1/admin/groups/chewy", method: .patch, headers: admin, body: Body.json(body))
                #expect(patched.status == .unprocessableContent, "\(body): \(patched.status)")
                #expect(patched.headers[.contentType] == "application/problem+json")
            }
            #expect(
                try await db.strings("SELECT description FROM sticker_groups WHERE id = 'chewy'")
                    == [DemoDescriptions.chewy])
        }
    }

    @Test func aNewDescriptionIsAReleaseAChangeAndANewVersionAndARestoreUndoesIt() async throws {
        try await withApp(demo: true) { client, _ in
            let before = try await Self.index(client).first { $0["id"] as? String == "chewy" }
            let manifest = try await ChangeFeedTests.manifest(client)
            let others = try await Self.index(client).filter { $0["id"] as? String != "chewy" }
            try await ChangeFeedTests.patch(client, "groups/chewy", ["description": "Chewier than ever"])
            let after = try await Self.index(client).first { $0["id"] as? String == "chewy" }
            #expect(after?["description"] as? String == "Chewier than ever")
            #expect(after?["version"] as? String != before?["version"] as? String)
            // No other group's version moved.
            let othersAfter = try await Self.index(client).filter { $0["id"] as? String != "chewy" }
            #expect(othersAfter.map { $0["version"] as? String } == others.map { $0["version"] as? String })
            let changes = try await ChangeFeedTests.changes(client, since: manifest.cursor).json
            #expect((changes["groups"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["chewy"])
            let releases = try await ReleaseTests.releases(client, "?limit=1")["releases"] as? [[String: Any]]
            let summary = releases?.first?["summary"] as? [String: Any]
            #expect((summary?["groups"] as? [String: Any])?["changed"] as? [String] == ["chewy"])
            _ = try await ReleaseTests.restore(client, manifest.revision)
            let restored = try await eventually(
                {
                    try await Self.index(client).first { $0["id"] as? String == "chewy" }
                }, until: { $0?["description"] as? String == DemoDescriptions.chewy })
            #expect(restored?["description"] as? String == DemoDescriptions.chewy)
        }
    }
}

/// The demo's descriptions as the tests read them.
enum DemoDescriptions {
    static let chewy = "Soft sweets to chew on"
}
