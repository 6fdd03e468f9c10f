import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Client API: assets, health")
struct AssetAndHealthTests {
    @Test("Assets are immutable PNGs with ETag, HEAD and 304; unknown ones are 404")
    func assets() async throws {
        try await withApp(demo: true) { client, _ in
            let manifest = try await client.execute(uri: "/v1/manifest", method: .get)
            let asset = try #require((manifest.json["groups"] as? [[String: Any]])?.first?["cover"] as? [String: Any])
            let url = try #require(asset["url"] as? String)
            let sha = try #require(asset["sha256"] as? String)
            let get = try await client.execute(uri: url, method: .get)
            #expect(get.status == .ok)
            #expect(get.headers[.contentType] == "image/png")
            #expect(get.headers[.cacheControl] == "public, max-age=31536000, immutable")
            #expect(get.headers[.eTag] == "\"\(sha)\"")
            #expect(get.body.readableBytes == asset["bytes"] as? Int)
            let head = try await client.execute(uri: url, method: .head)
            #expect(
                head.status == .ok && head.body.readableBytes == 0
                    && head.headers[.contentLength] == String(get.body.readableBytes))
            let cached = try await client.execute(uri: url, method: .get, headers: [.ifNoneMatch: "\"\(sha)\""])
            #expect(cached.status == .notModified)
            let unknown = try await client.execute(
                uri: "/v1/assets/\(String(repeating: "0", count: 64)).png", method: .get)
            #expect(unknown.status == .notFound && unknown.problemCode == "not_found")
            #expect(try await client.execute(uri: "/v1/assets/xyz.png", method: .get).status == .notFound)
        }
    }

    @Test("healthz and readyz answer; readyz is 503 when a migration is missing")
    func health() async throws {
        try await withApp { client, db in
            #expect(try await client.execute(uri: "/healthz", method: .get).json["status"] as? String == "ok")
            #expect(try await waitUntilReady(client))
            try await db.execute("DELETE FROM schema_migrations")
            // (A busy suite can take readyz past its 2 s for the database: database_unavailable, asked again.)
            let notReady = try await eventually {
                try await client.execute(uri: "/readyz", method: .get)
            } until: {
                $0.problemCode != "database_unavailable"
            }
            #expect(notReady.status == .serviceUnavailable && notReady.problemCode == "not_ready")
            let metrics = try await client.execute(uri: "/metrics", method: .get)
            #expect(metrics.status == .ok && metrics.headers[.contentType]?.hasPrefix("text/plain") == true)
        }
    }

    @Test("Unknown routes are problem+json 404s")
    func unknownRoute() async throws {
        try await withApp { client, _ in
            let response = try await client.execute(uri: "/v2/nothing", method: .get)
            #expect(response.status == .notFound && response.problemCode == "not_found")
        }
    }
}
