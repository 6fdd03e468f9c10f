import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Admin authentication")
struct AdminAuthTests {
    @Test("Admin routes answer 401 problems without a valid bearer token")
    func refused() async throws {
        try await withApp { client, _ in
            for headers: HTTPFields in [
                [:], [.authorization: "Bearer wrong"], [.authorization: "Basic \(adminToken)"],
                [.authorization: "Bearer "],
            ] {
                let response = try await client.execute(uri: "/v1/admin/groups", method: .get, headers: headers)
                #expect(response.status == .unauthorized)
                #expect(response.problemCode == "unauthorized")
                #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
            }
        }
    }

    @Test("The bootstrap token and stored tokens are accepted; a stored token is kept only as a digest")
    func accepted() async throws {
        try await withApp { client, db in
            #expect(try await client.execute(uri: "/v1/admin/groups", method: .get, headers: admin).status == .ok)
            let (token, digest) = makeAdminToken()
            let catalog = PostgresCatalog(pool: db, revision: CatalogRevision(), logger: TestDatabase.logger)
            try await catalog.createAdminToken(name: "ci", digest: digest)
            let response = try await client.execute(
                uri: "/v1/admin/groups", method: .get, headers: [.authorization: "Bearer \(token)"])
            #expect(response.status == .ok)
            #expect(token.hasPrefix("stk_") && token.count > 40)
            #expect(
                try await db.count(
                    "SELECT count(*) FROM admin_tokens WHERE name = 'ci' AND token_sha256 = sha256('\(token)'::bytea)")
                    == 1)
        }
    }
}

@Suite("Admin authentication on every route")
struct AdminRouteTests {
    /// A concrete URI for a route's path: a demo group, a random sticker id, the demo filter.
    static func uri(_ path: String) -> String {
        path.replacingOccurrences(of: "stickers/{id}", with: "stickers/\(UUID().uuidString.lowercased())")
            .replacingOccurrences(of: "{id}", with: "chewy").replacingOccurrences(of: "{name}", with: "chocoholic")
    }

    @Test("Every admin route the router serves answers 401 without a valid token, and changes nothing")
    func everyRoute() async throws {
        let routes = offlineRouter(methodNotAllowed: false).routes
            .map { ($0.method, "/" + $0.path.description.drop { $0 == "/" }) }
            .filter { $0.1.hasPrefix("/v1/admin") }
        #expect(routes.count >= 12)
        try await withApp(demo: true) { client, db in
            for (method, path) in routes {
                for headers: HTTPFields in [[:], [.authorization: "Bearer not-the-token"]] {
                    let response = try await client.execute(
                        uri: Self.uri(path), method: method, headers: headers, body: Body.json([:]))
                    #expect(
                        response.status == .unauthorized && response.problemCode == "unauthorized", "\(method) \(path)")
                }
            }
            #expect(try await db.count("SELECT count(*) FROM stickers") == 9)
        }
    }

    @Test(
        "Without a token, an admin path says nothing of its methods: any method it does not serve is 401, not 405 with Allow"
    )
    func methodsAreToldOnlyToAnAdmin() async throws {
        let paths = Set(
            offlineRouter(methodNotAllowed: false).routes.map { "/" + $0.path.description.drop { $0 == "/" } }
                .filter { $0.hasPrefix("/v1/admin") })
        try await withApp(demo: true) { [paths] client, _ in
            for path in paths {
                for method in [HTTPRequest.Method.put, .trace, .options, HTTPRequest.Method("QUERY")!] {
                    for headers: HTTPFields in [[:], [.authorization: "Bearer not-the-token"]] {
                        let response = try await client.execute(uri: Self.uri(path), method: method, headers: headers)
                        #expect(
                            response.status == .unauthorized && response.headers[.allow] == nil, "\(method) \(path)")
                    }
                }
            }
            // With a token, still 405 with Allow.
            let response = try await client.execute(uri: "/v1/admin/groups", method: .trace, headers: admin)
            #expect(response.status == .methodNotAllowed && response.headers[.allow] != nil)
        }
    }

    @Test("A database failure while checking a token is a 503 with Retry-After, not a 500")
    func databaseDown() async throws {
        let app = Application(router: offlineRouter(ports: .down))
        try await app.test(.router) { client in
            let response = try await client.execute(
                uri: "/v1/admin/groups", method: .get, headers: [.authorization: "Bearer stk_some-stored-token"])
            #expect(response.status == .serviceUnavailable && response.problemCode == "database_unavailable")
            #expect(response.headers[.retryAfter] != nil)
        }
    }
}
